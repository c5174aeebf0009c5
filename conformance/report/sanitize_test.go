package report

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// Every character that prints as a space, as nothing, or moves the cursor is shown as an
// escape; ordinary text, letters of any script and a U+FFFD the text holds stay as they are.
func TestTerminalEscapesInvisibles(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a\u2028b", `a\u2028b`},     // line separator
		{"a\u2029b", `a\u2029b`},     // paragraph separator
		{"a\u200bb", `a\u200bb`},     // zero-width space
		{"a\u200cb", `a\u200cb`},     // zero-width non-joiner
		{"a\u200db", `a\u200db`},     // zero-width joiner
		{"a\u2060b", `a\u2060b`},     // word joiner
		{"\ufeffa", `\ufeffa`},       // BOM
		{"a\u00a0b", `a\u00a0b`},     // NBSP
		{"a\u202fb", `a\u202fb`},     // narrow NBSP
		{"a\u2003b", `a\u2003b`},     // em space
		{"a\u3000b", `a\u3000b`},     // ideographic space
		{"a\u00adb", `a\u00adb`},     // soft hyphen
		{"a\u3164b", `a\u3164b`},     // Hangul filler
		{"a\u202eb", `a\u202eb`},     // right-to-left override
		{"a\u2066b", `a\u2066b`},     // left-to-right isolate
		{"a\u200fb", `a\u200fb`},     // right-to-left mark
		{"a\x1b[2Kb", `a\u001b[2Kb`}, // ESC
		{"a\u0085b", `a\u0085b`},     // NEL, a C1 control
		{"a\x7fb", `a\u007fb`},       // DEL
		{"a\rb\n\t", `a\rb\n\t`},
		{"a\U000E0041", `a\udb40\udc41`}, // a tag character
		{"a\xffb", "a\uFFFDb"},
		{"plain ascii, 中文, é, \uFFFD", "plain ascii, 中文, é, \uFFFD"},
	} {
		if got := Terminal(tt.in); got != tt.want {
			t.Errorf("Terminal(%+q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// In the text report, an input, want or got that differs from another only by an
// invisible character shows it as an escape: the difference does not look like a space.
func TestTextShowsInvisiblesInFields(t *testing.T) {
	invisible := []string{"\u2028", "\u200b", "\u00a0", "\x1b", "\ufeff", "\u202e", "\u3000"}
	for _, c := range invisible {
		r := &Report{Spec: "0.0.1-rc.1", Command: []string{"node", "adapter.js"}}
		r.Cases = []result.Case{exchange(result.Case{
			Part: "fixtures", Area: "uri", Name: "uri-encode/x", Status: result.Fail, Message: "result differs"},
			`{"id":1,"op":"uri.encode","args":{"sessionId":"a`+c+`b"}}`,
			`{"id":1,"ok":true,"result":"x`+c+`y"}`,
			`{"id":1,"ok":true,"result":"x y`+c+`"}`,
		)}
		r.Finish()
		for _, verbose := range []bool{false, true} {
			var b strings.Builder
			if err := r.WriteTextWith(&b, TextOptions{Verbose: verbose}); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			if strings.Contains(text, c) {
				t.Errorf("verbose %v: the report holds %+q raw", verbose, c)
			}
			esc := Terminal(c)
			for _, field := range []string{"input: ", "want:  ", "got:   "} {
				if !fieldHolds(text, field, esc) {
					t.Errorf("verbose %v: no %s line shows %s:\n%s", verbose, strings.TrimSpace(field), esc, text)
				}
			}
		}
	}
}

// fieldHolds reports whether a line of text beginning (after indentation) with field holds s.
func fieldHolds(text, field, s string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " "), field) && strings.Contains(l, s) {
			return true
		}
	}
	return false
}
