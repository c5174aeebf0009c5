package html_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/report/html"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

var (
	runsOnce sync.Once
	runs     []*report.Document
)

// realRuns are the JSON reports of two real runs, read back as a reader of --json files does:
// the reference, and the 0.1.0-rc.8 reference certified as 0.0.1-rc.1 (a few failures).
func realRuns(t testing.TB) []*report.Document {
	runsOnce.Do(func() {
		// The two runs side by side: every test of the package waits for them.
		handlers := []adapter.Handler{nil, &refadapter.Reference{Profile: "0.1.0-rc.8"}}
		runs = make([]*report.Document, len(handlers))
		errs := make([]error, len(handlers))
		var wg sync.WaitGroup
		for i, h := range handlers {
			wg.Go(func() { runs[i], errs[i] = realRun(h) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			panic(err)
		}
	})
	return runs
}

// realRun certifies h (the reference when nil) and reads its JSON report back. A property
// failure is shrunk for 10 ms, not up to 10 s: the pages need failures with their inputs,
// and a larger input only makes TestPageSize's bound harder to meet.
func realRun(h adapter.Handler) (*report.Document, error) {
	r, err := conformance.NewRunner(conformance.Runner{Handler: h, Checks: 5, Seed: 7, ShrinkTime: 10 * time.Millisecond})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := r.Run(context.Background()).WriteJSON(&buf); err != nil {
		return nil, err
	}
	return report.ReadDocument(&buf)
}

func page(t testing.TB, docs []*report.Document, opt html.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := html.Write(&b, docs, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// broken returns a copy of d in which every nth check failed with a long answer.
func broken(d *report.Document, nth int) *report.Document {
	c := *d
	c.Cases = append([]report.DocCase(nil), d.Cases...)
	for i := range c.Cases {
		if i%nth != 0 {
			continue
		}
		cs := &c.Cases[i]
		cs.Status, cs.Message = result.Fail, "result differs <script>alert(1)</script>"
		long := `"` + strings.Repeat("x", 5000) + `"`
		cs.Want, cs.Got = []byte(long), []byte(`{"ok":true,"result":`+long+`}`)
		cs.Diff = &compare.Difference{Want: long, Got: long, Lines: "- " + long + "\n+ " + long + "\n", First: "$: want x, got y"}
	}
	c.Totals = report.Counts{}
	for _, cs := range c.Cases {
		c.Totals.Add(cs.Status)
	}
	c.Verdict.Code = report.ExitNotConformant
	return &c
}

func TestPageLinksAndSpec(t *testing.T) {
	docs := realRuns(t)
	s := page(t, docs, html.Options{Labels: []string{"reference", "rc.8 as rc.1"}})
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(s, -1) {
		if ids[m[1]] {
			t.Errorf("id %q twice", m[1])
		}
		ids[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(s, -1) {
		if !ids[m[1]] {
			t.Errorf("link to #%s, which the page does not have", m[1])
		}
	}
	reqs, err := trace.Requirements(spec.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reqs {
		for _, id := range []string{"spec-" + r.ID, "req-" + r.ID} {
			if !ids[id] {
				t.Errorf("no #%s", id)
			}
		}
	}
	// Text may mention URLs; nothing the browser would load may name one.
	if m := networkRef(s); m != "" {
		t.Errorf("the page refers to the network: %q", m)
	}
	if !strings.Contains(s, `<form id="filters" class="filters" hidden`) {
		t.Error("the filters are not hidden for readers without JavaScript")
	}
}

func TestPageEscapes(t *testing.T) {
	d := broken(realRuns(t)[0], 50)
	d.Cases[0].Name = `<img src=x onerror=alert(1)>"'&`
	d.Cases[1].Requirements = []string{"SR-NOPE-1"} // an id this spec lacks: text, not a dead link
	d.Adapter = "</title><script>alert(2)</script>"
	d.Hello = nil
	s := page(t, []*report.Document{d}, html.Options{})
	for _, bad := range []string{"<script>alert", "<img src=x", "</title><script>"} {
		if strings.Contains(s, bad) {
			t.Errorf("unescaped %q in the page", bad)
		}
	}
	if strings.Contains(s, `href="#spec-SR-NOPE-1"`) || !strings.Contains(s, `id="req-SR-NOPE-1"`) {
		t.Error("a requirement the spec lacks is linked to a clause, or has no matrix row")
	}
	if n := strings.Count(s, "<script>"); n != 1 {
		t.Errorf("%d script elements, want the page's own one", n)
	}
}

// The page's weight budget for three implementations. The issue asked for under 2 MB at the
// kit's ~450 checks; the kit keeps gaining checks (a thousand generated trap cases), so the
// bound is stated per check, where it keeps meaning something: a fixed part (styles, the
// spec's text, the verdict, the matrix, and the failure details, which the page bounds
// itself: 400 KiB in full, then a line each) and a part per check (its row in the check
// list, its share of the fixtures' input, its rows in the spec's clauses).
const (
	pageFixedBudget = 1 << 20 // bytes
	pageCheckBudget = 1000    // bytes per check, for three implementations (number traps carry 128-number ids; key-order and narrow-unit traps long object ids; 905 measured at 2,002 checks, all failing)
	issueChecks     = 450     // the issue's scale, at which the page must be under 2 MB
)

// TestPageSize checks the page's weight against its budget for 3 implementations × the kit's
// checks, even when one implementation fails one check in 10 and when every implementation
// fails every check with long answers; and that the budget meets the issue's 2 MB at the
// issue's ~450 checks.
func TestPageSize(t *testing.T) {
	if b := pageFixedBudget + pageCheckBudget*issueChecks; b > 2<<20 {
		t.Fatalf("the budget allows %d bytes at %d checks, over the issue's 2 MB", b, issueChecks)
	}
	docs := realRuns(t)
	n := len(docs[0].Cases)
	if n < 400 {
		t.Fatalf("only %d checks: not the kit's full run", n)
	}
	budget := pageFixedBudget + pageCheckBudget*n
	for _, tt := range []struct {
		name string
		docs []*report.Document
	}{
		{"reference and both profiles", []*report.Document{docs[0], docs[1], docs[1]}},
		{"one in ten failing", []*report.Document{docs[0], docs[1], broken(docs[0], 10)}},
		{"all failing", []*report.Document{broken(docs[0], 1), broken(docs[1], 1), broken(docs[0], 1)}},
	} {
		s := page(t, tt.docs, html.Options{})
		t.Logf("%s: %d checks, %d bytes (%d per check past the fixed part); budget %d; %s", tt.name, n, len(s), (len(s)-pageFixedBudget)/n, budget, sections(s))
		if len(s) > budget {
			t.Errorf("%s: %d bytes, over the budget of %d for %d checks (%d fixed + %d per check)", tt.name, len(s), budget, n, pageFixedBudget, pageCheckBudget)
		}
	}
}

// sections says where a page's bytes go, section by section, for the log of TestPageSize.
func sections(s string) string {
	var out []string
	last, name := 0, "head"
	for _, m := range regexp.MustCompile(`<section id="([a-z]+)"`).FindAllStringSubmatchIndex(s, -1) {
		out = append(out, fmt.Sprintf("%s %d", name, m[0]-last))
		last, name = m[0], s[m[2]:m[3]]
	}
	return strings.Join(append(out, fmt.Sprintf("%s %d", name, len(s)-last)), ", ")
}

func TestPageNeedsAReport(t *testing.T) {
	if err := html.Write(&bytes.Buffer{}, nil, html.Options{}); err == nil {
		t.Error("a page of no report")
	}
}

func BenchmarkWrite(b *testing.B) {
	docs := realRuns(b)
	three := []*report.Document{docs[0], docs[1], broken(docs[0], 10)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := html.Write(&bytes.Buffer{}, three, html.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleWrite() {
	r, _ := conformance.NewRunner(conformance.Runner{Parts: []string{conformance.PartFixtures}, Match: "uri-encode/"})
	doc := r.Run(context.Background()).Document()
	var page bytes.Buffer
	if err := html.Write(&page, []*report.Document{doc}, html.Options{Labels: []string{"reference"}}); err != nil {
		panic(err)
	}
	fmt.Println(strings.Contains(page.String(), "conformant"))
	// Output: true
}

// TestClauseFoldsGeneratedFiles checks that a clause lists the cases of a fixture file with
// many cases naming it as one row with each implementation's counts, and still names, under
// that row, a case of the file that failed, linked to its failure.
func TestClauseFoldsGeneratedFiles(t *testing.T) {
	ref := realRuns(t)[0]
	// The fixture file and requirement with the most cases.
	count := map[[2]string]int{}
	var top [2]string
	for _, c := range ref.Cases {
		f, _, ok := strings.Cut(c.Name, "/")
		if c.Part != "fixtures" || !ok {
			continue
		}
		for _, r := range c.Requirements {
			k := [2]string{f, r}
			if count[k]++; count[k] > count[top] {
				top = k
			}
		}
	}
	file, req, n := top[0], top[1], count[top]
	if n <= 8 {
		t.Fatalf("no fixture file has more than 8 cases naming one requirement (most: %d)", n)
	}
	failing := *ref
	failing.Cases = append([]report.DocCase(nil), ref.Cases...)
	var failed string
	for i := range failing.Cases {
		c := &failing.Cases[i]
		if c.Part == "fixtures" && strings.HasPrefix(c.Name, file+"/") && slices.Contains(c.Requirements, req) {
			c.Status, c.Message, failed = result.Fail, "result differs", c.Name
			break
		}
	}
	s := page(t, []*report.Document{ref, &failing}, html.Options{})
	start := strings.Index(s, `id="spec-`+req+`"`)
	if start < 0 {
		t.Fatalf("no clause %s", req)
	}
	clause := s[start:]
	clause = clause[:strings.Index(clause, "</table>")]
	fold := fmt.Sprintf(`%s/…</a> <small>fixture file, %d cases</small></th><td class="cnt pass">%d/%d</td><td class="cnt fail">%d/%d · 1 failed</td>`, file, n, n, n, n-1, n)
	if !strings.Contains(clause, fold) {
		t.Errorf("clause %s has no folded row for %s:\nwant %s\nin %s", req, file, fold, clause)
	}
	if got := strings.Count(clause, ">"+file+"/") - 1; got != 1 { // less the folded row
		t.Errorf("clause %s names %d cases of %s one by one, want only the failed one", req, got, file)
	}
	if !regexp.MustCompile(`<tr class="in"><th scope="row"><a href="#c-\d+">` + regexp.QuoteMeta(failed) + `</a>.*?href="#f-1-\d+"`).MatchString(clause) {
		t.Errorf("clause %s does not list the failed case %s under its file, linked to its failure", req, failed)
	}
}

// networkRef returns the first thing in page that a browser would load over a network: an
// attribute naming a URL scheme (src="https:…), a <link>, an @import or a url(…); "" if none.
// HTML names and CSS are case-insensitive, so the page is lowercased first. (The regexp
// (?i)(src|href|action|xmlns)="[a-z]+:|<link|@import|url\( said the same in half a second.)
func networkRef(page string) string {
	low := strings.ToLower(page)
	for _, lit := range []string{"<link", "@import", "url("} {
		if strings.Contains(low, lit) {
			return lit
		}
	}
	for _, attr := range []string{"src", "href", "action", "xmlns"} {
		for rest := low; ; {
			i := strings.Index(rest, attr+`="`)
			if i < 0 {
				break
			}
			v := rest[i+len(attr)+2:]
			n := 0
			for n < len(v) && 'a' <= v[n] && v[n] <= 'z' {
				n++
			}
			if n > 0 && n < len(v) && v[n] == ':' {
				return attr + `="` + v[:n+1]
			}
			rest = v
		}
	}
	return ""
}

func TestNetworkRef(t *testing.T) {
	for page, want := range map[string]string{
		`<a href="#x">https://example.com</a>`:     "",
		`<img SRC="HTTPS://x">`:                    `src="https:`,
		`<p data-src="a">`:                         "",
		`<svg xmlns="http://www.w3.org/2000/svg">`: `xmlns="http:`,
		`<form action="javascript:x">`:             `action="javascript:`,
		`<style>@IMPORT "a.css"</style>`:           "@import",
		`<div style="background:URL(x)">`:          "url(",
		`<LINK rel=stylesheet>`:                    "<link",
		`<a href="">`:                              "",
		`<a href="x">`:                             "",
	} {
		if got := networkRef(page); got != want {
			t.Errorf("networkRef(%q) = %q, want %q", page, got, want)
		}
	}
}

// A failure card's rerun line is the command that reproduces it: the adapter as run (after
// --), the profile and, for a property, the rapid seed. Without the adapter, pasting it
// would certify the embedded reference.
func TestPageRerunNamesTheAdapter(t *testing.T) {
	d := broken(realRuns(t)[0], 50)
	d.Command = []string{"node", "my adapter.js"}
	s := page(t, []*report.Document{d}, html.Options{})
	want := "--run '^" // the first failure's rerun line (quotes need no escape in text)
	if !strings.Contains(s, want) || !strings.Contains(s, " -- node 'my adapter.js'</code>") || !strings.Contains(s, "--profile "+d.Spec) {
		i := strings.Index(s, "<dt>rerun</dt>")
		t.Errorf("the rerun line does not name the adapter and profile: %.300s", s[max(i, 0):])
	}
}
