package html_test

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/report/html"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// The browser test's environment:
//
//	SESSIONREF_BROWSER=1          run the browser test (without it, the test is skipped)
//	SESSIONREF_BROWSER=required   run it, and fail, not skip, when no Chromium is found (CI sets it)
//	SESSIONREF_CHROMIUM=PATH      the browser to use (default: chromium, chromium-browser,
//	                              google-chrome or headless-shell on PATH)
//	SESSIONREF_BROWSER_OUT=DIR    where the page and its screenshots go (default: a temp dir)
//	SESSIONREF_BROWSER_REPORTS=A.json,B.json
//	                              JSON reports to show beside the reference's (CI passes the
//	                              published package's, in both profiles)
//	SESSIONREF_BROWSER_LABELS=a,b their columns' names
func chromium(t testing.TB) string {
	t.Helper()
	// Starting Chromium costs seconds of CPU: `go test ./...` leaves the browser to runs
	// that ask for it (.ci/run sets SESSIONREF_BROWSER=required).
	if os.Getenv("SESSIONREF_BROWSER") == "" {
		t.Skip("the browser test runs with SESSIONREF_BROWSER=1 (or =required, as .ci/run sets)")
	}
	if p := os.Getenv("SESSIONREF_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium found: install Debian's chromium (apt-get install chromium) or set SESSIONREF_CHROMIUM"
	if os.Getenv("SESSIONREF_BROWSER") == "required" {
		t.Fatal(msg + "; SESSIONREF_BROWSER=required makes that a failure")
	}
	t.Skip(msg + " (SESSIONREF_BROWSER=required makes this a failure)")
	return ""
}

// browser starts a headless Chromium with a fresh profile and no background traffic.
func browser(t testing.TB) context.Context {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // CI runs as root, where Chromium's sandbox cannot start
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first Run starts the browser; its context must not carry the deadline.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[int](`1`)); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	return ctx
}

