# Small behaviours of the running Python that the catalogue cites; each line is "what: result".
import base64, binascii, json, re, sys
def show(what, f):
    try:
        r = f()
    except Exception as e:
        r = "raises %s: %s" % (type(e).__name__, e)
    print("%s: %r" % (what, r))
show("version", lambda: sys.version.split()[0])
P = r"^[A-Za-z0-9_-]+$"
for s in ["IiI", "IiI\n", "IiI\r\n", "IiI\u2028", "!!\nIiI"]:
    show("re.search(^..$) %r" % s, lambda: bool(re.search(P, s)))
    show("re.fullmatch %r" % s, lambda: bool(re.fullmatch(r"[A-Za-z0-9_-]+", s)))
for label in ["$1", "\\1", "\\g<0>", "a\\\\b"]:
    show("re.sub repl '@'+%r" % label, lambda: re.sub(r"@\[(x)\]", "@" + label, "@[x]"))
show("json.dumps default", lambda: json.dumps({"a": [1, "é<>&/\u2028\x7f\x1f"]}))
show("json.dumps lone surrogate", lambda: json.dumps("\ud800"))
show("json.dumps ensure_ascii=False lone surrogate encoded", lambda: json.dumps("\ud800", ensure_ascii=False).encode("utf-8"))
show("json.dumps compact", lambda: json.dumps({"a": [1, "é"]}, ensure_ascii=False, separators=(",", ":")))
for t in ["2.0", "1e2", "1e16", "1e21", "1e-7", "5e-324", "-0", "-0.0", "123456789012345678901", "1.0000000000000001", "9007199254740993"]:
    show("json.dumps(json.loads(%s))" % t, lambda: json.dumps(json.loads(t)))
show("isinstance(True, int), True > 0", lambda: (isinstance(True, int), True > 0))
show("json.loads 2.0 is int", lambda: isinstance(json.loads("2.0"), int))
show("float(2.0).is_integer()", lambda: (2.0).is_integer())
show("len('😀'), len(utf8)", lambda: (len("😀"), len("😀".encode())))
show("lone surrogate .encode('utf-8')", lambda: "\ud800".encode("utf-8"))
show("lone surrogate .encode('utf-8','replace')", lambda: "\ud800".encode("utf-8", "replace"))
show("lone surrogate .encode('utf-8','surrogatepass')", lambda: "\ud800".encode("utf-8", "surrogatepass"))
show("BOM decode utf-8", lambda: b"\xef\xbb\xbfa".decode("utf-8"))
show("BOM decode utf-8-sig", lambda: b"\xef\xbb\xbf\xef\xbb\xbfa".decode("utf-8-sig"))
show("'\\ud83d' in json.loads('\"\\ud83d\\ude00\"')", lambda: "\ud83d" in json.loads('"\\ud83d\\ude00"'))
show("json.loads pair joins", lambda: len(json.loads('"\\ud83d\\ude00"')))
show("'\\ud83d' + '\\ude00' == '😀'", lambda: "\ud83d" + "\ude00" == "😀")
show("urlsafe_b64encode", lambda: base64.urlsafe_b64encode(b'"~~"'))
show("urlsafe_b64decode unpadded", lambda: base64.urlsafe_b64decode("IiI"))
show("urlsafe_b64decode padded", lambda: base64.urlsafe_b64decode("IiI="))
show("urlsafe_b64decode trailing bits IiJ=", lambda: base64.urlsafe_b64decode("IiJ="))
show("b64decode url payload, validate=False", lambda: base64.b64decode("In5-In4_=="))
show("b64decode url payload, validate=True", lambda: base64.b64decode("In5-In4_==", validate=True))
show("urlsafe_b64decode with +/", lambda: base64.urlsafe_b64decode("In5+In4/"))
show("urlsafe_b64decode with newline", lambda: base64.urlsafe_b64decode("Ii\nI="))
show("sorted stable", lambda: [x for _, x in sorted([(i % 2, i) for i in range(8)], key=lambda p: p[0])])
show("set order of a,b,c (PYTHONHASHSEED dependent)", lambda: list({"a", "b", "c", "d"}))
show("'AΣ'.lower(), 'ΣΑΣ Σ'.lower()", lambda: ("AΣ".lower(), "ΣΑΣ Σ".lower()))
show("'İ'.lower() code points", lambda: [hex(ord(c)) for c in "\u0130".lower()])
show("'ß'.lower(), 'ß'.casefold()", lambda: ("ß".lower(), "ß".casefold()))
show("'é' == 'e\\u0301'", lambda: "\u00e9" == "e\u0301")
show("json.loads NaN", lambda: json.loads("NaN"))
show("json.loads 1e400", lambda: json.loads("1e400"))
