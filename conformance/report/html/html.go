// Package html writes the conformance matrix of one or more JSON reports as one
// self-contained HTML page: the verdict and a badge per implementation, parts and areas, the
// failures with their input, want, got and diff, the requirement matrix (requirements ×
// implementations, as Bowtie's report shows test cases × implementations), every check with
// its definition, and the spec with each clause's checks and their status beside it.
//
// The page needs no network: CSS and the little JavaScript it has (filters) are inline, and it
// reads in full without JavaScript. Every string from a report is escaped.
package html

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// Options configure a page.
type Options struct {
	// Title heads the page; empty means "session-reference conformance".
	Title string
	// Labels name the implementations, one per document in order; a missing or empty label
	// is made from the document's hello (name, version, profile).
	Labels []string
	// Spec is the spec folder holding session-reference.md; nil means the embedded spec.
	Spec fs.FS
}

// Bounds that keep a page of a badly broken implementation loadable.
const (
	maxFailuresShown = 200  // per implementation, in full
	maxBlock         = 6000 // bytes of one input, want, got or diff shown
	maxCheckInput    = 1500 // bytes of a check's input in the check list
	// checkInputShare is the check list's bytes of fixture input per check, on average: the
	// inputs share checkInputShare × the number of checks, each shown up to the longest
	// common length that fits (never under minCheckInput). The kit's ~450 checks of the
	// first page fit in full; a thousand generated trap cases of 2 KB queries do not, and
	// each is then cut alike rather than the last ones to none.
	checkInputShare = 300
	minCheckInput   = 160
	// failureBudget bounds the bytes of failure details on a page; past it a failure is
	// shown by its name, message and first difference only.
	failureBudget = 400 << 10
)

type impl struct {
	label string
	doc   *report.Document
	cases map[string]*report.DocCase
}

type check struct {
	idx              int
	part, area, name string
	reqs             []string
	def              *report.DocCase // the first report's case, for its definition
	st               []result.Status // per implementation; "" when it did not run there
	differs          bool
}

func key(part, name string) string { return part + "/" + name }

// Write writes the page for docs, one per implementation.
func Write(w io.Writer, docs []*report.Document, opt Options) error {
	if len(docs) == 0 {
		return fmt.Errorf("html: no report")
	}
	specFS := opt.Spec
	if specFS == nil {
		specFS = spec.FS
	}
	src, err := fs.ReadFile(specFS, trace.SpecFile)
	if err != nil {
		return fmt.Errorf("html: %w", err)
	}
	p := &page{opt: opt, blocks: renderSpec(string(src))}
	if p.opt.Title == "" {
		p.opt.Title = "session-reference conformance"
	}
	p.collect(docs)
	var b strings.Builder
	b.Grow(1 << 20)
	p.write(&b)
	_, err = io.WriteString(w, b.String())
	return err
}

type page struct {
	opt      Options
	blocks   []specBlock
	impls    []impl
	checks   []*check
	index    map[string]*check
	byReq    map[string][]*check
	reqs     []string // in spec order, then ids only the reports name
	reqText  map[string]string
	reqArea  map[string][]string // check areas per requirement
	areas    []string
	differs  int
	failures int
	spent    int // bytes of failure details written
	inputCut int // bytes of a fixture's input shown in the check list
}

func label(d *report.Document) string {
	if d.Hello != nil {
		return fmt.Sprintf("%s %s (%s)", d.Hello.Name, d.Hello.Version, d.Spec)
	}
	return d.Adapter + " (" + d.Spec + ")"
}

