package wire

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Marshal returns JSON.stringify(v), except that an object marked with Object.KeepOrder is
// written with its keys in the order they were set, and a Number as its text.
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// Append appends the text Marshal returns for v to dst. It fails only on a Go value that is not a Value
// (or a Number that is not a JSON number).
func Append(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case float64:
		return AppendNumber(dst, x), nil
	case int:
		return AppendNumber(dst, float64(x)), nil
	case Number:
		if _, err := x.Float64(); err != nil {
			return dst, err
		}
		return append(dst, x...), nil
	case string:
		return AppendString(dst, x), nil
	case Raw:
		return append(dst, x...), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = Append(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case *Object:
		dst = append(dst, '{')
		keys := x.Len()
		var order []int
		if !x.KeepsOrder() {
			order = x.keyOrder()
		}
		for i := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			j := i
			if order != nil {
				j = order[i]
			}
			dst = append(AppendString(dst, x.keys[j]), ':')
			e := x.vals[j]
			var err error
			if dst, err = Append(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	return dst, fmt.Errorf("wire: %T is not a JSON value", v)
}

// Quote returns JSON.stringify(s).
func Quote(s string) string { return string(AppendString(nil, s)) }

// AppendString appends JSON.stringify(s) to dst: `"` and `\` escaped, \b \f \n \r \t for those
// controls, \u00xx (lowercase hex) for the other controls below U+0020, \udxxx for a lone
// surrogate, U+FFFD for a byte that is not WTF-8, everything else as it is. (encoding/json
// differs: it escapes <, >, & and U+2028/U+2029 and drops lone surrogates.)
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	run := 0 // s[run:i] is copied as it is when something to rewrite interrupts it
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := rune(c), 1
		if c >= utf8.RuneSelf {
			r, n = DecodeRune(s[i:])
			if !IsSurrogate(r) && (r != utf8.RuneError || n > 1) {
				i += n
				continue
			}
		}
		dst = append(dst, s[run:i]...)
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\b':
			dst = append(dst, `\b`...)
		case r == '\f':
			dst = append(dst, `\f`...)
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r < 0x20:
			dst = fmt.Appendf(dst, `\u%04x`, r)
		case r == utf8.RuneError: // a byte that is not WTF-8
			dst = append(dst, "\uFFFD"...)
		default: // a surrogate: half of a pair written in two three-byte forms, or lone
			if lo, m := DecodeRune(s[i+n:]); isHighSurrogate(r) && m == 3 && isLowSurrogate(lo) {
				dst = utf8.AppendRune(dst, utf16.DecodeRune(r, lo))
				n += m
			} else {
				dst = fmt.Appendf(dst, `\u%04x`, r)
			}
		}
		i += n
		run = i
	}
	dst = append(dst, s[run:]...)
	return append(dst, '"')
}

// StringSize returns len(Quote(s)).
func StringSize(s string) int { return len(AppendString(nil, s)) }

// AppendNumber appends JSON.stringify(f): Number.prototype.toString for a finite f (-0 as 0),
// null for NaN and the infinities.
func AppendNumber(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	return appendNumber(dst, f)
}

// NumberString returns Number.prototype.toString() of f: the shortest decimal that reads back
// as f, positional from 1e-6 to below 1e21 and exponential ("1e+21", "1.5e-7") outside; "NaN",
// "Infinity" and "-Infinity" for those.
func NumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return string(appendNumber(nil, f))
}

// appendNumber is ECMAScript's Number::toString of a finite f, the way encoding/json writes a
// float64 ("like ES6", its comment says): strconv's shortest digits, in positional form
// unless the magnitude is below 1e-6 or from 1e21 on, with the exponent's leading zero
// dropped (1e-07 is 1e-7); and -0 as 0, which encoding/json writes as -0.
func appendNumber(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0')
	}
	format := byte('f')
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if n := len(dst); format == 'e' && n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
		dst[n-2] = dst[n-1]
		dst = dst[:n-1]
	}
	return dst
}
