package report

import (
	"fmt"
	"strings"
)

// reorders reports whether r changes how the text around it reads while markup escaping
// lets it through: a C1 control (U+0085 ends a line in some viewers, U+009B starts a
// terminal sequence), a bidirectional formatting character (U+202E shows the rest of its
// line reversed: "Trojan Source"), a line or paragraph separator, or a zero-width character
// that hides inside a word.
func reorders(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f, r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e,
		r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029, r == 0x200b, r == 0x2060, r == 0xfeff:
		return true
	}
	return false
}

// EscapeInvisible writes each character that reorders or hides the text around it (C1
// controls, bidirectional formatting characters, U+2028/U+2029, zero-width spaces) as
// \uXXXX and leaves the rest as it is. HTML and XML escaping keep these characters, so an
// adapter's text could reverse or hide the words after it in a report page or a CI test
// view. No page markup holds one, and in a JSON or JavaScript string \uXXXX spells the same
// character, so it applies to a whole written page.
func EscapeInvisible(s string) string {
	if strings.IndexFunc(s, reorders) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if reorders(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