func (p *page) collect(docs []*report.Document) {
	seen := map[string]int{}
	index := map[string]*check{}
	p.index = index
	for i, d := range docs {
		l := ""
		if i < len(p.opt.Labels) {
			l = p.opt.Labels[i]
		}
		if l == "" {
			l = label(d)
		}
		if seen[l]++; seen[l] > 1 {
			l += " #" + strconv.Itoa(seen[l])
		}
		im := impl{label: l, doc: d, cases: map[string]*report.DocCase{}}
		for j := range d.Cases {
			c := &d.Cases[j]
			k := key(c.Part, c.Name)
			if _, dup := im.cases[k]; dup {
				continue
			}
			im.cases[k] = c
			if index[k] == nil {
				ch := &check{idx: len(p.checks), part: c.Part, area: c.Area, name: c.Name, reqs: c.Requirements, def: c}
				index[k] = ch
				p.checks = append(p.checks, ch)
			}
		}
		p.impls = append(p.impls, im)
	}
	// One group per part and area, in run order, whichever report first had a check.
	partRank := map[string]int{"features": 0, "fixtures": 1, "properties": 2}
	areaRank := map[string]int{}
	for _, ch := range p.checks {
		if _, ok := areaRank[ch.part+"/"+ch.area]; !ok {
			areaRank[ch.part+"/"+ch.area] = len(areaRank)
		}
	}
	sort.SliceStable(p.checks, func(i, j int) bool {
		a, b := p.checks[i], p.checks[j]
		if pa, pb := partRank[a.part], partRank[b.part]; pa != pb {
			return pa < pb
		}
		return areaRank[a.part+"/"+a.area] < areaRank[b.part+"/"+b.area]
	})
	for i, ch := range p.checks {
		ch.idx = i
	}
	areas := map[string]bool{}
	p.byReq = map[string][]*check{}
	p.reqArea = map[string][]string{}
	for _, ch := range p.checks {
		ch.st = make([]result.Status, len(p.impls))
		for i, im := range p.impls {
			if c := im.cases[key(ch.part, ch.name)]; c != nil {
				ch.st[i] = c.Status
			}
		}
		for i := 1; i < len(ch.st); i++ {
			if ch.st[i] != ch.st[0] {
				ch.differs = true
			}
		}
		if ch.differs {
			p.differs++
		}
		areas[ch.area] = true
		for _, r := range ch.reqs {
			p.byReq[r] = append(p.byReq[r], ch)
			if !slices.Contains(p.reqArea[r], ch.area) {
				p.reqArea[r] = append(p.reqArea[r], ch.area)
			}
		}
	}
	for a := range areas {
		p.areas = append(p.areas, a)
	}
	sort.Strings(p.areas)
	p.reqText = map[string]string{}
	for _, b := range p.blocks {
		if b.Req != "" && p.reqText[b.Req] == "" {
			p.reqText[b.Req] = b.HTML
			p.reqs = append(p.reqs, b.Req)
		}
	}
	var extra []string
	for r := range p.byReq {
		if _, ok := p.reqText[r]; !ok {
			extra = append(extra, r)
		}
	}
	sort.Strings(extra)
	p.reqs = append(p.reqs, extra...)
	var sizes []int
	for _, ch := range p.checks {
		if ch.part == "fixtures" && len(ch.def.Steps) == 0 {
			sizes = append(sizes, len(value(ch.def.Input, ch.def.InputText, false)))
		}
	}
	p.inputCut = fit(sizes, checkInputShare*len(p.checks), minCheckInput, maxCheckInput)
}

// fit is the largest cut in [lo, hi] at which the sizes (sorted in place), each cut to it,
// total at most budget (lo when even that does not fit).
func fit(sizes []int, budget, lo, hi int) int {
	sort.Ints(sizes)
	total := 0 // of the sizes below the cut, in full
	for i, n := range sizes {
		// With the cut at n, sizes[i:] are cut to n.
		if total+(len(sizes)-i)*n > budget {
			return max(lo, min(hi, (budget-total)/(len(sizes)-i)))
		}
		total += n
	}
	return hi
}

// statusWord and statusIcon say a status in words and in one symbol; colour is never the only
// cue.
// legend says what the symbols of a status cell mean.
const legend = `<p class="legend">Symbols: ✓ pass, ✗ fail, – not covered, ! error, B fixture bug, · not run there; ≠ the results differ between implementations.</p>` + "\n"

var statusWord = map[result.Status]string{result.Pass: "pass", result.Fail: "fail", result.NotCovered: "not covered", result.Error: "error", result.FixtureBug: "fixture bug", "": "not run"}
var statusIcon = map[result.Status]string{result.Pass: "✓", result.Fail: "✗", result.NotCovered: "–", result.Error: "!", result.FixtureBug: "B", "": "·"}
var statusClass = map[result.Status]string{result.Pass: "pass", result.Fail: "fail", result.NotCovered: "nc", result.Error: "err", result.FixtureBug: "bug", "": "none"}

// iconCSS gives each status cell its symbol: generated content whose alternative text is
// empty, so a screen reader reads the cell's word alone (the first declaration is for engines
// without the alternative-text syntax).
var iconCSS = func() string {
	var b strings.Builder
	for _, s := range []result.Status{result.Pass, result.Fail, result.NotCovered, result.Error, result.FixtureBug, ""} {
		fmt.Fprintf(&b, "td.%s i::before{content:\"%s\";content:\"%s\"/\"\"}\n", statusClass[s], statusIcon[s], statusIcon[s])
	}
	return b.String()
}()

func (p *page) write(b *strings.Builder) {
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">` + "\n")
	b.WriteString("<title>" + esc(p.opt.Title) + "</title>\n<style>" + css + iconCSS + "</style></head>\n<body>\n")
	b.WriteString(`<a class="skip" href="#main">Skip to the results</a>` + "\n<header><h1>" + esc(p.opt.Title) + "</h1>\n")
	d0 := p.impls[0].doc
	fmt.Fprintf(b, "<p class=\"sub\">sessionref-kit %s · %d implementation%s · %d checks · fixtures sha256 <code>%s</code></p>\n",
		esc(d0.Kit), len(p.impls), plural(len(p.impls)), len(p.checks), esc(short(d0.FixtureHash)))
	b.WriteString(`<nav aria-label="sections"><ul><li><a href="#verdict">Verdict</a></li><li><a href="#parts">Parts and areas</a></li><li><a href="#failures">Failures</a></li><li><a href="#matrix">Requirement matrix</a></li><li><a href="#checks">Checks</a></li><li><a href="#spec">Spec</a></li></ul></nav></header>` + "\n")
	b.WriteString("<main id=\"main\">\n")
	p.writeVerdict(b)
	p.writeFilters(b)
	p.writeParts(b)
	p.writeFailures(b)
	p.writeMatrix(b)
	p.writeChecks(b)
	p.writeSpec(b)
	b.WriteString("</main>\n<script>" + script + "</script>\n</body></html>\n")
}

