package html_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/report/html"
)

// hostile are texts an adapter or a hand-edited report could hold, each aimed at a context
// of the page: element content, a quoted attribute, a URL, the raw-text elements.
var hostile = []string{
	`<script>alert(1)</script>`,
	`"><img src=x onerror=alert(2)>`,
	`'><svg onload=alert(3)>`,
	`javascript:alert(4)`,
	`</title></textarea></style></script><b>5`,
	"ctl\x1b[31m\x00\xff6",
}

// hostileDoc is a copy of d whose every text from the adapter or the report is hostile.
func hostileDoc(d *report.Document) *report.Document {
	c := broken(d, 40)
	h := func(i int) string { return hostile[i%len(hostile)] }
	c.Adapter, c.Kit, c.FixtureHash = h(0), h(1), h(2)
	c.Tags, c.Match, c.Skip, c.Shard, c.Unusable = h(3), h(4), h(5), h(0), h(1)
	c.Verdict.Headline, c.Verdict.Summary = h(2), h(3)
	if c.Hello != nil {
		hello := *c.Hello
		hello.Name, hello.Version, hello.Features = h(4), h(5), []string{h(0), h(3)}
		c.Hello = &hello
	}
	c.Parts = append([]report.DocPart(nil), c.Parts...)
	for i := range c.Parts {
		c.Parts[i].Name, c.Parts[i].Note = h(i), h(i+1)
	}
	c.Areas = append([]report.Area(nil), c.Areas...)
	for i := range c.Areas {
		c.Areas[i].Name = h(i + 2)
	}
	for i := range c.Cases {
		cs := &c.Cases[i]
		if i%7 != 0 {
			continue
		}
		cs.Name, cs.Area, cs.File = h(i)+" "+cs.Name, h(i+1), h(i+2)
		cs.Requirements = append([]string{h(i + 3)}, cs.Requirements...)
		cs.Message, cs.Diagnosis, cs.TrapHints = h(i+4), h(i+5), []string{h(i)}
		cs.InputText, cs.Input = h(i+1), nil
		if cs.Diff != nil {
			cs.Diff = &compare.Difference{Want: h(i + 2), Got: h(i + 3), First: h(i + 4), Lines: "- " + h(i+5) + "\n+ " + h(i) + "\n"}
		}
	}
	return c
}

// pageTag is one start or end tag whose attribute values are quoted and hold no markup, as
// html/template writes them; a "<" of the page outside such a tag is a hole.
var (
	pageTag  = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/"]+(?:="[^"<>]*")?)*)\s*/?>`)
	pageAttr = regexp.MustCompile(`\s+([^\s=>/"]+)(?:="([^"]*)")?`)
	// Where a link of the page may go: within the page, or the check list filtered by a
	// requirement of the spec.
	pageHref = regexp.MustCompile(`^(#[A-Za-z0-9_.-]*|\?requirement=SR-[A-Z]+-[0-9]+#checks)$`)
)

// The elements and attributes the page is made of: anything else came from a report. No
// attribute but href takes a URL (src, action, formaction…), and href is checked apart.
var pageTags, pageAttrs = words(`a article body caption code dd details div dl dt form g h1 h2 h3
	h4 h5 head header html i input label li main meta nav option output p pre rect section select
	small span strong style script summary svg table tbody td text th thead title tr ul`),
	words(`aria-hidden aria-label aria-labelledby aria-live charset class colspan content data-area
	data-impl data-req data-st fill font-family font-size height hidden href http-equiv id lang name
	onsubmit role rx scope size title type value width x y`)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// TestHostileTextStaysText writes the page of reports whose every name, message, id and
// answer is hostile, and checks that none of it becomes markup: the page has its own style
// and script elements only; outside them every "<" starts one of the page's own tags, with
// the page's own attributes, quoted; no event handler but the filter form's; every link
// stays in the page; and each hostile text is still shown, escaped.
func TestHostileTextStaysText(t *testing.T) {
	docs := realRuns(t)
	labels := []string{hostile[1], hostile[3], ""}
	s := page(t, []*report.Document{hostileDoc(docs[0]), hostileDoc(docs[1]), hostileDoc(docs[0])}, html.Options{Labels: labels, Title: hostile[4]})

	rest := s
	for _, el := range []string{"style", "script"} {
		if n := strings.Count(s, "<"+el); n != 1 {
			t.Errorf("%d <%s elements, want the page's own one", n, el)
			continue
		}
		i, j := strings.Index(rest, "<"+el+">"), strings.Index(rest, "</"+el+">")
		if i < 0 || j < i {
			t.Fatalf("no <%s>…</%s>", el, el)
		}
		rest = rest[:i] + rest[j:]
	}
	if !strings.HasPrefix(rest, "<!DOCTYPE html>\n") {
		t.Fatalf("the page does not start with its doctype: %.40q", rest)
	}
	rest = rest[len("<!DOCTYPE html>\n"):]
	tags := pageTag.FindAllStringSubmatchIndex(rest, -1)
	if lt := strings.Count(rest, "<"); lt != len(tags) {
		for i, last := 0, 0; i < len(tags); i++ {
			if k := strings.IndexByte(rest[last:tags[i][0]], '<'); k >= 0 {
				t.Fatalf("a '<' that starts no tag of the page: %.120q", rest[last+k:])
			}
			last = tags[i][1]
		}
		t.Fatalf("%d '<' in the page, %d tags", lt, len(tags))
	}
	for _, m := range tags {
		name := rest[m[4]:m[5]]
		if !pageTags[name] {
			t.Errorf("element <%s> in the page: %.120q", name, rest[m[0]:])
		}
		for _, a := range pageAttr.FindAllStringSubmatch(rest[m[6]:m[7]], -1) {
			attr, val := a[1], a[2]
			switch {
			case !pageAttrs[attr]:
				t.Errorf("attribute %s in the page: %.120q", attr, rest[m[0]:])
			case attr == "onsubmit" && val != "return false":
				t.Errorf("event handler %q", val)
			case attr == "href" && !pageHref.MatchString(val):
				t.Errorf("a link out of the page: href=%q", val)
			}
		}
	}
	// Shown, not dropped: each hostile text is in the page as text, escaped.
	for _, want := range []string{
		`&lt;script&gt;alert(1)&lt;/script&gt;`,
		`&#34;&gt;&lt;img src=x onerror=alert(2)&gt;`,
		`&#39;&gt;&lt;svg onload=alert(3)&gt;`,
		`javascript:alert(4)`,
		`&lt;/title&gt;&lt;/textarea&gt;&lt;/style&gt;&lt;/script&gt;&lt;b&gt;5`,
		"ctl\uFFFD[31m\uFFFD\uFFFD6",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	if strings.ContainsAny(s, "\x00\x1b") || !strings.Contains(s, "<title>&lt;/title&gt;") {
		t.Error("a control character in the page, or the title is not escaped")
	}
}
