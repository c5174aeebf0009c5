// Package html writes the conformance matrix of one or more JSON reports as one
// self-contained HTML page: the verdict and a badge per implementation, parts and areas, the
// failures with their input, want, got and diff, the requirement matrix (requirements ×
// implementations, as Bowtie's report shows test cases × implementations), every check with
// its definition, and the spec with each clause's checks and their status beside it.
//
// The page needs no network: CSS and the little JavaScript it has (filters) are inline, and it
// reads in full without JavaScript. The page is an html/template (page.tmpl), so every string
// from a report is escaped for where it stands.
package html

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
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
	if err := p.write(&b); err != nil {
		return fmt.Errorf("html: %w", err)
	}
	_, err = io.WriteString(w, clean(b.String()))
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

// legend says what the symbols of a status cell mean.
const legend template.HTML = `<p class="legend">Symbols: ✓ pass, ✗ fail, – not covered, ! error, B fixture bug, · not run there; ≠ the results differ between implementations.</p>` + "\n"

// statusWord and statusIcon say a status in words and in one symbol; colour is never the only
// cue.
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

//go:embed page.tmpl
var pageTemplate string

// tmpl is the page: html/template escapes every value for where it stands (text, attribute,
// URL). text is the exception for element content, where quotes need no escape: JSON inputs
// are full of them, &#34; is five bytes for one, and the page's weight budget (html_test.go)
// does not allow it.
var tmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"text":   text,
	"plural": plural,
	"inc":    func(n int) int { return n + 1 },
}).Parse(pageTemplate))

// textEscaper escapes element content: markup and references only.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// text is s as element content.
func text(s string) template.HTML { return template.HTML(textEscaper.Replace(s)) }