func (p *page) writeVerdict(b *strings.Builder) {
	b.WriteString("<section id=\"verdict\" aria-labelledby=\"h-verdict\"><h2 id=\"h-verdict\">Verdict</h2>\n")
	// Conformant counts full certifications only: a partial run says so apart.
	conformant, partial := 0, 0
	for _, im := range p.impls {
		switch im.doc.Verdict.Kind() {
		case report.OutcomeConformant:
			conformant++
		case report.OutcomePartial:
			partial++
		}
	}
	partialNote := ""
	if partial > 0 {
		partialNote = fmt.Sprintf(" (%d more partial)", partial)
	}
	fmt.Fprintf(b, "<p class=\"lead\">%d of %d implementation%s conformant%s; <a href=\"#checks\">%d check%s</a> differ between them.</p>\n",
		conformant, len(p.impls), plural(len(p.impls)), partialNote, p.differs, plural(p.differs))
	b.WriteString("<table class=\"verdicts\"><caption>One row per implementation: its badge, verdict and counts</caption>\n<thead><tr><th scope=\"col\">implementation</th><th scope=\"col\">badge</th><th scope=\"col\">verdict</th><th scope=\"col\">checks</th><th scope=\"col\">pass</th><th scope=\"col\">fail</th><th scope=\"col\">not covered</th><th scope=\"col\">error</th><th scope=\"col\">fixture bug</th></tr></thead><tbody>\n")
	for i, im := range p.impls {
		d, t := im.doc, im.doc.Totals
		fmt.Fprintf(b, "<tr data-impl=\"%d\"><th scope=\"row\"><span class=\"impl\">%s</span><details><summary>run</summary><dl class=\"run\">", i, esc(im.label))
		dl(b, "adapter", d.Adapter)
		if d.Hello != nil {
			dl(b, "hello", fmt.Sprintf("%s %s, protocol %d, spec %s, features [%s]", d.Hello.Name, d.Hello.Version, d.Hello.Protocol, d.Hello.Spec, strings.Join(d.Hello.Features, ", ")))
		}
		dl(b, "profile", d.Spec)
		dl(b, "seed", fmt.Sprintf("%d (%d checks per property)", d.Seed, d.Checks))
		dl(b, "started", d.Started.UTC().Format("2006-01-02 15:04:05 UTC"))
		dl(b, "elapsed", fmt.Sprintf("%.2fs", float64(d.ElapsedNs)/1e9))
		for _, x := range [][2]string{{"tags", d.Tags}, {"run", d.Match}, {"skip", d.Skip}, {"shard", d.Shard}, {"unusable", d.Unusable}} {
			if x[1] != "" {
				dl(b, x[0], x[1])
			}
		}
		b.WriteString("</dl></details></th>")
		// The cell is the verdict's headline, one line; the first failure's cause and its
		// answers are in the failure cards, linked.
		v := d.Verdict
		more := ""
		if v.Short() != v.Summary && (t.Fail > 0 || t.Error > 0 || t.FixtureBug > 0) {
			more = ` <a href="#failures">details</a>`
		}
		fmt.Fprintf(b, "<td>%s</td><td class=\"v t-%s\" title=\"exit code %d\">%s%s</td>", badge(d), v.Kind().Tone(), v.Code, esc(clip(v.Short(), 160)), more)
		fmt.Fprintf(b, "<td class=\"num n-total\">%d</td><td class=\"num n-pass\">%d</td><td class=\"num n-fail\">%d</td><td class=\"num n-nc\">%d</td><td class=\"num n-err\">%d</td><td class=\"num n-bug\">%d</td></tr>\n",
			t.Total, t.Pass, t.Fail, t.NotCovered, t.Error, t.FixtureBug)
	}
	b.WriteString("</tbody></table>\n</section>\n")
}

func dl(b *strings.Builder, k, v string) {
	b.WriteString("<dt>" + esc(k) + "</dt><dd>" + esc(v) + "</dd>")
}

// writeFilters writes the filter bar, hidden until the script shows it: without JavaScript
// everything is shown and nothing pretends to filter.
func (p *page) writeFilters(b *strings.Builder) {
	b.WriteString(`<form id="filters" class="filters" hidden aria-label="filters" onsubmit="return false">` +
		`<label><input type="checkbox" id="f-fail"> failures only</label> ` +
		`<label><input type="checkbox" id="f-diff"> differences only</label> ` +
		`<label>area <select id="f-area"><option value="">all</option>`)
	for _, a := range p.areas {
		b.WriteString(`<option>` + esc(a) + `</option>`)
	}
	b.WriteString(`</select></label> <label>requirement <select id="f-req"><option value="">all</option>`)
	for _, r := range p.reqs {
		b.WriteString(`<option>` + esc(r) + `</option>`)
	}
	b.WriteString(`</select></label> <label>text <input type="search" id="f-text" size="18"></label> <output id="f-count" aria-live="polite"></output></form>` + "\n")
}

