package html

import (
	"html/template"
	"regexp"
	"strings"
)

// The spec is rendered by a small Markdown subset that covers what spec/*.md use: ATX
// headings, paragraphs, "- " lists with indented continuation lines, fenced code blocks
// (indented too), pipe tables, and inline code, bold, emphasis and links. Anything else is
// shown as text. Every byte of the source is escaped (template.HTMLEscapeString); only the
// markup below is made, and the page takes it as trusted HTML.

// specBlock is one rendered block of the spec; Req is the requirement id when the block is
// a requirement's list item (HTML is then its sentence alone), so the page can frame it with
// its id and put its checks beside it.
type specBlock struct {
	HTML    string
	Req     string
	Heading int    // 1-6 for a heading
	Title   string // a heading's text
	Anchor  string // a heading's anchor
}

var (
	reqItem  = regexp.MustCompile(`^- \*\*(SR-[A-Z]+-[0-9]+)\*\*\s*(.*)$`)
	headLine = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	// generatedChecks begins the block conformance/trace generates under a clause; it ends at
	// the line holding "<!-- end checks -->".
	generatedChecks = regexp.MustCompile(`^\s*<!-- checks SR-[A-Z]+-[0-9]+: generated`)
)

// renderSpec splits a Markdown document into rendered blocks.
func renderSpec(src string) []specBlock {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var out []specBlock
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, specBlock{HTML: "<p>" + inline(strings.Join(para, " ")) + "</p>"})
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			flush()
		case generatedChecks.MatchString(l):
			// The spec's generated list of a clause's checks (conformance/trace writes it):
			// the page puts the clause's checks, with their results, beside the clause.
			flush()
			for i < len(lines) && !strings.Contains(lines[i], "<!-- end checks -->") {
				i++
			}
		case headLine.MatchString(l):
			flush()
			m := headLine.FindStringSubmatch(l)
			n := len(m[1])
			a := slug(m[2])
			out = append(out, specBlock{Heading: n, Title: m[2], Anchor: a,
				HTML: "<h" + itoa(n+1) + ` id="` + template.HTMLEscapeString(a) + `">` + inline(m[2]) + "</h" + itoa(n+1) + ">"})
		case strings.HasPrefix(t, "```"):
			flush()
			indent := len(l) - len(strings.TrimLeft(l, " "))
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				code = append(code, trimIndent(lines[i], indent))
			}
			out = append(out, specBlock{HTML: "<pre><code>" + template.HTMLEscapeString(strings.Join(code, "\n")) + "</code></pre>"})
		case strings.HasPrefix(t, "|"):
			flush()
			var rows []string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				rows = append(rows, strings.TrimSpace(lines[i]))
			}
			i--
			out = append(out, specBlock{HTML: table(rows)})
		case strings.HasPrefix(l, "- "):
			flush()
			// One item: the line and its indented continuation lines (not a nested block).
			item := []string{l}
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  ") && !strings.HasPrefix(strings.TrimSpace(lines[i+1]), "```") {
				i++
				item = append(item, strings.TrimSpace(lines[i]))
			}
			text := strings.Join(item, " ")
			b := specBlock{}
			if m := reqItem.FindStringSubmatch(text); m != nil {
				b.Req = m[1]
				b.HTML = inline(m[2]) // the page frames it with the id and the checks
			} else {
				b.HTML = `<ul><li>` + inline(strings.TrimPrefix(text, "- ")) + "</li></ul>"
			}
			out = append(out, b)
		default:
			para = append(para, t)
		}
	}
	flush()
	return out
}

func trimIndent(l string, n int) string {
	for k := 0; k < n && strings.HasPrefix(l, " "); k++ {
		l = l[1:]
	}
	return l
}

func table(rows []string) string {
	var b strings.Builder
	b.WriteString(`<table class="spec-table">`)
	head := true
	for _, r := range rows {
		cells := splitRow(r)
		if isRule(cells) {
			head = false
			continue
		}
		b.WriteString("<tr>")
		for _, c := range cells {
			if head {
				b.WriteString(`<th scope="col">` + inline(c) + "</th>")
			} else {
				b.WriteString("<td>" + inline(c) + "</td>")
			}
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}

func splitRow(r string) []string {
	r = strings.TrimSuffix(strings.TrimPrefix(r, "|"), "|")
	var cells []string
	var cur strings.Builder
	inCode := false
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '`':
			inCode = !inCode
			cur.WriteByte(c)
		case c == '\\' && i+1 < len(r) && r[i+1] == '|':
			cur.WriteByte('|')
			i++
		case c == '|' && !inCode:
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

func isRule(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" || c == "" {
			return false
		}
	}
	return true
}

var (
	reqRef = regexp.MustCompile(`\bSR-[A-Z]+-[0-9]+\b`)
)

// inline renders code spans, bold, emphasis, links and requirement ids of one paragraph.
func inline(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		switch {
		case s[0] == '`':
			n := 1
			for n < len(s) && s[n] == '`' {
				n++
			}
			fence := s[:n]
			if j := strings.Index(s[n:], fence); j >= 0 {
				b.WriteString("<code>" + template.HTMLEscapeString(strings.TrimSpace(s[n:n+j])) + "</code>")
				s = s[n+j+n:]
				continue
			}
			b.WriteString(template.HTMLEscapeString(fence))
			s = s[n:]
		case strings.HasPrefix(s, "**"):
			if j := strings.Index(s[2:], "**"); j > 0 {
				b.WriteString("<strong>" + inline(s[2:2+j]) + "</strong>")
				s = s[2+j+2:]
				continue
			}
			b.WriteString("**")
			s = s[2:]
		case s[0] == '[':
			if j := strings.Index(s, "]("); j > 0 {
				if k := strings.IndexByte(s[j+2:], ')'); k >= 0 {
					text, href := s[1:j], s[j+2:j+2+k]
					switch {
					case strings.HasPrefix(href, "#"):
						b.WriteString(`<a href="#` + template.HTMLEscapeString(slug(href[1:])) + `">` + inline(text) + "</a>")
					case strings.HasPrefix(href, "https://"):
						b.WriteString(`<a href="` + template.HTMLEscapeString(href) + `">` + inline(text) + "</a>")
					default:
						b.WriteString(template.HTMLEscapeString(s[:j+2+k+1]))
					}
					s = s[j+2+k+1:]
					continue
				}
			}
			b.WriteString("[")
			s = s[1:]
		default:
			// Plain text up to the next marker, with requirement ids linked to their rows.
			j := strings.IndexAny(s[1:], "`*[")
			if j < 0 {
				j = len(s)
			} else {
				j++
			}
			text := s[:j]
			last := 0
			for _, m := range reqRef.FindAllStringIndex(text, -1) {
				b.WriteString(template.HTMLEscapeString(text[last:m[0]]))
				id := text[m[0]:m[1]]
				b.WriteString(`<a href="#spec-` + id + `">` + id + "</a>")
				last = m[1]
			}
			b.WriteString(template.HTMLEscapeString(text[last:]))
			s = s[j:]
		}
	}
	return b.String()
}

// slug is GitHub's heading anchor: lowercase, punctuation dropped, spaces to hyphens.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ' || r == '-':
			b.WriteRune('-')
		case r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
