package jsstring

import (
	"sort"
	"unicode/utf8"
)

//go:generate node gen_tables.mjs

type lowerEntry struct {
	cp    rune
	lower rune   // the single-code-point lowercase, or 0 when multi
	multi string // the lowercase when it is more than one code point
}

func inRanges(t [][2]rune, r rune) bool {
	i := sort.Search(len(t), func(i int) bool { return t[i][1] >= r })
	return i < len(t) && t[i][0] <= r
}

// IsCased reports whether r has the Unicode property Cased.
func IsCased(r rune) bool { return inRanges(casedRanges[:], r) }

// IsCaseIgnorable reports whether r has the Unicode property Case_Ignorable.
func IsCaseIgnorable(r rune) bool { return inRanges(caseIgnorableRanges[:], r) }

func lookupLower(r rune) (rune, string, bool) {
	t := lowerSingle[:]
	i := sort.Search(len(t), func(i int) bool { return t[i].cp >= r })
	if i < len(t) && t[i].cp == r {
		return t[i].lower, t[i].multi, true
	}
	return 0, "", false
}

// ToLower returns String.prototype.toLowerCase() of s, which is also toLocaleLowerCase() in
// every locale but Turkish, Azeri and Lithuanian: Unicode full lowercase mapping (U+0130 becomes
// two code points) with the Final_Sigma context for U+03A3, as ICU applies it; lone surrogates
// are kept. The mappings are those of UnicodeVersion. Non-canonical input is read as
// Normalize(s) (split pairs joined, bad bytes U+FFFD), and the result is canonical.
func ToLower(s string) string {
	if !Canonical(s) {
		s = Normalize(s)
	}
	i := lowerPrefix(s)
	if i == len(s) {
		return s // nothing to change
	}
	return string(appendLower(make([]byte, 0, len(s)+8), s, i))
}

// AppendLower appends ToLower(s) to dst, allocating nothing when dst has room: a caller that
// lowers many strings only to compare them (the candidate filter) reuses one buffer.
func AppendLower(dst []byte, s string) []byte {
	if !Canonical(s) {
		s = Normalize(s)
	}
	return appendLower(dst, s, 0)
}

// lowerPrefix returns the length of the longest prefix of s that lowercasing leaves alone.
func lowerPrefix(s string) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return i
			}
			i++
			continue
		}
		r, n := DecodeRune(s[i:])
		if _, _, ok := lookupLower(r); ok {
			return i
		}
		i += n
	}
	return i
}

// appendLower appends s[:i] unchanged and the lowercase of s[i:], s canonical.
func appendLower(dst []byte, s string, i int) []byte {
	dst = append(dst, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := DecodeRune(s[i:])
		if r == 0x03A3 && finalSigma(s, i, i+n) {
			dst = append(dst, "\u03C2"...)
		} else if l, multi, ok := lookupLower(r); ok {
			if multi != "" {
				dst = append(dst, multi...)
			} else {
				dst = utf8.AppendRune(dst, l)
			}
		} else {
			dst = append(dst, s[i:i+n]...) // unchanged, lone surrogates included
		}
		i += n
	}
	return dst
}

// finalSigma applies ICU's Final_Sigma test to the sigma at s[start:end]: not followed by a
// cased letter and preceded by one, skipping case-ignorable code points on either side. ICU
// tests case-ignorable first, so a code point that is both (U+0345, U+02B0 …) is skipped.
func finalSigma(s string, start, end int) bool {
	return !casedAround(s[end:], false) && casedAround(s[:start], true)
}

func casedAround(s string, backward bool) bool {
	for len(s) > 0 {
		var r rune
		var n int
		if backward {
			r, n = DecodeLastRune(s)
			s = s[:len(s)-n]
		} else {
			r, n = DecodeRune(s)
			s = s[n:]
		}
		switch {
		case IsCaseIgnorable(r):
			continue
		case IsCased(r):
			return true
		default:
			return false
		}
	}
	return false
}