func outDir(t testing.TB) string {
	if d := os.Getenv("SESSIONREF_BROWSER_OUT"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	return t.TempDir()
}

// pageDocs are the reference's report, the given reports, and (when none is given) the
// 0.1.0-rc.8 reference certified as 0.0.1-rc.1, so the page always has a failure to show.
func pageDocs(t testing.TB) ([]*report.Document, []string) {
	runs := realRuns(t)
	docs, labels := []*report.Document{runs[0]}, []string{"reference"}
	if list := os.Getenv("SESSIONREF_BROWSER_REPORTS"); list != "" {
		names := strings.Split(os.Getenv("SESSIONREF_BROWSER_LABELS"), ",")
		for i, f := range strings.Split(list, ",") {
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			d, err := report.ReadDocument(fh)
			fh.Close()
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			docs = append(docs, d)
			l := ""
			if i < len(names) {
				l = names[i]
			}
			labels = append(labels, l)
		}
	}
	if len(docs) == 1 || !hasFailure(docs) {
		docs, labels = append(docs, runs[1]), append(labels, "reference 0.1.0-rc.8 as 0.0.1-rc.1")
	}
	return docs, labels
}

// longVerdict is d as a report written before verdicts had a headline, whose summary quotes
// a whole failing response: one unbroken token of thousands of characters.
func longVerdict(d *report.Document) *report.Document {
	c := *d
	c.Verdict = report.VerdictSummary{Code: report.ExitNotConformant,
		Summary: "12 checks failed: not conformant; first: fixtures prepare/x: got " + strings.Repeat(`{"content":[{"type":"text","text":"xxxxxxxx"}]}`, 200)}
	return &c
}

func hasFailure(docs []*report.Document) bool {
	for _, d := range docs {
		if d.Totals.Fail > 0 {
			return true
		}
	}
	return false
}

// TestPageInBrowser loads the page in headless Chromium, checks through the DOM that its
// counts are the JSON reports', that the filters work, and writes screenshots of the
// overview and of one failure beside the page.
func TestPageInBrowser(t *testing.T) {
	ctx := browser(t)
	docs, labels := pageDocs(t)
	docs, labels = append(docs, longVerdict(docs[len(docs)-1])), append(labels, "an older report, a long verdict")
	dir := outDir(t)
	pagePath := filepath.Join(dir, "conformance.html")
	if err := report.WriteFile(pagePath, func(w io.Writer) error {
		return html.Write(w, docs, html.Options{Labels: labels})
	}); err != nil {
		t.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: pagePath}).String()
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(u), chromedp.WaitVisible(chromedp.ID("filters"))); err != nil {
		t.Fatal(err)
	}
	loadMs, err := chromedp.Run(tctx, chromedp.Evaluate[float64](`(function(){var n=performance.getEntriesByType('navigation')[0];return n.loadEventEnd-n.startTime})()`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("page: %s (%d implementations, loaded in %.0f ms)", pagePath, len(docs), loadMs)

	// At 1280 px the page does not scroll sideways, and each verdict cell is its one-line
	// headline: the first failure's answers are in its card, not in the table.
	layout, err := chromedp.Run(tctx, chromedp.Evaluate[map[string]float64](`(function(){
		var cells=document.querySelectorAll('#verdict td.v'),tallest=0,longest=0;
		cells.forEach(function(c){tallest=Math.max(tallest,c.getBoundingClientRect().height);longest=Math.max(longest,c.textContent.length)});
		var wide=0,sec=document.getElementById('verdict');sec.querySelectorAll('*').forEach(function(e){if(e.getBoundingClientRect().right>sec.getBoundingClientRect().right+1||e.scrollWidth>e.clientWidth+1&&e.clientWidth>0)wide++});
		return {scroll:document.documentElement.scrollWidth,width:window.innerWidth,cells:cells.length,tallest:tallest,longest:longest,wide:wide}})()`))
	if err != nil {
		t.Fatal(err)
	}
	if layout["scroll"] > layout["width"] || int(layout["cells"]) != len(docs) || layout["longest"] > 200 || layout["tallest"] > 120 || layout["wide"] > 0 {
		t.Errorf("verdict table at 1280 px: %v (want no horizontal scroll, one short cell per implementation)", layout)
	}

	// The counts on the page are the reports' counts.
	for i, d := range docs {
		got, err := chromedp.Run(tctx, chromedp.Evaluate[map[string]int](fmt.Sprintf(`(function(){
			var row=document.querySelector('#verdict tr[data-impl="%d"]'),o={};
			['total','pass','fail','nc','err','bug'].forEach(function(k){o[k]=+row.querySelector('td.n-'+k).textContent});
			['pass','fail','nc','err','bug','none'].forEach(function(k){o['cells-'+k]=document.querySelectorAll('#checks td.s.i%d.'+k).length});
			o.failures=document.querySelectorAll('#failures [id^="f-%d-"]').length;
			return o})()`, i, i, i)))
		if err != nil {
			t.Fatal(err)
		}
		tt := d.Totals
		want := map[string]int{"total": tt.Total, "pass": tt.Pass, "fail": tt.Fail, "nc": tt.NotCovered, "err": tt.Error, "bug": tt.FixtureBug,
			"cells-pass": tt.Pass, "cells-fail": tt.Fail, "cells-nc": tt.NotCovered, "cells-err": tt.Error, "cells-bug": tt.FixtureBug,
			"failures": min(tt.Fail+tt.Error+tt.FixtureBug, 200)}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: the page shows %s %d, the JSON report %d", labels[i], k, got[k], w)
			}
		}
	}
	nchecks, err := chromedp.Run(tctx, chromedp.Evaluate[int](`document.querySelectorAll('#checks tr[id^="c-"]').length`))
	if err != nil {
		t.Fatal(err)
	}
	union := map[string]bool{}
	for _, d := range docs {
		for _, c := range d.Cases {
			union[c.Part+"/"+c.Name] = true
		}
	}
	if nchecks != len(union) {
		t.Errorf("%d check rows, the reports have %d distinct checks", nchecks, len(union))
	}

	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`window.scrollTo(0,0),true`)); err != nil {
		t.Fatal(err)
	}
	shot(t, tctx, filepath.Join(dir, "overview.png"), "")

	// "failures only", reached with the keyboard, leaves the checks some implementation failed.
	wantShown := 0
	for k := range union {
		part, name, _ := strings.Cut(k, "/")
		for _, d := range docs {
			if st := caseStatus(d, part, name); st == result.Fail || st == result.Error {
				wantShown++
				break
			}
		}
	}
	if err := chromedp.Do(tctx, chromedp.Focus(chromedp.ID("f-fail")), chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(tctx, chromedp.Evaluate[int](`document.querySelectorAll('#checks tr[id^="c-"]:not([hidden])').length`))
	if err != nil {
		t.Fatal(err)
	}
	if shown != wantShown || wantShown == 0 {
		t.Errorf("failures only: %d check rows shown, want %d", shown, wantShown)
	}
	if err := chromedp.Do(tctx, chromedp.Focus(chromedp.ID("f-fail")), chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}

	// "differences only": the checks whose results differ between implementations.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("f-diff")), chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`document.getElementById('checks').scrollIntoView(),true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	shot(t, tctx, filepath.Join(dir, "differences.png"), "")
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("f-diff"))); err != nil {
		t.Fatal(err)
	}

	// The matrix and clauses of the spec, as a reader following the links sees them (SR-STR-4
	// folds the generated trap files' cases into a row per file).
	for _, v := range [][2]string{{"matrix", "matrix.png"}, {"spec-SR-URI-3", "clause.png"}, {"spec-SR-STR-4", "clause-folded.png"}} {
		if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`location.hash=%q,true`, "#"+v[0]))); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(tctx, chromedp.Sleep(300*time.Millisecond)); err != nil { // a frame for content-visibility
			t.Fatal(err)
		}
		shot(t, tctx, filepath.Join(dir, v[1]), "")
	}

	// One failure, as a reader following its link from the matrix sees it.
	first, err := chromedp.Run(tctx, chromedp.Evaluate[string](`(function(){var f=document.querySelector('article.failure');f.querySelectorAll('details').forEach(function(d){d.open=true});f.scrollIntoView();return f.id})()`))
	if err != nil {
		t.Fatal(err)
	}
	shot(t, tctx, filepath.Join(dir, "failure.png"), first)

	// Printed, the filters go and the long sections are laid out in full.
	if err := chromedp.Do(tctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	printed, err := chromedp.Run(tctx, chromedp.Evaluate[map[string]string](`({filters:getComputedStyle(document.getElementById('filters')).display,checks:getComputedStyle(document.getElementById('checks')).contentVisibility})`))
	if err != nil {
		t.Fatal(err)
	}
	if printed["filters"] != "none" || printed["checks"] != "visible" {
		t.Errorf("print styles: %v", printed)
	}
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`window.scrollTo(0,0),true`)); err != nil {
		t.Fatal(err)
	}
	shot(t, tctx, filepath.Join(dir, "print.png"), "")
}

