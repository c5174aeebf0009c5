import sys, json
out = {"lower": {}, "sigma": {}}
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF: continue
    c = chr(cp)
    l = c.lower()
    if l != c: out["lower"][cp] = [ord(x) for x in l]
    a = (c + 'Σ').lower()[-1] == 'ς'
    b = ('A' + c + 'Σ').lower()[-1] == 'ς'
    d = ('AΣ' + c).lower()[1] == 'σ'
    if a or b or d: out["sigma"][cp] = int(a) | int(b) << 1 | int(d) << 2
json.dump(out, open(sys.argv[1], "w"))
