# Same output as case.js, with str.lower() of the running Python.
import sys
out = []
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    c = chr(cp)
    l = c.lower()
    a = 1 if ("A" + c + "\u03a3").lower().endswith("\u03c2") else 0
    b = 1 if ("A\u03a3" + c).lower()[1] == "\u03c3" else 0
    if l != c or a or b:
        out.append("%X\t%s\t%d%d" % (cp, " ".join("%X" % ord(x) for x in l), a, b))
sys.stdout.write("\n".join(out) + "\n")
