package html_test

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/report/html"
)

// TestPageShowsNoReorderingCharacter: html/template escapes markup, not the characters that
// reverse or hide the words after them. An adapter's hello and the reason it was given up
// on (the verdict cell) held a raw U+202E, which showed "…:tnamrofnoc" as "conformant:…".
func TestPageShowsNoReorderingCharacter(t *testing.T) {
	const bad = "\u202e\u2066\u200f\u2028\u2029\u0085\u009b\u200b\ufeff"
	d := *realRuns(t)[0]
	d.Unusable, d.Verdict.Summary, d.Verdict.Headline = "hello failed: "+bad+"KO", "adapter unusable: "+bad, "x"+bad
	hello := *d.Hello
	hello.Name = "evil" + bad
	d.Hello = &hello
	s := page(t, []*report.Document{&d}, html.Options{Title: "t" + bad})
	if i := strings.IndexAny(s, bad); i >= 0 {
		t.Errorf("a reordering character in the page: %.80q", s[max(0, i-40):])
	}
	if !strings.Contains(s, `hello failed: \u202e\u2066`) {
		t.Error("the reason is not shown, escaped")
	}
}
