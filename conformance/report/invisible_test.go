package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// reordering are characters that pass HTML and XML escaping yet reverse, break or hide the
// text after them where a CI page shows it.
const reordering = "\u202e\u2066\u200f\u2028\u2029\u0085\u009b\u200b\ufeff"

func TestEscapeInvisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain é 中":          "plain é 中",
		"ok\u202etnamrofnoc": `ok\u202etnamrofnoc`,
		reordering:           `\u202e\u2066\u200f\u2028\u2029\u0085\u009b\u200b\ufeff`,
		"emoji 👍\u200d👍":     "emoji 👍\u200d👍", // a joiner joins, it hides nothing
	} {
		if got := report.EscapeInvisible(in); got != want {
			t.Errorf("EscapeInvisible(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestJUnitShowsNoReorderingCharacter: an adapter's error message in a failure, and the
// verdict's summary, reach the JUnit file with every reordering character spelled \uXXXX.
// A CI test view shows these attributes as they are: a raw U+202E there reversed the words
// after it.
func TestJUnitShowsNoReorderingCharacter(t *testing.T) {
	msg := "boom " + reordering + " KO :tnamrofnoc"
	r := &report.Report{Kit: "0.1.0", Spec: "0.0.1-rc.1", Adapter: "x " + reordering, Unusable: "hello failed: " + msg}
	r.Cases = []result.Case{{Part: "fixtures", Area: "uri", Name: "uri-decode/x", Status: result.Error, Message: msg}}
	r.Parts = []report.Part{{Name: "fixtures", Counts: report.CountCases(r.Cases)}}
	r.Finish()
	var x bytes.Buffer
	if err := r.WriteJUnit(&x); err != nil {
		t.Fatal(err)
	}
	if i := strings.IndexAny(x.String(), reordering); i >= 0 {
		t.Errorf("a reordering character in the JUnit report: %.80q", x.String()[max(0, i-40):])
	}
	if !strings.Contains(x.String(), `boom \u202e\u2066`) {
		t.Errorf("the message is not shown, escaped:\n%s", x.String())
	}
}