func (p *page) writeParts(b *strings.Builder) {
	b.WriteString("<section id=\"parts\" aria-labelledby=\"h-parts\"><h2 id=\"h-parts\">Parts and areas</h2>\n")
	b.WriteString("<p>Each cell: checks passed of those run, then failures and errors.</p>\n<table class=\"grid\"><thead><tr><th scope=\"col\">part or area</th>")
	p.implHeads(b)
	b.WriteString("</tr></thead>\n")
	names := func(get func(d *report.Document) []string) []string {
		var out []string
		for _, im := range p.impls {
			for _, n := range get(im.doc) {
				if !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
		return out
	}
	parts := names(func(d *report.Document) []string {
		var o []string
		for _, x := range d.Parts {
			o = append(o, x.Name)
		}
		return o
	})
	b.WriteString("<tbody><tr class=\"group\"><th scope=\"rowgroup\" colspan=\"" + itoa(len(p.impls)+1) + "\">parts</th></tr>\n")
	for _, n := range parts {
		b.WriteString("<tr><th scope=\"row\">" + esc(n) + "</th>")
		for _, im := range p.impls {
			var c *report.Counts
			note := ""
			for k := range im.doc.Parts {
				if im.doc.Parts[k].Name == n {
					c, note = &im.doc.Parts[k].Counts, im.doc.Parts[k].Note
				}
			}
			countCell(b, c, note)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody><tbody><tr class=\"group\"><th scope=\"rowgroup\" colspan=\"" + itoa(len(p.impls)+1) + "\">areas</th></tr>\n")
	for _, a := range names(func(d *report.Document) []string {
		var o []string
		for _, x := range d.Areas {
			o = append(o, x.Name)
		}
		return o
	}) {
		b.WriteString("<tr><th scope=\"row\">" + esc(a) + "</th>")
		for _, im := range p.impls {
			var c *report.Counts
			for k := range im.doc.Areas {
				if im.doc.Areas[k].Name == a {
					c = &im.doc.Areas[k].Counts
				}
			}
			countCell(b, c, "")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>\n</section>\n")
}

func (p *page) implHeads(b *strings.Builder) {
	for i, im := range p.impls {
		fmt.Fprintf(b, "<th scope=\"col\" class=\"ih\" title=\"%s\"><span class=\"ino\">%d</span> %s</th>", esc(im.label), i+1, esc(im.label))
	}
}

func countCell(b *strings.Builder, c *report.Counts, note string) {
	if c == nil {
		b.WriteString(`<td class="cnt none">not run</td>`)
		return
	}
	run := c.Total - c.NotCovered - c.FixtureBug
	cls := "pass"
	switch {
	case c.Fail > 0:
		cls = "fail"
	case c.Error > 0:
		cls = "err"
	case run == 0:
		cls = "nc"
	}
	fmt.Fprintf(b, `<td class="cnt %s">%d/%d`, cls, c.Pass, run)
	if c.Fail > 0 {
		fmt.Fprintf(b, ` · %d failed`, c.Fail)
	}
	if c.Error > 0 {
		fmt.Fprintf(b, ` · %d errors`, c.Error)
	}
	if c.NotCovered > 0 {
		fmt.Fprintf(b, ` · %d not covered`, c.NotCovered)
	}
	if note != "" {
		b.WriteString(` <small>(` + esc(note) + `)</small>`)
	}
	b.WriteString("</td>")
}

func (p *page) attrs(area string, reqs []string, st []result.Status) string {
	var s []string
	for _, x := range st {
		s = append(s, statusClass[x])
	}
	return fmt.Sprintf(` data-area=" %s " data-req=" %s " data-st="%s"`, esc(area), esc(strings.Join(reqs, " ")), strings.Join(s, " "))
}

func (p *page) writeFailures(b *strings.Builder) {
	b.WriteString("<section id=\"failures\" aria-labelledby=\"h-failures\"><h2 id=\"h-failures\">Failures</h2>\n")
	any := false
	for i, im := range p.impls {
		shown := 0
		var bad []*report.DocCase
		for j := range im.doc.Cases {
			c := &im.doc.Cases[j]
			if c.Status == result.Fail || c.Status == result.Error || c.Status == result.FixtureBug {
				bad = append(bad, c)
			}
		}
		if len(bad) == 0 {
			continue
		}
		any = true
		fmt.Fprintf(b, "<h3 class=\"fi\"><span class=\"ino\">%d</span> %s: %d</h3>\n", i+1, esc(im.label), len(bad))
		brief := false
		for _, c := range bad {
			if shown == maxFailuresShown {
				fmt.Fprintf(b, "<p>…and %d more; the JSON report has them all.</p>\n", len(bad)-shown)
				break
			}
			shown++
			p.failures++
			if p.spent < failureBudget {
				start := b.Len()
				p.writeFailure(b, i, c)
				p.spent += b.Len() - start
				continue
			}
			if !brief {
				brief = true
				b.WriteString("<p class=\"none\">The page shows input, want, got and diff for its first failures only; the JSON report has them for these too.</p>\n<ul class=\"brief\">\n")
			}
			ch := p.checkOf(c)
			fmt.Fprintf(b, "<li id=\"f-%d-%d\"%s><a href=\"#c-%d\">%s %s</a>: %s", i, ch.idx, p.attrs(c.Area, c.Requirements, []result.Status{c.Status}), ch.idx, escText(c.Part), escText(c.Name), escText(clip(c.Message, 200)))
			if c.Diff != nil {
				b.WriteString("; <code>" + escText(clip(c.Diff.First, 160)) + "</code>")
			}
			b.WriteString("</li>\n")
		}
		if brief {
			b.WriteString("</ul>\n")
		}
	}
	if !any {
		b.WriteString("<p class=\"ok\">None: every check that ran passed in every implementation.</p>\n")
	}
	b.WriteString("</section>\n")
}

func (p *page) checkOf(c *report.DocCase) *check { return p.index[key(c.Part, c.Name)] }

func (p *page) writeFailure(b *strings.Builder, i int, c *report.DocCase) {
	ch := p.checkOf(c)
	id := fmt.Sprintf("f-%d-%d", i, ch.idx)
	fmt.Fprintf(b, "<article class=\"failure\" id=\"%s\"%s>\n", id, p.attrs(c.Area, c.Requirements, []result.Status{c.Status}))
	fmt.Fprintf(b, "<h4><span class=\"tag %s\">%s</span> %s <a href=\"#c-%d\">%s</a></h4>\n", statusClass[c.Status], strings.ToUpper(statusWord[c.Status]), esc(c.Part), ch.idx, esc(c.Name))
	b.WriteString("<p class=\"msg\">" + escText(c.Message) + "</p>\n<dl class=\"meta\">")
	b.WriteString("<dt>implementation</dt><dd>" + esc(p.impls[i].label) + "</dd>")
	if c.File != "" {
		fmt.Fprintf(b, "<dt>defined at</dt><dd><code>%s:%d</code></dd>", esc(c.File), c.Line)
	}
	if len(c.Requirements) > 0 {
		b.WriteString("<dt>requirements</dt><dd>" + p.reqLinks(c.Requirements) + "</dd>")
	}
	for _, h := range c.TrapHints {
		b.WriteString("<dt>porting trap</dt><dd>" + escText(h) + "</dd>")
	}
	if c.Diagnosis != "" {
		b.WriteString("<dt>first differing input</dt><dd><code>" + escText(clip(c.Diagnosis, 400)) + "</code></dd>")
	}
	rerun := p.impls[i].doc.Rerun(*c)
	b.WriteString("<dt>rerun</dt><dd><code>" + escText(rerun) + "</code></dd></dl>\n")
	if len(c.Steps) > 0 {
		b.WriteString("<details class=\"steps\"><summary>scenario</summary><pre>" + escText(clip(strings.Join(c.Steps, "\n"), maxBlock)) + "</pre></details>\n")
	}
	if in := value(c.Input, c.InputText, true); in != "" {
		b.WriteString("<details class=\"input\"><summary>input</summary><pre>" + escText(clip(in, maxBlock)) + "</pre></details>\n")
	}
	want, got := value(c.Want, c.WantText, true), value(c.Got, c.GotText, true)
	if c.Diff != nil {
		want, got = c.Diff.Want, c.Diff.Got
		b.WriteString("<p class=\"first\">first difference: <code>" + escText(clip(c.Diff.First, 400)) + "</code></p>\n")
	}
	if want != "" || got != "" {
		b.WriteString("<div class=\"wg\">")
		for _, x := range [][2]string{{"want", want}, {"got", got}} {
			b.WriteString("<div><h5>" + x[0] + "</h5><pre>" + escText(clip(orDash(x[1]), maxBlock)) + "</pre></div>")
		}
		b.WriteString("</div>\n")
	}
	if c.Diff != nil {
		b.WriteString("<h5>diff <small>(- want, + got)</small></h5><pre class=\"diff\">")
		for _, l := range strings.Split(strings.TrimRight(clip(c.Diff.Lines, maxBlock), "\n"), "\n") {
			cls := ""
			switch {
			case strings.HasPrefix(l, "- "):
				cls = "del"
			case strings.HasPrefix(l, "+ "):
				cls = "ins"
			case strings.HasPrefix(l, "@@"):
				cls = "gap"
			}
			if cls != "" {
				b.WriteString(`<span class="` + cls + `">` + escText(l) + "\n</span>")
			} else {
				b.WriteString(escText(l) + "\n")
			}
		}
		b.WriteString("</pre>\n")
	}
	b.WriteString("</article>\n")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// value shows a nested JSON value (canonical when pretty) or its text form.
func value(raw json.RawMessage, text string, pretty bool) string {
	if len(raw) == 0 {
		return text
	}
	if pretty {
		if s, ok := report.Canonical(string(raw)); ok {
			return s
		}
	}
	return compactJSON(raw)
}

// compactJSON drops the whitespace outside strings that encoding/json's indenting added.
func compactJSON(raw json.RawMessage) string {
	var b strings.Builder
	inStr, escaped := false, false
	for _, c := range string(raw) {
		switch {
		case inStr:
			b.WriteRune(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
			b.WriteRune(c)
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// reqLinks links requirement ids to their clauses; an id this spec lacks stays text.
func (p *page) reqLinks(reqs []string) string {
	var out []string
	for _, r := range reqs {
		if _, ok := p.reqText[r]; ok {
			out = append(out, `<a href="#spec-`+esc(r)+`">`+esc(r)+`</a>`)
		} else {
			out = append(out, esc(r)+` <small>(not in this spec)</small>`)
		}
	}
	return strings.Join(out, " ")
}

// statusCell is one implementation's result for one check: the word, for screen readers and
// for readers without styles, to which the style adds the symbol for the eye (assets.go: a
// cell is written once per check and implementation, so its markup is kept short). The class
// i<N> names the column, for tests and styles.
func statusCell(b *strings.Builder, i int, s result.Status, href string) {
	inner := `<i>` + statusWord[s] + `</i>`
	if href != "" {
		inner = `<a href="` + href + `">` + inner + `</a>`
	}
	b.WriteString(`<td class="s ` + statusClass[s] + ` i` + itoa(i) + `">` + inner + `</td>`)
}

func (p *page) failHref(i int, ch *check) string {
	if s := ch.st[i]; s == result.Fail || s == result.Error || s == result.FixtureBug {
		return fmt.Sprintf("#f-%d-%d", i, ch.idx)
	}
	return ""
}

func (p *page) writeMatrix(b *strings.Builder) {
	b.WriteString("<section id=\"matrix\" aria-labelledby=\"h-matrix\"><h2 id=\"h-matrix\">Requirement matrix</h2>\n")
	b.WriteString("<p>One row per requirement of the spec, one column per implementation: the checks naming the requirement that passed, of those run there. ≠ marks a requirement whose checks end differently between implementations. The id links to its clause in the <a href=\"#spec\">spec</a> below.</p>\n")
	b.WriteString("<table class=\"grid matrix\"><thead><tr><th scope=\"col\">requirement</th><th scope=\"col\">text</th><th scope=\"col\">≠</th><th scope=\"col\">checks</th>")
	p.implHeads(b)
	b.WriteString("</tr></thead><tbody>\n")
	for _, r := range p.reqs {
		chs := p.byReq[r]
		st, differs := p.aggregate(chs)
		cls := ""
		if differs {
			cls = ` class="differs"`
		}
		text, ok := p.reqText[r]
		head := `<a href="#spec-` + esc(r) + `">` + esc(r) + `</a>`
		if !ok {
			text, head = `<span class="none">not in this spec</span>`, esc(r)
		}
		fmt.Fprintf(b, "<tr id=\"req-%s\"%s%s><th scope=\"row\">%s</th><td class=\"rtext\">%s</td><td class=\"d\">%s</td><td class=\"num\">%d</td>",
			esc(r), cls, p.attrs(strings.Join(p.reqArea[r], " "), []string{r}, st), head, text, mark(differs), len(chs))
		for i := range p.impls {
			var c report.Counts
			for _, ch := range chs {
				c.Add(ch.st[i])
			}
			if len(chs) == 0 {
				b.WriteString(`<td class="cnt none">no check</td>`)
				continue
			}
			countCell(b, &c, "")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>\n</section>\n")
}

func mark(differs bool) string {
	if differs {
		return `<span aria-hidden="true">≠</span><span class="sr">differs</span>`
	}
	return ""
}

// aggregate is the worst status per implementation over chs, and whether any check differs.
func (p *page) aggregate(chs []*check) ([]result.Status, bool) {
	rank := map[result.Status]int{"": 0, result.NotCovered: 1, result.Pass: 2, result.FixtureBug: 3, result.Error: 4, result.Fail: 5}
	st := make([]result.Status, len(p.impls))
	differs := false
	for _, ch := range chs {
		differs = differs || ch.differs
		for i, s := range ch.st {
			if rank[s] > rank[st[i]] {
				st[i] = s
			}
		}
	}
	return st, differs
}

func (p *page) writeChecks(b *strings.Builder) {
	b.WriteString("<section id=\"checks\" aria-labelledby=\"h-checks\"><h2 id=\"h-checks\">Checks</h2>\n")
	fmt.Fprintf(b, "<p>Every check of the reports, by part and area, with each implementation's result; open a check for its definition. %d of %d differ between implementations (≠). A fixture's input is shown up to %d bytes; the JSON report and the fixture file have it in full.</p>\n", p.differs, len(p.checks), p.inputCut)
	b.WriteString(legend)
	b.WriteString("<table class=\"grid checks\"><thead><tr><th scope=\"col\">check</th><th scope=\"col\" class=\"d\">≠</th>")
	p.implHeads(b)
	b.WriteString("</tr></thead>\n")
	group := ""
	for _, ch := range p.checks {
		if g := ch.part + " · " + ch.area; g != group {
			if group != "" {
				b.WriteString("</tbody>\n")
			}
			group = g
			// The area is the group's, and a row's statuses are its cells' classes: the
			// script reads them there rather than from attributes repeated on every row.
			fmt.Fprintf(b, "<tbody data-area=\" %s \"><tr class=\"group\"><th scope=\"rowgroup\" colspan=\"%d\">%s</th></tr>\n", esc(ch.area), len(p.impls)+2, escText(g))
		}
		cls := ""
		if ch.differs {
			cls = ` class="differs"`
		}
		fmt.Fprintf(b, "<tr id=\"c-%d\"%s data-req=\" %s \"><th scope=\"row\"><details><summary>%s</summary><div>", ch.idx, cls, esc(strings.Join(ch.reqs, " ")), escText(ch.name))
		d := ch.def
		if d.File != "" {
			fmt.Fprintf(b, "<code>%s:%d</code> ", esc(d.File), d.Line)
		}
		if len(ch.reqs) > 0 {
			b.WriteString(p.reqLinks(ch.reqs))
		}
		switch {
		case len(d.Steps) > 0:
			b.WriteString("<pre>" + escText(clip(strings.Join(d.Steps, "\n"), maxBlock)) + "</pre>")
		case ch.part == "fixtures":
			if in := value(d.Input, d.InputText, false); in != "" {
				b.WriteString("<pre>" + escText(clipShort(in, p.inputCut)) + "</pre>")
			}
		case d.Message != "" && d.Status == result.Pass:
			b.WriteString("<p>" + escText(d.Message) + "</p>")
		}
		if ch.differs {
			b.WriteString(`</div></details></th><td class="d">` + mark(true) + `</td>`)
		} else {
			b.WriteString(`</div></details></th><td></td>`) // most rows: the header sets the width
		}
		for i := range p.impls {
			statusCell(b, i, ch.st[i], p.failHref(i, ch))
		}
		b.WriteString("</tr>\n")
	}
	if group != "" {
		b.WriteString("</tbody>")
	}
	b.WriteString("</table>\n</section>\n")
}

var kind = map[string]string{"features": "scenario", "fixtures": "fixture", "properties": "property"}

func (p *page) writeSpec(b *strings.Builder) {
	b.WriteString("<section id=\"spec\" aria-labelledby=\"h-spec\"><h2 id=\"h-spec\">Spec, with each clause's checks</h2>\n" + legend + "<div class=\"spec\">\n")
	for _, blk := range p.blocks {
		if blk.Heading == 1 {
			continue // the page has its own title
		}
		if blk.Req == "" {
			b.WriteString(blk.HTML + "\n")
			continue
		}
		r := blk.Req
		chs := p.byReq[r]
		st, differs := p.aggregate(chs)
		cls := "clause"
		if differs {
			cls += " differs"
		}
		fmt.Fprintf(b, "<div class=\"%s\" id=\"spec-%s\"%s><div class=\"ctext\"><a class=\"rid\" href=\"#req-%s\">%s</a> %s</div><div class=\"cchecks\">",
			cls, esc(r), p.attrs(strings.Join(p.reqArea[r], " "), []string{r}, st), esc(r), esc(r), blk.HTML)
		if len(chs) == 0 {
			b.WriteString("<p class=\"none\">No check of these reports names it.</p>")
		} else {
			fmt.Fprintf(b, "<table><caption class=\"sr\">checks of %s</caption><thead><tr><th scope=\"col\">%d check%s</th>", esc(r), len(chs), plural(len(chs)))
			for i := range p.impls {
				fmt.Fprintf(b, "<th scope=\"col\" title=\"%s\"><span class=\"ino\">%d</span></th>", esc(p.impls[i].label), i+1)
			}
			b.WriteString("</tr></thead><tbody>")
			p.writeClauseChecks(b, r, chs)
			b.WriteString("</tbody></table>")
		}
		b.WriteString("</div></div>\n")
	}
	b.WriteString("</div>\n</section>\n")
}

// maxListedPerFile is how many cases of one fixture file a clause lists one by one; a file
// with more cases naming the clause is folded into one row (conformance/trace folds the spec's
// own check lists the same way). Generated trap files name one requirement from hundreds of
// cases, and a row per case and implementation made most of the page's weight.
const maxListedPerFile = 8

// maxNotablePerFold is how many cases of a folded file that fail or differ a clause lists
// under the file's row; the check list, filtered by the clause's requirement, has the rest.
const maxNotablePerFold = 4

// writeClauseChecks writes the rows of one clause's check table. The cases of a folded
// fixture file share one row with each implementation's counts, linked to the file's first
// case in the check list; after it come the file's cases that fail or differ somewhere, one
// by one, up to maxNotablePerFold, so a reader still sees which cases went wrong from the
// clause.
func (p *page) writeClauseChecks(b *strings.Builder, r string, chs []*check) {
	perFile := map[string][]*check{}
	for _, ch := range chs {
		if f, ok := fixtureFile(ch); ok {
			perFile[f] = append(perFile[f], ch)
		}
	}
	done := map[string]bool{}
	for _, ch := range chs {
		f, ok := fixtureFile(ch)
		if !ok || len(perFile[f]) <= maxListedPerFile {
			p.clauseRow(b, ch, "")
			continue
		}
		if done[f] {
			continue
		}
		done[f] = true
		cases := perFile[f]
		fmt.Fprintf(b, "<tr class=\"fold\"><th scope=\"row\"><a href=\"#c-%d\">%s/…</a> <small>fixture file, %d cases</small></th>", cases[0].idx, escText(f), len(cases))
		for i := range p.impls {
			var c report.Counts
			for _, x := range cases {
				c.Add(x.st[i])
			}
			countCell(b, &c, "")
		}
		b.WriteString("</tr>")
		var notable []*check
		for _, x := range cases {
			if x.differs || slices.ContainsFunc(x.st, bad) {
				notable = append(notable, x)
			}
		}
		for k, x := range notable {
			if k == maxNotablePerFold {
				fmt.Fprintf(b, "<tr class=\"in\"><td colspan=\"%d\">…and %d more of these cases that fail or differ: <a href=\"?requirement=%s#checks\">the checks of %s</a></td></tr>",
					len(p.impls)+1, len(notable)-k, esc(r), escText(r))
				break
			}
			p.clauseRow(b, x, "in")
		}
	}
}

func (p *page) clauseRow(b *strings.Builder, ch *check, cls string) {
	if cls != "" {
		cls = ` class="` + cls + `"`
	}
	fmt.Fprintf(b, "<tr%s><th scope=\"row\"><a href=\"#c-%d\">%s</a> <small>%s</small></th>", cls, ch.idx, escText(ch.name), kind[ch.part])
	for i := range p.impls {
		statusCell(b, i, ch.st[i], p.failHref(i, ch))
	}
	b.WriteString("</tr>")
}

// fixtureFile is the fixture file a fixture case comes from: its name up to the first "/".
func fixtureFile(ch *check) (string, bool) {
	if ch.part != "fixtures" {
		return "", false
	}
	f, _, ok := strings.Cut(ch.name, "/")
	return f, ok
}

func bad(s result.Status) bool {
	return s == result.Fail || s == result.Error || s == result.FixtureBug
}

// badge is a shields-style SVG: "conformance | 435/435" in green for a conformant run only;
// the colour is the outcome's (report.Tone), as in every other report.
func badge(d *report.Document) string {
	t := d.Totals
	run := t.Total - t.NotCovered - t.FixtureBug
	kind := d.Verdict.Kind()
	msg := fmt.Sprintf("%d/%d", t.Pass, run)
	switch kind {
	case report.OutcomeUnusable:
		msg = "unusable"
	case report.OutcomeNotConformant:
		if t.Fail > 0 {
			msg = fmt.Sprintf("%d failed", t.Fail)
		}
	case report.OutcomeUndecided:
		msg = fmt.Sprintf("%d errors", t.Error)
	case report.OutcomeIncomplete:
		msg = "incomplete"
	case report.OutcomeInterrupted:
		msg = "interrupted"
	case report.OutcomePartial:
		msg = fmt.Sprintf("%d/%d partial", t.Pass, t.Total-t.FixtureBug)
	case report.OutcomeNotWritten, report.OutcomeNothingRun:
		msg = string(kind)
	}
	color := kind.Tone().Color()
	l, r := 84, 7*len(msg)+12
	return fmt.Sprintf(`<svg class="badge" width="%d" height="20" role="img" aria-label="conformance: %s"><title>conformance: %s</title><rect width="%d" height="20" rx="3" fill="#555"/><rect x="%d" width="%d" height="20" rx="3" fill="%s"/><rect x="%d" width="4" height="20" fill="%s"/><g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11"><text x="6" y="14">conformance</text><text x="%d" y="14">%s</text></g></svg>`,
		l+r, esc(msg), esc(msg), l+r, l, r, color, l, color, l+6, esc(msg))
}

// rerunCommand is the start of a command line that reruns a check of d as d was run: the
// adapter (unless it was in-process: the embedded reference, or a Go port's own test) and
// the profile, so a pasted line never certifies the embedded reference instead.
func rerunCommand(d *report.Document) string {
	cmd := "conformance-runner"
	if d.Adapter != "" && !strings.HasSuffix(d.Adapter, "(in-process)") && d.Adapter != "in-process" {
		cmd += " --adapter " + shellQuote(d.Adapter)
	}
	if d.Spec != "" {
		cmd += " --profile " + shellQuote(d.Spec)
	}
	return cmd
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// esc escapes s for an attribute value or element content.
func esc(s string) string { return escape(s, true) }

// escText escapes s for element content only, where quotes need no escape: JSON inputs are full
// of them, and &#34; is five bytes for one.
func escText(s string) string { return escape(s, false) }

func escape(s string, quotes bool) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"' && quotes:
			b.WriteString("&#34;")
		case r == '\'' && quotes:
			b.WriteString("&#39;")
		case r == 0:
			b.WriteRune('\uFFFD')
		default:
			if r < 0x20 && r != '\n' && r != '\t' {
				b.WriteRune('\uFFFD')
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := cutAt(s, n)
	return s[:cut] + fmt.Sprintf("… (%d more bytes; the JSON report has them)", len(s)-cut)
}

// clipShort is clip with a short note, for the check list, whose introduction says once
// where the rest is.
func clipShort(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := cutAt(s, n)
	return s[:cut] + fmt.Sprintf("… (+%d bytes)", len(s)-cut)
}

// cutAt is n, moved back to the start of a UTF-8 sequence.
func cutAt(s string, n int) int {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "(none)"
	}
	return h
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func itoa(n int) string { return strconv.Itoa(n) }