func caseStatus(d *report.Document, part, name string) result.Status {
	for _, c := range d.Cases {
		if c.Part == part && c.Name == name {
			return c.Status
		}
	}
	return ""
}

// shot writes a screenshot of the viewport, or of the element with id id.
func shot(t *testing.T, ctx context.Context, path, id string) {
	t.Helper()
	var png []byte
	var err error
	if id == "" {
		png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	} else {
		png, err = chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(id)))
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// BenchmarkPageLoad times loading the page of three implementations × the kit's checks in
// headless Chromium, to its load event: the target is under 1 s.
func BenchmarkPageLoad(b *testing.B) {
	ctx := browser(b)
	runs := realRuns(b)
	docs := []*report.Document{runs[0], runs[1], broken(runs[0], 10)}
	path := filepath.Join(b.TempDir(), "page.html")
	if err := report.WriteFile(path, func(w io.Writer) error { return html.Write(w, docs, html.Options{}) }); err != nil {
		b.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: path}).String()
	var total float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(u), chromedp.WaitVisible(chromedp.ID("filters"))); err != nil {
			b.Fatal(err)
		}
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(function(){var n=performance.getEntriesByType('navigation')[0];return n.loadEventEnd-n.startTime})()`))
		if err != nil {
			b.Fatal(err)
		}
		total += ms
	}
	b.ReportMetric(total/float64(b.N), "ms/load")
}
