package html_test

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/report/html"
)

// The page states why the adapter was given up on once, beside the run, where the not-sent
// checks' messages point (givenUp[0]).
func TestPageShowsGivenUp(t *testing.T) {
	d := *realRuns(t)[0]
	d.GivenUp = []report.GivenUp{{Reason: "3 calls timed out, <b>the budget</b>", Checks: 42}}
	s := page(t, []*report.Document{&d}, html.Options{})
	if want := "<dt>givenUp[0]</dt><dd>3 calls timed out, &lt;b&gt;the budget&lt;/b&gt; (42 checks not sent)</dd>"; !strings.Contains(s, want) {
		i := strings.Index(s, "givenUp")
		t.Errorf("no %s in the page: %.300s", want, s[max(i, 0):])
	}
}
