# classes.js for Python's re (str patterns, default flags).
import re, sys
classes = {"s": r"\s", "dot": r".", "w": r"\w", "d": r"\d"}
for name, pat in classes.items():
    rx = re.compile(pat)
    out, start = [], -1
    for cp in range(0x110001):
        ok = cp <= 0x10FFFF and not (0xD800 <= cp <= 0xDFFF) and rx.fullmatch(chr(cp)) is not None
        if ok and start < 0:
            start = cp
        if not ok and start >= 0:
            out.append("%x" % start if start == cp - 1 else "%x-%x" % (start, cp - 1))
            start = -1
    print("%s: %s" % (name, " ".join(out)))
