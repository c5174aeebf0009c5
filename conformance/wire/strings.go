package wire

import (
	"unicode/utf16"
	"unicode/utf8"
)

// IsSurrogate reports whether r is a UTF-16 surrogate code point, U+D800 to U+DFFF.
func IsSurrogate(r rune) bool { return 0xD800 <= r && r <= 0xDFFF }

func isHighSurrogate(r rune) bool { return 0xD800 <= r && r < 0xDC00 }
func isLowSurrogate(r rune) bool  { return 0xDC00 <= r && r <= 0xDFFF }

// DecodeRune reads the first code point of the WTF-8 string s and its size in bytes. A lone
// surrogate's three-byte form reads as the surrogate; a byte that starts no valid sequence
// reads as (U+FFFD, 1), the way TextDecoder reads it; an empty s reads as (U+FFFD, 0).
func DecodeRune(s string) (rune, int) {
	if len(s) >= 3 && s[0] == 0xED && 0xA0 <= s[1] && s[1] <= 0xBF && 0x80 <= s[2] && s[2] <= 0xBF {
		return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return utf8.DecodeRuneInString(s)
}

// AppendRune appends the WTF-8 form of r to dst; a surrogate is written in its three-byte
// form, never joined to what dst ends with (Builder joins pairs).
func AppendRune(dst []byte, r rune) []byte {
	if IsSurrogate(r) {
		return append(dst, 0xED, 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
	}
	return utf8.AppendRune(dst, r)
}

// UTF16 returns the code units of s: the string as JavaScript sees it.
func UTF16(s string) []uint16 {
	units := make([]uint16, 0, len(s))
	for len(s) > 0 {
		r, n := DecodeRune(s)
		s = s[n:]
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			units = append(units, uint16(hi), uint16(lo))
			continue
		}
		units = append(units, uint16(r))
	}
	return units
}

// FromUTF16 returns the string whose code units are units, in canonical WTF-8.
func FromUTF16(units []uint16) string {
	dst := make([]byte, 0, len(units))
	for i := 0; i < len(units); i++ {
		r := rune(units[i])
		if isHighSurrogate(r) && i+1 < len(units) && isLowSurrogate(rune(units[i+1])) {
			r = utf16.DecodeRune(r, rune(units[i+1]))
			i++
		}
		dst = AppendRune(dst, r)
	}
	return string(dst)
}

// Normalize returns the canonical WTF-8 form of s, the JavaScript string s stands for: a high
// surrogate directly followed by a low one becomes their pair, and a byte that is not WTF-8
// becomes U+FFFD.
func Normalize(s string) string {
	if canonical(s) {
		return s
	}
	return FromUTF16(UTF16(s))
}

// canonical reports whether s is canonical WTF-8: nothing Normalize would change.
func canonical(s string) bool {
	if utf8.ValidString(s) {
		return true
	}
	high := false // the code point before is a high surrogate
	for len(s) > 0 {
		r, n := DecodeRune(s)
		if r == utf8.RuneError && n == 1 || high && isLowSurrogate(r) {
			return false
		}
		high = isHighSurrogate(r)
		s = s[n:]
	}
	return true
}

// WellFormed reports whether s holds no lone surrogate and no byte that is not WTF-8: the
// String.prototype.isWellFormed of the string s stands for.
func WellFormed(s string) bool {
	if utf8.ValidString(s) {
		return true
	}
	return utf8.ValidString(Normalize(s)) && !hasBadByte(s)
}

// HasLoneSurrogate reports whether a string of the JSON value v, an object's keys included,
// is not WellFormed: a value only an adapter declaring the lone-surrogates feature is sent
// or expected to answer.
func HasLoneSurrogate(v any) bool {
	switch x := v.(type) {
	case string:
		return !WellFormed(x)
	case []any:
		for _, e := range x {
			if HasLoneSurrogate(e) {
				return true
			}
		}
	case *Object:
		for _, k := range x.Keys() {
			e, _ := x.Get(k)
			if !WellFormed(k) || HasLoneSurrogate(e) {
				return true
			}
		}
	}
	return false
}

func hasBadByte(s string) bool {
	for len(s) > 0 {
		r, n := DecodeRune(s)
		if r == utf8.RuneError && n == 1 {
			return true
		}
		s = s[n:]
	}
	return false
}

// ToWellFormed returns s with every lone surrogate replaced by U+FFFD, as
// String.prototype.toWellFormed does; its bytes are TextEncoder's UTF-8 encoding of s.
func ToWellFormed(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string(utf16.Decode(UTF16(s))) // utf16.Decode writes U+FFFD for a lone surrogate
}

// ByteLength returns the length of TextEncoder's UTF-8 encoding of s, in which a lone
// surrogate counts three bytes (as U+FFFD).
func ByteLength(s string) int { return len(ToWellFormed(s)) }

// Concat returns the JavaScript concatenation of parts: a high surrogate ending one part and
// a low one starting the next make a pair.
func Concat(parts ...string) string {
	var b Builder
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}

// Builder builds a JavaScript string piece by piece, in canonical WTF-8: like JavaScript
// concatenation it joins a high surrogate it ends with and a low surrogate written next. The
// zero value is ready to use.
type Builder struct {
	buf []byte
}

// Len returns the number of bytes of the string built so far.
func (b *Builder) Len() int { return len(b.buf) }

// String returns the string built so far.
func (b *Builder) String() string { return string(b.buf) }

// WriteUnit appends one UTF-16 code unit.
func (b *Builder) WriteUnit(u uint16) { b.WriteRune(rune(u)) }

// WriteRune appends one code point; a surrogate is one code unit, joined to a high surrogate
// the builder ends with when it is a low one.
func (b *Builder) WriteRune(r rune) {
	if isLowSurrogate(r) && len(b.buf) >= 3 {
		if hi, n := DecodeRune(string(b.buf[len(b.buf)-3:])); n == 3 && isHighSurrogate(hi) {
			b.buf = utf8.AppendRune(b.buf[:len(b.buf)-3], utf16.DecodeRune(hi, r))
			return
		}
	}
	b.buf = AppendRune(b.buf, r)
}

// WriteString appends the JavaScript string s (a byte of s that is not WTF-8 as U+FFFD).
func (b *Builder) WriteString(s string) {
	if utf8.ValidString(s) { // holds no surrogate, so nothing to join
		b.buf = append(b.buf, s...)
		return
	}
	for len(s) > 0 {
		r, n := DecodeRune(s)
		b.WriteRune(r)
		s = s[n:]
	}
}
