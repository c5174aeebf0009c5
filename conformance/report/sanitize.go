package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terminal returns s safe to print as part of one line on a terminal: every character that
// could move the cursor, end or rewrite the line, change colours or hide itself (C0 and C1
// controls, DEL, ESC, CR, LF, the line and paragraph separators U+2028/U+2029, bidirectional
// and zero-width format characters, the BOM, the soft hyphen, every space but U+0020 and the
// blank Hangul fillers) is shown as an escape, \n, \r, \t or \uXXXX (the JSON
// spelling, so a JSON text keeps its meaning); bytes that are not UTF-8 become U+FFFD. An
// adapter's hello, its error messages and the lines it wrote are printed through it, so
// nothing an adapter sends can forge the verdict's line.
func Terminal(s string) string { return sanitize(s, false) }

// terminalBlock is Terminal for text of many lines: it keeps LF, and escapes the rest.
func terminalBlock(s string) string { return sanitize(s, true) }

func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
		unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) ||
		// Spaces other than U+0020 (NBSP, U+2000…U+200A, U+3000, …) and the blank Hangul
		// fillers print as a space or nothing: a differing input would look like a space.
		r > 0x7f && unicode.Is(unicode.Zs, r) || r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0
}

func sanitize(s string, keepNewline bool) string {
	clean := utf8.ValidString(s)
	for _, r := range s {
		if unsafeRune(r) && !(keepNewline && r == '\n') {
			clean = false
			break
		}
	}
	if clean {
		return s // the fast path: reports are almost always plain
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune('\uFFFD')
		case r == '\n' && keepNewline:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError:
			b.WriteRune(r) // a U+FFFD the text really holds
		case unsafeRune(r) && r > 0xFFFF:
			r1, r2 := utf16Pair(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}

// markdownText escapes s for a line of Markdown (a heading, a list item, a table cell): it
// is first made Terminal-safe, then every ASCII punctuation character is backslash-escaped
// (CommonMark allows it for all of them), so text from an adapter can open no link, image,
// emphasis, HTML tag, autolink (the ':' of "https://", the '.' of "www.", the '@' of an
// address) or table cell.
func markdownText(s string) string {
	s = Terminal(s)
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for _, r := range s {
		if r < 0x80 && unicode.IsPunct(r) || r < 0x80 && unicode.IsSymbol(r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
