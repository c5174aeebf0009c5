package pairing

import (
	"strings"
	"unicode/utf8"
)

// QuotePath returns p as it is safe to print on a terminal, the way git prints
// paths (core.quotePath): a path that needs it is put in double quotes with C
// escapes (\t, \n, \r, \", \\, \033 as octal …). Unlike git's default it leaves
// valid UTF-8 letters alone, so 文档/README.md stays readable; what it quotes is
// every byte that could move the cursor or start an escape sequence: C0 controls
// (ESC, CR, BS…), DEL, C1 controls (U+0080–U+009F, which some terminals obey),
// the bidirectional overrides that can make a line read differently from its
// bytes, and bytes that are not valid UTF-8.
func QuotePath(p string) string {
	if !needsQuote(p) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			switch c {
			case '\a':
				b.WriteString(`\a`)
			case '\b':
				b.WriteString(`\b`)
			case '\t':
				b.WriteString(`\t`)
			case '\n':
				b.WriteString(`\n`)
			case '\v':
				b.WriteString(`\v`)
			case '\f':
				b.WriteString(`\f`)
			case '\r':
				b.WriteString(`\r`)
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			default:
				if c < 0x20 || c == 0x7f {
					octal(&b, c)
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			for j := 0; j < size; j++ {
				octal(&b, p[i+j])
			}
		} else {
			b.WriteString(p[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

func needsQuote(p string) bool {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == '"' || c == '\\' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return true
		}
		i += size
	}
	return false
}

// unsafeRune reports the valid code points a terminal may act on rather than show.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || // C1 controls, CSI (U+009B) among them
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || // bidi embeddings, overrides, isolates
		r == 0x200e || r == 0x200f || r == 0x061c || // direction marks
		r == 0x2028 || r == 0x2029 || r == 0xfeff // line and paragraph separators, BOM
}

func octal(b *strings.Builder, c byte) {
	b.WriteByte('\\')
	b.WriteByte('0' + c>>6)
	b.WriteByte('0' + (c>>3)&7)
	b.WriteByte('0' + c&7)
}

// EscapeTerminal returns s with every byte QuotePath would escape written as a
// C escape, without surrounding quotes: for printing a file's own lines (a diff)
// where a quote or backslash is just text but an escape sequence must not reach
// the terminal. Tabs stay tabs.
func EscapeTerminal(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\t':
				b.WriteByte(c)
			case c == '\r':
				b.WriteString(`\r`)
			case c < 0x20 || c == 0x7f:
				octal(&b, c)
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			for j := 0; j < size; j++ {
				octal(&b, s[i+j])
			}
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
