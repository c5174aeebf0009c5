package pairing

import (
	"fmt"
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
	if !strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '"' || r == '\\' || unsafeRune(r) }) {
		return p
	}
	return `"` + escape(p, true) + `"`
}

// unsafeRune reports the code points a terminal may act on rather than show,
// and utf8.RuneError, which stands for bytes that are not UTF-8.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || // C1 controls, CSI (U+009B) among them
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || // bidi embeddings, overrides, isolates
		r == 0x200e || r == 0x200f || r == 0x061c || // direction marks
		r == 0x2028 || r == 0x2029 || r == 0xfeff || // line and paragraph separators, BOM
		r == utf8.RuneError
}

// EscapeTerminal returns s with every byte QuotePath would escape written as a
// C escape, without surrounding quotes: for printing a file's own lines (a diff)
// where a quote or backslash is just text but an escape sequence must not reach
// the terminal. Tabs stay tabs.
func EscapeTerminal(s string) string { return escape(s, false) }

// escape writes s with C escapes: in a quoted path (path) also for quotes,
// backslashes and tabs, and with git's short escapes (\t, \n …).
func escape(s string, path bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch e := strings.IndexByte("\a\b\t\n\v\f\r\"\\", c); {
			case !path && c == '\t', !path && (c == '"' || c == '\\'):
				b.WriteByte(c)
			case e >= 0 && (path || c == '\r'):
				b.WriteByte('\\')
				b.WriteByte("abtnvfr\"\\"[e])
			case c < 0x20 || c == 0x7f:
				fmt.Fprintf(&b, "\\%03o", c)
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r) {
			for j := 0; j < size; j++ {
				fmt.Fprintf(&b, "\\%03o", s[i+j])
			}
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
