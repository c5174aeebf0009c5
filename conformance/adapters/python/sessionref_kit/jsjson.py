"""JavaScript's JSON.parse and JSON.stringify over Python values, byte for byte.

Values: None is null, bool, float (every JSON number is a float, as in JavaScript; an int is
accepted on output), str (lone surrogates held as surrogate code points), list, dict (insertion
order). UNDEFINED is JavaScript's undefined: an absent argument, skipped in objects and written
as null in arrays, as JSON.stringify does.
"""

import json
import math
import re

__all__ = ["UNDEFINED", "parse", "stringify", "number_text", "quote"]


class _Undefined:
    """JavaScript's undefined: an argument the request left out (not null)."""

    __slots__ = ()

    def __repr__(self):
        return "UNDEFINED"

    def __bool__(self):
        return False

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return "UNDEFINED"


UNDEFINED = _Undefined()


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


_decoder = json.JSONDecoder(parse_int=float, parse_constant=_no_constant)


def parse(text):
    """JSON.parse: numbers as floats (a big integer rounds as JavaScript rounds it), NaN and
    Infinity refused, escaped lone surrogates kept. Raises ValueError on bad JSON."""
    try:
        return _decoder.decode(text)
    except RecursionError as e:
        raise ValueError("JSON nested too deeply") from e


_ESCAPE = re.compile(r'[\x00-\x1f"\\\ud800-\udfff]')
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _escape(m):
    c = m.group(0)
    return _SHORT.get(c) or "\\u%04x" % ord(c)


def quote(s):
    """A string as JSON.stringify writes it: lone surrogates and controls as lowercase \\u
    escapes, a surrogate pair (two surrogate code points in a row) as its character, nothing
    else escaped (not <, >, &, U+2028, U+2029, DEL)."""
    if not _ESCAPE.search(s):
        return '"' + s + '"'
    if _SURROGATE.search(s):
        s = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return '"' + _ESCAPE.sub(_escape, s) + '"'


def number_text(x):
    """Number::toString for a double, as JSON.stringify writes it: shortest round-trip digits
    (Python's repr finds the same), laid out as JavaScript lays them out; -0 is "0",
    NaN and the infinities are "null"."""
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return "null"
    if x == 0:
        return "0"
    r = repr(x)
    sign = ""
    if r[0] == "-":
        sign, r = "-", r[1:]
    mantissa, _, exp = r.partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = whole + frac
    n = len(whole) + (int(exp) if exp else 0)  # value = 0.digits * 10**n
    stripped = digits.lstrip("0")
    n -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    e = n - 1
    es = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return sign + digits + "e" + es
    return sign + digits[0] + "." + digits[1:] + "e" + es


def _is_index(k):
    # JavaScript orders array-index keys ("0" .. "4294967294", canonical) before the others.
    return k.isdigit() and k.isascii() and (k == "0" or k[0] != "0") and int(k) < 4294967295


def stringify(value):
    """JSON.stringify(value) with no replacer or indent: the text, or None where JavaScript
    returns undefined (for UNDEFINED). Raises TypeError for a value that is no JSON value."""
    if value is UNDEFINED:
        return None
    out = []
    _write(value, out)
    return "".join(out)


def _write(v, out):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, str):
        out.append(quote(v))
    elif isinstance(v, (int, float)):
        try:
            out.append(number_text(v))
        except OverflowError:  # an int beyond the doubles is Infinity
            out.append("null")
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            if x is UNDEFINED:
                out.append("null")
            else:
                _write(x, out)
        out.append("]")
    elif isinstance(v, dict):
        keys = list(v.keys())
        if any(k[:1].isdigit() and _is_index(k) for k in keys):
            keys = sorted((k for k in keys if _is_index(k)), key=int) + [k for k in keys if not _is_index(k)]
        out.append("{")
        first = True
        for k in keys:
            x = v[k]
            if x is UNDEFINED:
                continue
            if not first:
                out.append(",")
            first = False
            out.append(quote(k))
            out.append(":")
            _write(x, out)
        out.append("}")
    else:
        raise TypeError(f"{type(v).__name__} is not a JSON value")
