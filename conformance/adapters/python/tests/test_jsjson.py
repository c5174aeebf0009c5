"""JSON.parse and JSON.stringify as JavaScript does them, numbers and strings included."""

import json
import math
import os
import random
import shutil
import struct
import subprocess
import unittest

from sessionref_kit import UNDEFINED, jsjson, jsstring, number_text, parse, quote, stringify


class NumberText(unittest.TestCase):
    CASES = {
        0.0: "0", -0.0: "0", 1.0: "1", -1.5: "-1.5", 0.1: "0.1", 100.0: "100", 123.456: "123.456",
        1e21: "1e+21", 1e20: "100000000000000000000", 123456789012345680000.0: "123456789012345680000",
        1.5e-7: "1.5e-7", 1e-6: "0.000001", 1.234e-6: "0.000001234", 1e-7: "1e-7", 5e-324: "5e-324",
        1.7976931348623157e308: "1.7976931348623157e+308", 2.0**53: "9007199254740992", 1e16: "10000000000000000",
        2.0**-1074: "5e-324", 2.0**70: "1.1805916207174113e+21", 0.5: "0.5", 2.5e-5: "0.000025",
        math.nan: "null", math.inf: "null", -math.inf: "null", 4.35: "4.35", 0.000001: "0.000001",
    }

    def test_table(self):
        for x, want in self.CASES.items():
            self.assertEqual(number_text(x), want, repr(x))

    def test_ints_and_bools(self):
        self.assertEqual(stringify([3, 2**53 + 1, 10**400, True, False, None]), "[3,9007199254740992,null,true,false,null]")

    def test_against_node(self):
        node = shutil.which("node")
        if node is None:
            self.assertFalse(os.environ.get("SESSIONREF_REQUIRE_NODE"), "SESSIONREF_REQUIRE_NODE is set and node is not installed")
            self.skipTest("node is not installed: the comparison with JavaScript needs it")
        rng = random.Random(20261205)  # a fixed sample: the table above holds the named edges
        doubles = [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(4000)]
        doubles += [rng.uniform(-1e6, 1e6) for _ in range(1000)] + [float(rng.randint(-(2**60), 2**60)) for _ in range(500)]
        doubles += [2.0**e for e in range(-1074, 1024)] + [-(2.0**e) for e in range(-30, 80)]
        doubles += [10.0**e for e in range(-323, 309)] + [5 * 10.0**e for e in range(-323, 308)]
        doubles += [k + 0.5 for k in range(-50, 50)] + [k / 8 for k in range(-100, 100)]  # ties, exact binary fractions
        doubles += [1e21 * (1 - 2**-52), 1e21, 999999999999999900000.0, 1e-7 * (1 + 2**-52), 1e-6 * (1 - 2**-53)]
        finite = [d for d in doubles if math.isfinite(d)]
        hexes = json.dumps([struct.pack("<d", d).hex() for d in finite])
        script = "const h=JSON.parse(require('fs').readFileSync(0,'utf8'));process.stdout.write(JSON.stringify(h.map(x=>JSON.stringify(Buffer.from(x,'hex').readDoubleLE(0)))))"
        got = json.loads(subprocess.run([node, "-e", script], input=hexes, capture_output=True, text=True, check=True).stdout)
        mismatches = [(d, number_text(d), js) for d, js in zip(finite, got) if number_text(d) != js]
        self.assertEqual(mismatches[:5], [])
        self.assertGreater(len(finite), 7000)


class Strings(unittest.TestCase):
    def test_quote(self):
        self.assertEqual(quote('\ud800"\\\b\f\n\r\t\x00\x1f\x7f<>&\u2028\u2029é'), '"\\ud800\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f\x7f<>&\u2028\u2029é"')
        self.assertEqual(quote("\ud83d\ude00"), '"😀"')  # two surrogate code points are one pair
        self.assertEqual(quote("\ude00\ud83d"), '"\\ude00\\ud83d"')

    def test_objects(self):
        self.assertEqual(stringify({"b": 1, "10": 2, "2": 3, "01": 4, "a": UNDEFINED}), '{"2":3,"10":2,"b":1,"01":4}')
        self.assertEqual(stringify([UNDEFINED, {}]), "[null,{}]")
        self.assertIsNone(stringify(UNDEFINED))
        with self.assertRaises(TypeError):
            stringify({1, 2})

    def test_parse(self):
        self.assertEqual(parse('[1, 1.5, -0, 1e400, 9007199254740993]'), [1.0, 1.5, -0.0, math.inf, 9007199254740992.0])
        self.assertIsInstance(parse("1"), float)
        self.assertTrue(math.copysign(1, parse("-0")) < 0)
        self.assertEqual(parse('"\\ud800\\ud83d\\ude00"'), "\ud800😀")
        for bad in ["NaN", "[Infinity]", "-Infinity", "{", "'a'", "[1,]"]:
            with self.assertRaises(ValueError, msg=bad):
                parse(bad)
        with self.assertRaises(ValueError):
            parse("[" * 100000)

    def test_undefined(self):
        import copy

        self.assertIs(copy.deepcopy({"a": UNDEFINED})["a"], UNDEFINED)
        self.assertFalse(UNDEFINED)


