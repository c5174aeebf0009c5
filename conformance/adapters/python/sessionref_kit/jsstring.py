"""JavaScript string behaviour over Python str, where the contract depends on it.

The kit hands a port str values in which a surrogate pair is one code point and a lone
surrogate is a surrogate code point (Python's json does this; the escape hatch for a string
that cannot be UTF-8). These helpers give the JavaScript answer on such strings: UTF-8 as
TextEncoder and Buffer.byteLength see it, substring tests on UTF-16 code units, and
toLocaleLowerCase() with JavaScript's Unicode 17 tables (Python 3.11's str.lower() is
Unicode 14, spec/porting-traps.md TRAP-CASE-UNICODE-VERSION).
"""

import re

from . import _unicode

__all__ = ["normalize", "utf8", "utf8_len", "utf16_len", "includes", "lower", "WHITESPACE", "LINE_TERMINATORS"]

# JavaScript's \s (WhiteSpace and LineTerminator), and what . excludes in a u-flag regex.
WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
LINE_TERMINATORS = "\n\r\u2028\u2029"

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def normalize(s):
    """Joins a high and a low surrogate code point in a row into their character, as a
    JavaScript string of code units would read them (after a concatenation, a replacement)."""
    if not _SURROGATE.search(s):
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def utf8(s):
    """The UTF-8 bytes TextEncoder writes: a lone surrogate is U+FFFD (EF BF BD)."""
    s = normalize(s)
    if _SURROGATE.search(s):
        s = _SURROGATE.sub("\ufffd", s)
    return s.encode("utf-8")


def utf8_len(s):
    """Buffer.byteLength(s, "utf8")."""
    if s.isascii():
        return len(s)
    return len(utf8(s))


def _utf16(s):
    return s.encode("utf-16-le", "surrogatepass")


def utf16_len(s):
    """s.length in JavaScript: UTF-16 code units."""
    return len(_utf16(s)) // 2


def includes(haystack, needle):
    """haystack.includes(needle) on code units: a lone surrogate is found inside a pair."""
    if not _SURROGATE.search(needle):
        return needle in haystack
    h, n = _utf16(normalize(haystack)), _utf16(normalize(needle))
    i = h.find(n)
    while i >= 0 and i % 2:
        i = h.find(n, i + 1)
    return i >= 0


def _ranges(text):
    out = []
    for part in text.split():
        a, _, b = part.partition("-")
        out.append((int(a, 16), int(b or a, 16)))
    return out


def _member(table):
    import bisect

    starts = [a for a, _ in table]

    def contains(c):
        i = bisect.bisect_right(starts, c) - 1
        return i >= 0 and c <= table[i][1]

    return contains


_LOWER = {}
for _entry in _unicode.LOWER.split():
    _c, _, _l = _entry.partition(":")
    _LOWER[chr(int(_c, 16))] = "".join(chr(int(x, 16)) for x in _l.split(","))
_TRANSLATE = {ord(k): v for k, v in _LOWER.items()}
_cased = _member(_ranges(_unicode.CASED))
_ignorable = _member(_ranges(_unicode.CASE_IGNORABLE))


def _final_sigma(s, i):
    # Unicode Final_Sigma: a cased letter before (skipping case-ignorables), none after.
    j = i - 1
    while j >= 0 and _ignorable(ord(s[j])):
        j -= 1
    if j < 0 or not _cased(ord(s[j])):
        return False
    j = i + 1
    while j < len(s) and _ignorable(ord(s[j])):
        j += 1
    return j == len(s) or not _cased(ord(s[j]))


def lower(s):
    """s.toLocaleLowerCase() in JavaScript's default (root) locale: full lowercase mapping of
    Unicode 17, with final sigma."""
    s = normalize(s)
    if s.isascii():
        return s.lower()
    if "\u03a3" not in s:
        return s.translate(_TRANSLATE)
    out = []
    last = 0
    for i, ch in enumerate(s):
        if ch == "\u03a3":
            out.append(s[last:i].translate(_TRANSLATE))
            out.append("\u03c2" if _final_sigma(s, i) else "\u03c3")
            last = i + 1
    out.append(s[last:].translate(_TRANSLATE))
    return "".join(out)
