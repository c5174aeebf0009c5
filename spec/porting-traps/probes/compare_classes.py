# Compares the output of a classes.* probe with classes.js's: for each class name in the probe
# (s, dot, w, d, with an engine suffix such as "-ucc" or "-icu"), prints the code points the
# probe's class has and JavaScript's lacks (+), and those it lacks (-), up to 24 of each.
import sys

def load(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        name, _, ranges = line.rstrip("\n").partition(":")
        cps = set()
        for r in ranges.split():
            a, _, b = r.partition("-")
            cps.update(range(int(a, 16), int(b or a, 16) + 1))
        out[name] = cps
    return out

js = load(sys.argv[1])
for path in sys.argv[2:]:
    for name, cps in load(path).items():
        base = js[name.split("-")[0]]
        more, less = sorted(cps - base), sorted(base - cps)
        fmt = lambda xs: " ".join("U+%04X" % x for x in xs[:24]) + (" …" if len(xs) > 24 else "")
        print("%s %s: +%d [%s] -%d [%s]" % (path, name, len(more), fmt(more), len(less), fmt(less)))
