package html_test

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/report/html"
)

// partialOf returns a copy of d that covered only its first n checks.
func partialOf(d *report.Document, n int) *report.Document {
	c := *d
	c.Cases = append([]report.DocCase(nil), d.Cases...)
	for i := n; i < len(c.Cases); i++ {
		c.Cases[i].Status, c.Cases[i].Message = "not-covered", "the adapter does not support op x"
	}
	c.Totals = report.Counts{}
	for _, cs := range c.Cases {
		c.Totals.Add(cs.Status)
	}
	c.Verdict = report.VerdictSummary{Code: 0, Outcome: report.OutcomePartial, Headline: "partial: 123 of 1306 checks covered"}
	c.Verdict.Summary = c.Verdict.Headline
	return &c
}

// TestPartialIsNotConformant: a partial run is not counted conformant, and neither its cell
// nor its badge takes the success colour.
func TestPartialIsNotConformant(t *testing.T) {
	ref := realRuns(t)[0]
	p := page(t, []*report.Document{partialOf(ref, 123)}, html.Options{})
	if !strings.Contains(p, "0 of 1 implementation conformant (1 more partial)") {
		t.Errorf("the lead counts a partial run conformant:\n%.2000s", sections(p))
	}
	if !strings.Contains(p, `class="v t-partial"`) || strings.Contains(p, `class="v t-pass"`) {
		t.Error("the partial verdict cell is not in the partial tone")
	}
	if strings.Contains(p, report.TonePass.Color()) {
		t.Error("the partial badge is green")
	}
	full := page(t, []*report.Document{ref}, html.Options{})
	if !strings.Contains(full, "1 of 1 implementation conformant;") || !strings.Contains(full, `class="v t-pass"`) {
		t.Error("the conformant reference is not shown conformant")
	}
}

// TestVerdictCellIsOneLine: the verdict cell holds the headline, not the first failure's
// answer, even for a report written before headlines.
func TestVerdictCellIsOneLine(t *testing.T) {
	d := broken(realRuns(t)[0], 50)
	d.Verdict = report.VerdictSummary{Code: 1, Summary: "3 checks failed: not conformant; first: fixtures x: " + strings.Repeat("y", 5000)}
	p := page(t, []*report.Document{d}, html.Options{})
	i := strings.Index(p, `<td class="v `)
	j := strings.Index(p[i:], "</td>")
	if cell := p[i : i+j]; strings.Contains(cell, "yyyy") || !strings.Contains(cell, "3 checks failed: not conformant") || !strings.Contains(cell, `href="#failures"`) {
		t.Errorf("verdict cell: %.400s", cell)
	}
}

// TestRerunNamesTheAdapter: a failure card's rerun line reruns the check on the adapter that
// failed it, in its profile; for the in-process reference it names no adapter.
func TestRerunNamesTheAdapter(t *testing.T) {
	d := broken(realRuns(t)[0], 400)
	d.Adapter = "node it's/adapter.js"
	p := page(t, []*report.Document{d}, html.Options{})
	i := strings.Index(p, "<dt>rerun</dt>")
	line := p[max(i, 0):]
	line = strings.ReplaceAll(line[:max(strings.Index(line, "</dd>"), 0)], "&#39;", "'")
	for _, want := range []string{"conformance-runner ", "--adapter 'node it'\\''s/adapter.js'", "--profile 0.0.1-rc.1", "--run '^"} {
		if !strings.Contains(line, want) {
			t.Errorf("rerun line lacks %q: %.300s", want, line)
		}
	}
	ref := broken(realRuns(t)[0], 400)
	if p := page(t, []*report.Document{ref}, html.Options{}); strings.Contains(p, "--adapter") {
		t.Error("the in-process reference's rerun line names an adapter")
	}
}