class JSStrings(unittest.TestCase):
    def test_utf8(self):
        self.assertEqual(jsstring.utf8_len("a\ud800é😀"), 1 + 3 + 2 + 4)
        self.assertEqual(jsstring.utf8("\ud83d\ude00"), "😀".encode())
        self.assertEqual(jsstring.utf8("\udc00"), b"\xef\xbf\xbd")
        self.assertEqual(jsstring.utf16_len("a😀\ud800"), 4)

    def test_includes_on_code_units(self):
        self.assertTrue(jsstring.includes("x😀", "\ud83d"))
        self.assertTrue(jsstring.includes("x😀", "\ude00"))
        self.assertFalse(jsstring.includes("\ude00\ud83d", "😀"))
        self.assertTrue(jsstring.includes("abc", "bc"))

    def test_lower(self):
        self.assertEqual(jsstring.UNICODE_VERSION if hasattr(jsstring, "UNICODE_VERSION") else jsstring._unicode.UNICODE_VERSION, "17.0")
        # Unicode 16 and 17 letters that Python 3.11's str.lower() leaves alone.
        self.assertEqual(jsstring.lower("\u1c89\ua7ce\U00016ea0"), "\u1c8a\ua7cf\U00016ebb")
        self.assertEqual(jsstring.lower("\u0130"), "i\u0307")
        self.assertEqual(jsstring.lower("ΑΣ ΣΑ Σ ΑΣ'Α ΑΣ'"), "ας σα σ ασ'α ας'")
        self.assertEqual(jsstring.lower("ABC"), "abc")
        self.assertEqual(jsstring.lower("\ud800A"), "\ud800a")


if __name__ == "__main__":
    unittest.main()


class UnicodeTable(unittest.TestCase):
    def test_generated_from_node(self):
        """_unicode.py is what gen_unicode.mjs writes on a Node.js with Unicode 17."""
        node = shutil.which("node")
        if node is None:
            self.assertFalse(os.environ.get("SESSIONREF_REQUIRE_NODE"), "SESSIONREF_REQUIRE_NODE is set and node is not installed")
            self.skipTest("node is not installed: regenerating the table needs it")
        here = os.path.join(os.path.dirname(__file__), "..", "sessionref_kit")
        if subprocess.run([node, "-p", "process.versions.unicode"], capture_output=True, text=True).stdout.strip() != "17.0":
            self.skipTest("this Node.js is not Unicode 17")
        got = subprocess.run([node, os.path.join(here, "gen_unicode.mjs")], capture_output=True, text=True, check=True).stdout
        with open(os.path.join(here, "_unicode.py"), encoding="utf-8") as f:
            want = f.read()
        self.assertEqual(got.split("\n", 1)[1], want.split("\n", 1)[1])


class LowerAgainstNode(unittest.TestCase):
    def test_every_code_point_and_sigma_contexts(self):
        """jsstring.lower of every code point, and of final-sigma contexts around each of a fixed
        sample, equals toLocaleLowerCase() in Node.js."""
        node = shutil.which("node")
        if node is None:
            self.assertFalse(os.environ.get("SESSIONREF_REQUIRE_NODE"), "SESSIONREF_REQUIRE_NODE is set and node is not installed")
            self.skipTest("node is not installed: the comparison with JavaScript needs it")
        if subprocess.run([node, "-p", "process.versions.unicode"], capture_output=True, text=True).stdout.strip() != "17.0":
            self.skipTest("this Node.js is not Unicode 17")
        points = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
        rng = random.Random(17)
        sample = rng.sample(points, 3000) + ["\u0345", "'", "\u00ad", "\u0301", "A", "\u1c89", "\U00016ea0", "\ud800", "\udc00"]
        texts = ["\n".join(points)]
        for c in sample:
            texts += ["A\u03a3" + c, c + "\u03a3", "A" + c + "\u03a3", "A\u03a3" + c + "B", "\u03a3" + c + "\u03a3"]
        payload = stringify(texts)
        script = "const t=JSON.parse(require('fs').readFileSync(0,'utf8'));process.stdout.write(JSON.stringify(t.map(s=>s.toLocaleLowerCase())))"
        got = parse(subprocess.run([node, "-e", script], input=payload.encode(), capture_output=True, check=True).stdout.decode())
        mismatches = [(t[:40], jsstring.lower(t)[:40], g[:40]) for t, g in zip(texts, got) if jsstring.lower(t) != g]
        self.assertEqual(mismatches[:3], [])
        self.assertEqual(len(got), len(texts))