// clean replaces what HTML forbids in a page and an adapter may send: bytes that are not
// UTF-8, NUL and the other control characters but tab and newline; and spells \uXXXX the
// characters that would reverse or hide the text after them (report.EscapeInvisible). The page's own markup
// has none, so cleaning the written page cleans every value in it, whatever its context.
func clean(s string) string {
	s = report.EscapeInvisible(strings.ToValidUTF8(s, "\uFFFD"))
	if strings.IndexFunc(s, control) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if control(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

func control(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }

// The views below are what the templates show: every string in them is the report's, not yet
// escaped, except the fields of type template.HTML, which are markup the page made (the spec,
// a failure card the "failure" template wrote).

type pageView struct {
	Title, Kit, Hash    string
	CSS                 template.CSS
	Script              template.JS
	Legend              template.HTML
	NChecks, InputCut   int
	Conformant, Partial int
	Differs             int
	Impls               []implView
	Areas, Reqs         []string
	Parts, AreaRows     []countRow
	Failures            []failGroup
	Matrix              []matrixRow
	Groups              []checkGroup
	Spec                []clauseView
}

type implView struct {
	Index, No int
	Label     string
	Run       []kv
	Badge     badgeView
	Tone      string
	Code      int
	Verdict   string
	Details   bool
	Totals    report.Counts
}

type kv struct{ K, V string }

type countView struct {
	Missing                            string // "not run", "no check": no counts
	Class, Note                        string
	Pass, Run, Fail, Error, NotCovered int
}

type countRow struct {
	Name   string
	Counts []countView
}

type cellView struct {
	Class, Word, Href string
	Impl              int
}

type attrsView struct{ Area, Req, St string }

type reqLink struct {
	ID    string
	Known bool
}

type failGroup struct {
	No, N int
	Label string
	Cards []template.HTML
	Brief []briefView
	More  int
}

type briefView struct {
	Impl, Idx                  int
	Attrs                      attrsView
	Part, Name, Message, First string
}

type failureView struct {
	Impl, Idx                      int
	Attrs                          attrsView
	Class, Word, Part, Name        string
	Message, Label, File           string
	Line                           int
	Reqs                           []reqLink
	Traps                          []string
	Diagnosis, Rerun, Steps, Input string
	HasDiff, WantGot               bool
	First, Want, Got               string
	Diff                           []diffLine
}

type diffLine struct{ Class, Line string }

type matrixRow struct {
	ID      string
	Known   bool
	Text    template.HTML
	Differs bool
	Attrs   attrsView
	N       int
	Counts  []countView
}

type checkGroup struct {
	Area, Title string
	Rows        []checkRow
}

type checkRow struct {
	Idx             int
	Differs         bool
	Req, Name, File string
	Line            int
	Reqs            []reqLink
	Pre, Message    string
	Cells           []cellView
}

type clauseView struct {
	HTML    template.HTML // a block of text, or the clause's sentence when Req is set
	Req     string
	Differs bool
	Attrs   attrsView
	N       int
	Rows    []clauseRow
}

// clauseRow is a check, a folded fixture file (Fold cases), or the note on a folded file's
// More further cases that fail or differ.
type clauseRow struct {
	Idx           int
	Name, Kind    string
	In            bool
	Cells         []cellView
	Fold          int
	Counts        []countView
	More, Colspan int
	Req           string
}

func (p *page) write(b *strings.Builder) error {
	d0 := p.impls[0].doc
	v := &pageView{
		Title: p.opt.Title, Kit: d0.Kit, Hash: short(d0.FixtureHash),
		CSS: template.CSS(css + iconCSS), Script: template.JS(script), Legend: legend,
		NChecks: len(p.checks), InputCut: p.inputCut, Differs: p.differs,
		Areas: p.areas, Reqs: p.reqs,
	}
	p.verdict(v)
	p.parts(v)
	if err := p.failureViews(v); err != nil {
		return err
	}
	p.matrix(v)
	p.checkViews(v)
	p.spec(v)
	return tmpl.ExecuteTemplate(b, "page", v)
}

func (p *page) verdict(v *pageView) {
	for i, im := range p.impls {
		d, t := im.doc, im.doc.Totals
		// Conformant counts full certifications only: a partial run says so apart.
		switch d.Verdict.Kind() {
		case report.OutcomeConformant:
			v.Conformant++
		case report.OutcomePartial:
			v.Partial++
		}
		iv := implView{Index: i, No: i + 1, Label: im.label, Badge: badge(d), Totals: t}
		iv.Run = append(iv.Run, kv{"adapter", d.Adapter})
		if d.Hello != nil {
			iv.Run = append(iv.Run, kv{"hello", fmt.Sprintf("%s %s, protocol %d, spec %s, features [%s]", d.Hello.Name, d.Hello.Version, d.Hello.Protocol, d.Hello.Spec, strings.Join(d.Hello.Features, ", "))})
		}
		iv.Run = append(iv.Run,
			kv{"profile", d.Spec},
			kv{"seed", fmt.Sprintf("%d (%d checks per property)", d.Seed, d.Checks)},
			kv{"started", d.Started.UTC().Format("2006-01-02 15:04:05 UTC")},
			kv{"elapsed", fmt.Sprintf("%.2fs", float64(d.ElapsedNs)/1e9)})
		for _, x := range []kv{{"tags", d.Tags}, {"run", d.Match}, {"skip", d.Skip}, {"shard", d.Shard}, {"unusable", d.Unusable}} {
			if x.V != "" {
				iv.Run = append(iv.Run, x)
			}
		}
		for j, g := range d.GivenUp {
			// The not-sent checks' messages name these entries instead of repeating them.
			iv.Run = append(iv.Run, kv{fmt.Sprintf("givenUp[%d]", j), fmt.Sprintf("%s (%d checks not sent)", g.Reason, g.Checks)})
		}
		vs := d.Verdict
		iv.Tone, iv.Code, iv.Verdict = string(vs.Kind().Tone()), vs.Code, clip(vs.Short(), 160)
		iv.Details = vs.Short() != vs.Summary && (t.Fail > 0 || t.Error > 0 || t.FixtureBug > 0)
		v.Impls = append(v.Impls, iv)
	}
}

func (p *page) parts(v *pageView) {
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
	for _, n := range names(func(d *report.Document) []string {
		var o []string
		for _, x := range d.Parts {
			o = append(o, x.Name)
		}
		return o
	}) {
		row := countRow{Name: n}
		for _, im := range p.impls {
			var c *report.Counts
			note := ""
			for k := range im.doc.Parts {
				if im.doc.Parts[k].Name == n {
					c, note = &im.doc.Parts[k].Counts, im.doc.Parts[k].Note
				}
			}
			row.Counts = append(row.Counts, countOf(c, note))
		}
		v.Parts = append(v.Parts, row)
	}
	for _, a := range names(func(d *report.Document) []string {
		var o []string
		for _, x := range d.Areas {
			o = append(o, x.Name)
		}
		return o
	}) {
		row := countRow{Name: a}
		for _, im := range p.impls {
			var c *report.Counts
			for k := range im.doc.Areas {
				if im.doc.Areas[k].Name == a {
					c = &im.doc.Areas[k].Counts
				}
			}
			row.Counts = append(row.Counts, countOf(c, ""))
		}
		v.AreaRows = append(v.AreaRows, row)
	}
}

// countOf is the cell of c: passed of run, then failures and errors; nil was not run.
func countOf(c *report.Counts, note string) countView {
	if c == nil {
		return countView{Missing: "not run"}
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
	return countView{Class: cls, Note: note, Pass: c.Pass, Run: run, Fail: c.Fail, Error: c.Error, NotCovered: c.NotCovered}
}

func attrs(area string, reqs []string, st []result.Status) attrsView {
	var s []string
	for _, x := range st {
		s = append(s, statusClass[x])
	}
	return attrsView{Area: area, Req: strings.Join(reqs, " "), St: strings.Join(s, " ")}
}

func (p *page) failureViews(v *pageView) error {
	var card strings.Builder
	for i, im := range p.impls {
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
		g := failGroup{No: i + 1, Label: im.label, N: len(bad)}
		for shown, c := range bad {
			if shown == maxFailuresShown {
				g.More = len(bad) - shown
				break
			}
			p.failures++
			ch := p.checkOf(c)
			if p.spent < failureBudget {
				// A card is written on its own, to count its bytes against the budget.
				card.Reset()
				if err := tmpl.ExecuteTemplate(&card, "failure", p.failure(i, c)); err != nil {
					return err
				}
				p.spent += card.Len()
				g.Cards = append(g.Cards, template.HTML(card.String()))
				continue
			}
			bv := briefView{Impl: i, Idx: ch.idx, Attrs: attrs(c.Area, c.Requirements, []result.Status{c.Status}),
				Part: c.Part, Name: c.Name, Message: clip(c.Message, 200)}
			if c.Diff != nil {
				bv.First = clip(c.Diff.First, 160)
			}
			g.Brief = append(g.Brief, bv)
		}
		v.Failures = append(v.Failures, g)
	}
	return nil
}

func (p *page) checkOf(c *report.DocCase) *check { return p.index[key(c.Part, c.Name)] }

func (p *page) failure(i int, c *report.DocCase) failureView {
	ch := p.checkOf(c)
	f := failureView{
		Impl: i, Idx: ch.idx, Attrs: attrs(c.Area, c.Requirements, []result.Status{c.Status}),
		Class: statusClass[c.Status], Word: strings.ToUpper(statusWord[c.Status]), Part: c.Part, Name: c.Name,
		Message: c.Message, Label: p.impls[i].label, File: c.File, Line: c.Line,
		Reqs: p.reqLinks(c.Requirements), Traps: c.TrapHints, Rerun: p.impls[i].doc.Rerun(*c),
	}
	if c.Diagnosis != "" {
		f.Diagnosis = clip(c.Diagnosis, 400)
	}
	if len(c.Steps) > 0 {
		f.Steps = clip(strings.Join(c.Steps, "\n"), maxBlock)
	}
	if in := value(c.Input, c.InputText, true); in != "" {
		f.Input = clip(in, maxBlock)
	}
	want, got := value(c.Want, c.WantText, true), value(c.Got, c.GotText, true)
	if c.Diff != nil {
		want, got = c.Diff.Want, c.Diff.Got
		f.HasDiff, f.First = true, clip(c.Diff.First, 400)
	}
	if want != "" || got != "" {
		f.WantGot, f.Want, f.Got = true, clip(orDash(want), maxBlock), clip(orDash(got), maxBlock)
	}
	if c.Diff != nil {
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
			f.Diff = append(f.Diff, diffLine{cls, l})
		}
	}
	return f
}

// reqLinks are requirement ids, linked to their clauses where this spec has them.
func (p *page) reqLinks(reqs []string) []reqLink {
	var out []reqLink
	for _, r := range reqs {
		_, ok := p.reqText[r]
		out = append(out, reqLink{r, ok})
	}
	return out
}

// cells are the results of one check, one per implementation (page.css: a cell is written
// once per check and implementation, so its markup is kept short); a failure links to its card.
func (p *page) cells(ch *check) []cellView {
	out := make([]cellView, len(p.impls))
	for i, s := range ch.st {
		out[i] = cellView{Class: statusClass[s], Word: statusWord[s], Impl: i}
		if bad(s) {
			out[i].Href = fmt.Sprintf("#f-%d-%d", i, ch.idx)
		}
	}
	return out
}

func (p *page) matrix(v *pageView) {
	for _, r := range p.reqs {
		chs := p.byReq[r]
		st, differs := p.aggregate(chs)
		text, ok := p.reqText[r]
		row := matrixRow{ID: r, Known: ok, Text: template.HTML(text), Differs: differs,
			Attrs: attrs(strings.Join(p.reqArea[r], " "), []string{r}, st), N: len(chs)}
		for i := range p.impls {
			if len(chs) == 0 {
				row.Counts = append(row.Counts, countView{Missing: "no check"})
				continue
			}
			var c report.Counts
			for _, ch := range chs {
				c.Add(ch.st[i])
			}
			row.Counts = append(row.Counts, countOf(&c, ""))
		}
		v.Matrix = append(v.Matrix, row)
	}
}
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

func (p *page) checkViews(v *pageView) {
	for _, ch := range p.checks {
		if g := ch.part + " · " + ch.area; len(v.Groups) == 0 || v.Groups[len(v.Groups)-1].Title != g {
			v.Groups = append(v.Groups, checkGroup{Area: ch.area, Title: g})
		}
		d := ch.def
		row := checkRow{Idx: ch.idx, Differs: ch.differs, Req: strings.Join(ch.reqs, " "), Name: ch.name,
			File: d.File, Line: d.Line, Reqs: p.reqLinks(ch.reqs), Cells: p.cells(ch)}
		switch {
		case len(d.Steps) > 0:
			row.Pre = clip(strings.Join(d.Steps, "\n"), maxBlock)
		case ch.part == "fixtures":
			if in := value(d.Input, d.InputText, false); in != "" {
				row.Pre = clipShort(in, p.inputCut)
			}
		case d.Message != "" && d.Status == result.Pass:
			row.Message = d.Message
		}
		g := &v.Groups[len(v.Groups)-1]
		g.Rows = append(g.Rows, row)
	}
}

var kind = map[string]string{"features": "scenario", "fixtures": "fixture", "properties": "property"}

func (p *page) spec(v *pageView) {
	for _, blk := range p.blocks {
		if blk.Heading == 1 {
			continue // the page has its own title
		}
		if blk.Req == "" {
			v.Spec = append(v.Spec, clauseView{HTML: template.HTML(blk.HTML)})
			continue
		}
		r := blk.Req
		chs := p.byReq[r]
		st, differs := p.aggregate(chs)
		v.Spec = append(v.Spec, clauseView{HTML: template.HTML(blk.HTML), Req: r, Differs: differs,
			Attrs: attrs(strings.Join(p.reqArea[r], " "), []string{r}, st), N: len(chs), Rows: p.clauseRows(r, chs)})
	}
}

// maxListedPerFile is how many cases of one fixture file a clause lists one by one; a file
// with more cases naming the clause is folded into one row (conformance/trace folds the spec's
// own check lists the same way). Generated trap files name one requirement from hundreds of
// cases, and a row per case and implementation made most of the page's weight.
const maxListedPerFile = 8

// maxNotablePerFold is how many cases of a folded file that fail or differ a clause lists
// under the file's row; the check list, filtered by the clause's requirement, has the rest.
const maxNotablePerFold = 4

// clauseRows are the rows of one clause's check table. The cases of a folded fixture file
// share one row with each implementation's counts, linked to the file's first case in the
// check list; after it come the file's cases that fail or differ somewhere, one by one, up to
// maxNotablePerFold, so a reader still sees which cases went wrong from the clause.
func (p *page) clauseRows(r string, chs []*check) []clauseRow {
	perFile := map[string][]*check{}
	for _, ch := range chs {
		if f, ok := fixtureFile(ch); ok {
			perFile[f] = append(perFile[f], ch)
		}
	}
	var rows []clauseRow
	row := func(ch *check, in bool) clauseRow {
		return clauseRow{Idx: ch.idx, Name: ch.name, Kind: kind[ch.part], In: in, Cells: p.cells(ch)}
	}
	done := map[string]bool{}
	for _, ch := range chs {
		f, ok := fixtureFile(ch)
		if !ok || len(perFile[f]) <= maxListedPerFile {
			rows = append(rows, row(ch, false))
			continue
		}
		if done[f] {
			continue
		}
		done[f] = true
		cases := perFile[f]
		fold := clauseRow{Idx: cases[0].idx, Name: f, Fold: len(cases)}
		for i := range p.impls {
			var c report.Counts
			for _, x := range cases {
				c.Add(x.st[i])
			}
			fold.Counts = append(fold.Counts, countOf(&c, ""))
		}
		rows = append(rows, fold)
		var notable []*check
		for _, x := range cases {
			if x.differs || slices.ContainsFunc(x.st, bad) {
				notable = append(notable, x)
			}
		}
		for k, x := range notable {
			if k == maxNotablePerFold {
				rows = append(rows, clauseRow{More: len(notable) - k, Colspan: len(p.impls) + 1, Req: r})
				break
			}
			rows = append(rows, row(x, true))
		}
	}
	return rows
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

type badgeView struct {
	Msg, Color         string
	Width, L, R, TextX int
}

// badge is a shields-style SVG: "conformance | 435/435" in green for a conformant run only;
// the colour is the outcome's (report.Tone), as in every other report.
func badge(d *report.Document) badgeView {
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
	l, r := 84, 7*len(msg)+12
	return badgeView{Msg: msg, Color: kind.Tone().Color(), Width: l + r, L: l, R: r, TextX: l + 6}
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
		// Decoded once, numbers as written (a report read from a file is shown as it was).
		if v, err := wire.ParseExact(string(raw)); err == nil {
			return compare.Canonical(v)
		}
	}
	return compactJSON(raw)
}

// compactJSON drops the whitespace outside strings that encoding/json's indenting added.
// Byte by byte (every byte it looks for is ASCII, which no byte of a longer UTF-8 sequence
// is), into a buffer of the input's size; in raw that is not UTF-8 each invalid byte then
// becomes U+FFFD.
func compactJSON(raw json.RawMessage) string {
	b := make([]byte, 0, len(raw))
	inStr, escaped := false, false
	for _, c := range raw {
		switch {
		case inStr:
			b = append(b, c)
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
			b = append(b, c)
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
		default:
			b = append(b, c)
		}
	}
	if !utf8.Valid(b) {
		return string([]rune(string(b))) // one U+FFFD per invalid byte
	}
	return string(b)
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
