// Package jsstring represents JavaScript strings in Go and gives the session-reference
// reference the JavaScript string operations its contract depends on (spec SR-STR-*).
//
// A JavaScript string is a sequence of UTF-16 code units and may hold lone surrogates, which
// UTF-8 cannot. This package stores such a string in an ordinary Go string as WTF-8: valid
// UTF-8 for every well-formed string, plus the three-byte generalized UTF-8 form (ED A0..BF xx)
// for a lone surrogate. A surrogate pair is always the four-byte form of its code point, so a
// well-formed JavaScript string and its Go string are the same bytes, and equal JavaScript
// strings are equal Go strings. Functions here accept any Go string; bytes that are not WTF-8
// read as U+FFFD, the way TextDecoder reads them.
package jsstring

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Surrogate code-point bounds.
const (
	surrMin     = 0xD800
	surrHighMax = 0xDBFF
	surrLowMin  = 0xDC00
	surrMax     = 0xDFFF
)

// DecodeRune reads the code point at the start of s. It returns a lone surrogate's own value
// for its three-byte form, U+FFFD with size 1 for a byte that starts no valid sequence, and
// (utf8.RuneError, 0) for an empty s.
func DecodeRune(s string) (r rune, size int) {
	if len(s) == 0 {
		return utf8.RuneError, 0
	}
	c := s[0]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	if c == 0xED && len(s) >= 3 && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF {
		return rune(c&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return utf8.DecodeRuneInString(s)
}

// DecodeLastRune reads the code point at the end of s, as DecodeRune does at its start.
func DecodeLastRune(s string) (r rune, size int) {
	n := len(s)
	if n == 0 {
		return utf8.RuneError, 0
	}
	if s[n-1] < utf8.RuneSelf {
		return rune(s[n-1]), 1
	}
	if n >= 3 && s[n-3] == 0xED && s[n-2] >= 0xA0 && s[n-2] <= 0xBF && s[n-1] >= 0x80 && s[n-1] <= 0xBF {
		return DecodeRune(s[n-3:])
	}
	return utf8.DecodeLastRuneInString(s)
}

// IsSurrogate reports whether r is a UTF-16 surrogate code unit value.
func IsSurrogate(r rune) bool { return r >= surrMin && r <= surrMax }

func isHigh(r rune) bool { return r >= surrMin && r <= surrHighMax }
func isLow(r rune) bool  { return r >= surrLowMin && r <= surrMax }

// AppendRune appends the WTF-8 form of r, writing a surrogate as its three-byte form. It does
// not join a low surrogate to a high one already in dst: Builder does.
func AppendRune(dst []byte, r rune) []byte {
	if IsSurrogate(r) {
		return append(dst, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(dst, r)
}

// FromUTF16 returns the string holding the code units u.
func FromUTF16(u []uint16) string {
	var b Builder
	b.Grow(len(u))
	for _, c := range u {
		b.WriteUnit(c)
	}
	return b.String()
}

// UTF16 returns the UTF-16 code units of s: s as JavaScript sees it.
func UTF16(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		r, n := DecodeRune(s[i:])
		i += n
		if r >= 0x10000 {
			h, l := utf16.EncodeRune(r)
			u = append(u, uint16(h), uint16(l))
		} else {
			u = append(u, uint16(r))
		}
	}
	return u
}

// Length returns the string's JavaScript length: its count of UTF-16 code units.
func Length(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := DecodeRune(s[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// Canonical reports whether s is canonical WTF-8: valid UTF-8 except for lone surrogates in
// three-byte form, with no high surrogate directly followed by a low one (which JavaScript
// would read as one pair).
func Canonical(s string) bool {
	prevHigh := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			prevHigh = false
			continue
		}
		r, n := DecodeRune(s[i:])
		if r == utf8.RuneError && n == 1 {
			return false
		}
		if isLow(r) && prevHigh {
			return false
		}
		prevHigh = isHigh(r)
		i += n
	}
	return true
}

// Normalize returns the canonical WTF-8 form of s: the JavaScript string s denotes.
func Normalize(s string) string {
	if Canonical(s) {
		return s
	}
	var b Builder
	b.WriteString(s)
	return b.String()
}

// WellFormed reports whether s holds no lone surrogate (and no invalid byte), JavaScript's
// String.prototype.isWellFormed: for canonical WTF-8, whether it is valid UTF-8. A high
// surrogate directly followed by a low one (non-canonical input) is one pair, as in JavaScript.
func WellFormed(s string) bool {
	if utf8.ValidString(s) {
		return true
	}
	for i := 0; i < len(s); {
		r, n := DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return false
		case isHigh(r):
			if r2, n2 := DecodeRune(s[i+n:]); n2 == 3 && isLow(r2) {
				n += n2
			} else {
				return false
			}
		case isLow(r):
			return false
		}
		i += n
	}
	return true
}

// ToWellFormed replaces every lone surrogate with U+FFFD, as String.prototype.toWellFormed
// and TextEncoder do. The result's bytes are exactly what TextEncoder.encode(s) returns.
func ToWellFormed(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	s = Normalize(s) // join split pairs: they are no lone surrogates
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, n := DecodeRune(s[i:])
		i += n
		if IsSurrogate(r) {
			r = utf8.RuneError
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// ByteLength returns Buffer.byteLength(s, "utf8"): the length of TextEncoder's UTF-8 encoding
// of s, in which a lone surrogate counts three bytes. For canonical WTF-8 that is len(s).
func ByteLength(s string) int {
	if Canonical(s) {
		return len(s)
	}
	return len(ToWellFormed(Normalize(s)))
}

// Builder builds a JavaScript string piece by piece. Like JavaScript concatenation, it joins a
// high surrogate at the end of what it holds with a low surrogate written next, so the result
// is always canonical WTF-8. The zero value is ready to use.
type Builder struct {
	buf []byte
}

// Grow makes room for n more bytes.
func (b *Builder) Grow(n int) {
	if cap(b.buf)-len(b.buf) < n {
		nb := make([]byte, len(b.buf), 2*cap(b.buf)+n)
		copy(nb, b.buf)
		b.buf = nb
	}
}

// Len returns the number of bytes written so far.
func (b *Builder) Len() int { return len(b.buf) }

// String returns the built string.
func (b *Builder) String() string { return string(b.buf) }

// Reset empties the builder.
func (b *Builder) Reset() { b.buf = b.buf[:0] }

// WriteUnit appends one UTF-16 code unit.
func (b *Builder) WriteUnit(c uint16) { b.WriteRune(rune(c)) }

// WriteRune appends one code point; a surrogate value is one code unit.
func (b *Builder) WriteRune(r rune) {
	if isLow(r) {
		if last, n := DecodeLastRune(string(b.buf)); n == 3 && isHigh(last) {
			b.buf = b.buf[:len(b.buf)-3]
			r = utf16.DecodeRune(last, r)
		}
	}
	b.buf = AppendRune(b.buf, r)
}

// WriteString appends the JavaScript string s.
func (b *Builder) WriteString(s string) {
	for len(s) > 0 {
		// Copy the ASCII and ordinary UTF-8 run at once; only surrogates and bad bytes need care.
		i := 0
		for i < len(s) {
			c := s[i]
			if c < utf8.RuneSelf {
				i++
				continue
			}
			r, n := DecodeRune(s[i:])
			if IsSurrogate(r) || (r == utf8.RuneError && n == 1) {
				break
			}
			i += n
		}
		b.buf = append(b.buf, s[:i]...)
		s = s[i:]
		if len(s) == 0 {
			return
		}
		r, n := DecodeRune(s)
		b.WriteRune(r) // a surrogate, or U+FFFD for a bad byte
		s = s[n:]
	}
}

// Concat returns the JavaScript concatenation of parts.
func Concat(parts ...string) string {
	var b Builder
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	b.Grow(n)
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}
