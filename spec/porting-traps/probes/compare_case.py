# Compares a case probe's output with case.js's: prints how many code points lowercase
# differently, and how many answer each final-sigma probe differently, with examples.
import sys

def load(path):
    m = {}
    for line in open(path, encoding="utf-8"):
        cp, low, ab = line.rstrip("\n").split("\t")
        m[int(cp, 16)] = (low, ab)
    return m

def get(m, cp):
    return m.get(cp, ("%X" % cp, "00"))

base = load(sys.argv[1])
for path in sys.argv[2:]:
    other = load(path)
    keys = set(base) | set(other)
    low = sorted(cp for cp in keys if get(base, cp)[0] != get(other, cp)[0])
    a = sorted(cp for cp in keys if get(base, cp)[1][0] != get(other, cp)[1][0])
    b = sorted(cp for cp in keys if get(base, cp)[1][1] != get(other, cp)[1][1])
    ex = lambda xs: " ".join("U+%04X" % x for x in xs[:12])
    print("%s: lowercase %d [%s]; 'A'+c+'Σ' %d [%s]; 'AΣ'+c %d [%s]" % (path, len(low), ex(low), len(a), ex(a), len(b), ex(b)))
