package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// Marshal returns JSON.stringify(v).
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// Append appends JSON.stringify(v) to dst. It fails only on a Go value that is not a Value
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
		for i, k := range x.Keys() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(AppendString(dst, k), ':')
			e, _ := x.Get(k)
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
	s = Normalize(s) // a split pair is one code point, a bad byte U+FFFD
	for len(s) > 0 {
		r, n := DecodeRune(s)
		s = s[n:]
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
		case r < 0x20 || IsSurrogate(r):
			dst = fmt.Appendf(dst, `\u%04x`, r)
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
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
	return append(dst, NumberString(f)...)
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
	case f == 0:
		return "0"
	}
	// encoding/json formats a float64 as ECMAScript's Number::toString does (its own comment:
	// "like ES6"), except that it writes -0 as "-0", handled above.
	b, _ := json.Marshal(f)
	return string(b)
}
