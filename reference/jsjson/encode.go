// Package jsjson is JSON as JavaScript's JSON.stringify writes it and JSON.parse reads it, over
// the WTF-8 strings of package jsstring (spec SR-STR-*).
//
// encoding/json differs from JSON.stringify in ways that change bytes the contract fixes: it
// escapes <, >, & and U+2028/U+2029, replaces lone surrogates and invalid UTF-8 with U+FFFD, and
// formats numbers otherwise. This package writes what JSON.stringify writes: `"` and `\` escaped,
// \b \f \n \r \t for those controls, \u00XX (lowercase hex) for the other controls below U+0020,
// \udXXX for a lone surrogate, and everything else raw.
package jsjson

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

const hexDigits = "0123456789abcdef"

// AppendString appends JSON.stringify(s) to dst.
func AppendString(dst []byte, s string) []byte { return appendString(dst, s, false) }

// AppendStringTagSafe appends JSON.stringify(s) with every "<" written as \u003c: the seed's
// stringifyTagSafeJson applied to one string.
func AppendStringTagSafe(dst []byte, s string) []byte { return appendString(dst, s, true) }

// Quote returns JSON.stringify(s).
func Quote(s string) string { return string(AppendString(make([]byte, 0, len(s)+2), s)) }

func appendString(dst []byte, s string, tagSafe bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (c != '<' || !tagSafe) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other controls, and < when tag-safe
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, n := jsstring.DecodeRune(s[i:])
		if jsstring.IsSurrogate(r) {
			dst = append(dst, s[start:i]...)
			// A high surrogate directly followed by a low one (non-canonical input) is one pair.
			if r < 0xDC00 {
				if r2, n2 := jsstring.DecodeRune(s[i+n:]); n2 == 3 && r2 >= 0xDC00 && r2 <= 0xDFFF {
					dst = utf8.AppendRune(dst, 0x10000+(r-0xD800)<<10+(r2-0xDC00))
					i += n + n2
					start = i
					continue
				}
			}
			dst = append(dst, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
			i += n
			start = i
			continue
		}
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i++
			start = i
			continue
		}
		i += n
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// StringSize returns len(AppendString(nil, s)), or of AppendStringTagSafe when tagSafe, without
// building it.
func StringSize(s string, tagSafe bool) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20 || (c == '<' && tagSafe):
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := jsstring.DecodeRune(s[i:])
		switch {
		case jsstring.IsSurrogate(r):
			if r < 0xDC00 {
				if r2, n2 := jsstring.DecodeRune(s[i+size:]); n2 == 3 && r2 >= 0xDC00 && r2 <= 0xDFFF {
					n += 4
					i += size + n2
					continue
				}
			}
			n += 6
		case r == utf8.RuneError && size == 1:
			n += 3
		default:
			n += size
		}
		i += size
	}
	return n
}

// AppendNumber appends JSON.stringify(f): Number.prototype.toString for finite numbers, with
// -0 as 0, and null for NaN and the infinities.
func AppendNumber(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	return AppendNumberString(dst, f)
}

// NumberString returns Number.prototype.toString() of f (radix 10): "NaN", "Infinity" and
// "-Infinity" for those values.
func NumberString(f float64) string { return string(AppendNumberString(nil, f)) }

// AppendNumberString appends Number.prototype.toString() of f, per ECMAScript
// Number::toString: the shortest digits that round-trip, positional from 1e-7 up to 1e21,
// exponential ("1e+21", "1.5e-7") outside.
func AppendNumberString(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		return append(dst, '0')
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	if f < 1e21 && f == math.Trunc(f) && f < 1<<53 {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // d[.ddd]e±XX
	var digits []byte
	exp := 0
	for i := 0; i < len(e); i++ {
		if e[i] == 'e' {
			x, _ := strconv.Atoi(string(e[i+1:]))
			exp = x
			break
		}
		if e[i] != '.' {
			digits = append(digits, e[i])
		}
	}
	k := len(digits)
	n := exp + 1 // f = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for j := 0; j < n-k; j++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for j := 0; j < -n; j++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}
