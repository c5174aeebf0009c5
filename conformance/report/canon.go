package report

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// jv is a parsed JSON value that keeps every scalar's text as written: a string's escapes
// (lone surrogates as \udXXX) and a number's digits survive a round trip byte for byte, which
// Go's encoding/json would not promise (it replaces lone surrogates and rounds numbers).
type jv struct {
	kind  byte   // 'o' object, 'a' array, 's' string, 'n' number, 'l' literal (true false null)
	raw   string // the scalar's JSON text; for 's' with its quotes
	keys  []string
	vals  []*jv          // object values (beside keys) or array elements
	index map[string]int // key -> index in vals, built by find for a large object
}

func (v *jv) get(key string) *jv {
	if v == nil || v.kind != 'o' {
		return nil
	}
	if i, ok := v.find(key); ok {
		return v.vals[i]
	}
	return nil
}

// find returns the index of key's value, its last one if the key repeats (as JSON.parse and
// encoding/json take it). Most objects have a few keys, scanned; a larger one gets a map,
// built on its first lookup, so that no lookup costs more than a map's.
func (v *jv) find(key string) (int, bool) {
	if len(v.keys) <= 8 {
		for i := len(v.keys) - 1; i >= 0; i-- {
			if v.keys[i] == key {
				return i, true
			}
		}
		return -1, false
	}
	if v.index == nil {
		v.index = make(map[string]int, len(v.keys))
		for i, k := range v.keys {
			v.index[k] = i
		}
	}
	i, ok := v.index[key]
	return i, ok
}

func (v *jv) del(key string) {
	i, ok := v.find(key)
	if !ok {
		return
	}
	v.keys = append(v.keys[:i:i], v.keys[i+1:]...)
	v.vals = append(v.vals[:i:i], v.vals[i+1:]...)
	v.index = nil // find rebuilds it
}

// maxJSONDepth bounds nesting, so a hostile answer cannot exhaust the stack.
const maxJSONDepth = 200

// parseJSON parses one JSON text; trailing text other than whitespace is an error.
func parseJSON(s string) (*jv, error) {
	p := &jparser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("json: text after the value at offset %d", p.i)
	}
	return v, nil
}

type jparser struct {
	s string
	i int
}

var errJSON = errors.New("json: syntax error")

func (p *jparser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *jparser) value(depth int) (*jv, error) {
	if depth > maxJSONDepth {
		return nil, errors.New("json: nested too deeply")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errJSON
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		v := &jv{kind: 'o'}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return v, nil
		}
		for {
			p.space()
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, errJSON
			}
			p.i++
			e, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.keys, v.vals = append(v.keys, k), append(v.vals, e)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return v, nil
			}
			return nil, errJSON
		}
	case c == '[':
		p.i++
		v := &jv{kind: 'a'}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return v, nil
		}
		for {
			e, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, e)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return v, nil
			}
			return nil, errJSON
		}
	case c == '"':
		start := p.i
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &jv{kind: 's', raw: p.s[start:p.i]}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.i
		for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[p.i]) >= 0 {
			p.i++
		}
		raw := p.s[start:p.i]
		if _, err := strconv.ParseFloat(raw, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, errJSON
		}
		return &jv{kind: 'n', raw: raw}, nil
	default:
		for _, w := range []string{"true", "false", "null"} {
			if strings.HasPrefix(p.s[p.i:], w) {
				p.i += len(w)
				return &jv{kind: 'l', raw: w}, nil
			}
		}
	}
	return nil, errJSON
}

// str reads a string token and returns its raw text (quotes included), checking escapes and
// rejecting raw controls, as JSON does.
func (p *jparser) str() (string, error) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", errJSON
	}
	start := p.i
	p.i++
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return p.s[start:p.i], nil
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", errJSON
			}
			switch p.s[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if p.i+6 > len(p.s) {
					return "", errJSON
				}
				if _, err := strconv.ParseUint(p.s[p.i+2:p.i+6], 16, 16); err != nil {
					return "", errJSON
				}
				p.i += 6
			default:
				return "", errJSON
			}
		case c < 0x20:
			return "", errJSON
		default:
			p.i++
		}
	}
	return "", errJSON
}

// canonical writes v as canonical JSON for people and diffs: object keys sorted by their
// JSON text, two-space indent, one scalar or bracket per line; scalars as written.
func canonical(v *jv) string {
	var b strings.Builder
	writeCanon(&b, v, "", "")
	return b.String()
}

func writeCanon(b *strings.Builder, v *jv, indent, prefix string) {
	b.WriteString(indent + prefix)
	switch v.kind {
	case 'o':
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		order := sortedKeys(v)
		for n, i := range order {
			writeCanon(b, v.vals[i], indent+"  ", v.keys[i]+": ")
			if n < len(order)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case 'a':
		if len(v.vals) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range v.vals {
			writeCanon(b, e, indent+"  ", "")
			if i < len(v.vals)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	default:
		b.WriteString(v.raw)
	}
}

func sortedKeys(v *jv) []int {
	order := make([]int, len(v.keys))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return v.keys[order[a]] < v.keys[order[b]] })
	return order
}

// compact writes v as JSON text without whitespace, keys in their original order.
func compact(b *strings.Builder, v *jv) {
	switch v.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(k + ":")
			compact(b, v.vals[i])
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, e := range v.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			compact(b, e)
		}
		b.WriteByte(']')
	default:
		b.WriteString(v.raw)
	}
}

func compactString(v *jv) string {
	var b strings.Builder
	compact(&b, v)
	return b.String()
}

// outcome returns the part of a protocol response the kit compares (conformance/compare): the
// id is the transport's, an error's message is implementation-defined, and a prepare's reads
// are a multiset (SR-PREP-6), so they are sorted. Other values are returned as they are.
func outcome(v *jv) *jv {
	if v == nil || v.kind != 'o' || v.get(`"ok"`) == nil {
		return v
	}
	out := &jv{kind: 'o'}
	for i, k := range v.keys {
		if k == `"id"` {
			continue
		}
		e := v.vals[i]
		if k == `"error"` && e.kind == 'o' {
			c := &jv{kind: 'o', keys: append([]string(nil), e.keys...), vals: append([]*jv(nil), e.vals...)}
			c.del(`"message"`)
			e = sortReads(c)
		}
		if k == `"result"` {
			e = sortReads(e)
		}
		out.keys, out.vals = append(out.keys, k), append(out.vals, e)
	}
	return out
}

func sortReads(v *jv) *jv {
	r := v.get("\"reads\"")
	if r == nil || r.kind != 'a' {
		return v
	}
	for _, e := range r.vals {
		if e.kind != 's' {
			return v
		}
	}
	sorted := &jv{kind: 'a', vals: append([]*jv(nil), r.vals...)}
	sort.SliceStable(sorted.vals, func(a, b int) bool { return sorted.vals[a].raw < sorted.vals[b].raw })
	c := &jv{kind: 'o', keys: append([]string(nil), v.keys...), vals: append([]*jv(nil), v.vals...)}
	i, _ := v.find(`"reads"`)
	c.vals[i] = sorted
	return c
}

// firstDifference names the first place, in canonical order, where want and got differ, as a
// JSONPath-like location and both values there ("$.result.text: want "a", got "b""); "" when
// they are equal.
func firstDifference(want, got *jv) string {
	return firstDiff("$", want, got)
}

func firstDiff(path string, w, g *jv) string {
	short := func(v *jv) string {
		if v == nil {
			return "nothing"
		}
		return clip(compactString(v), 120)
	}
	if w == nil || g == nil || w.kind != g.kind {
		if w == nil && g == nil {
			return ""
		}
		return fmt.Sprintf("%s: want %s, got %s", path, short(w), short(g))
	}
	switch w.kind {
	case 'o':
		seen := map[string]bool{}
		for _, i := range sortedKeys(w) {
			k := w.keys[i]
			seen[k] = true
			if d := firstDiff(path+keyName(k), w.vals[i], g.get(k)); d != "" {
				return d
			}
		}
		for _, i := range sortedKeys(g) {
			if k := g.keys[i]; !seen[k] {
				return fmt.Sprintf("%s%s: want nothing, got %s", path, keyName(k), short(g.vals[i]))
			}
		}
		return ""
	case 'a':
		for i := 0; i < len(w.vals) || i < len(g.vals); i++ {
			var we, ge *jv
			if i < len(w.vals) {
				we = w.vals[i]
			}
			if i < len(g.vals) {
				ge = g.vals[i]
			}
			if d := firstDiff(fmt.Sprintf("%s[%d]", path, i), we, ge); d != "" {
				return d
			}
		}
		return ""
	}
	if w.raw != g.raw {
		return fmt.Sprintf("%s: want %s, got %s", path, short(w), short(g))
	}
	return ""
}

// keyName writes an object key as a path step: .name for a plain identifier, else ["key"].
func keyName(raw string) string {
	k := raw[1 : len(raw)-1]
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return "[" + raw + "]"
		}
	}
	if k == "" {
		return "[" + raw + "]"
	}
	return "." + k
}

// maxDiffLines bounds the line diff's quadratic table; longer texts are diffed by their
// common prefix and suffix only.
const maxDiffLines = 1000

// lineDiff returns a line diff of a and b: unchanged lines start with two spaces, removed
// ones (only in a) with "- ", added ones (only in b) with "+ "; runs of unchanged lines far
// from a change are elided to "@@ …". Its output depends on a and b alone: it is the longest
// common subsequence with ties broken the same way every time. "" when a == b.
func lineDiff(a, b string) string {
	if a == b {
		return ""
	}
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	// Common prefix and suffix first: cheap, and keeps the table small.
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	type op struct {
		c    byte
		line string
	}
	var ops []op
	for _, l := range x[:pre] {
		ops = append(ops, op{' ', l})
	}
	if len(mx) > maxDiffLines || len(my) > maxDiffLines {
		for _, l := range mx {
			ops = append(ops, op{'-', l})
		}
		for _, l := range my {
			ops = append(ops, op{'+', l})
		}
	} else {
		// lcs[i][j] is the LCS length of mx[i:] and my[j:].
		n, m := len(mx), len(my)
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if mx[i] == my[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && mx[i] == my[j]:
				ops = append(ops, op{' ', mx[i]})
				i, j = i+1, j+1
			case j >= m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{'-', mx[i]})
				i++
			default:
				ops = append(ops, op{'+', my[j]})
				j++
			}
		}
	}
	for _, l := range x[len(x)-suf:] {
		ops = append(ops, op{' ', l})
	}
	const context = 3
	near := make([]bool, len(ops))
	for i, o := range ops {
		if o.c != ' ' {
			for k := max(0, i-context); k <= min(len(ops)-1, i+context); k++ {
				near[k] = true
			}
		}
	}
	var out strings.Builder
	elided := false
	for i, o := range ops {
		if !near[i] {
			if !elided {
				out.WriteString("@@ …\n")
				elided = true
			}
			continue
		}
		elided = false
		switch o.c {
		case ' ':
			out.WriteString("  ")
		case '-':
			out.WriteString("- ")
		default:
			out.WriteString("+ ")
		}
		out.WriteString(o.line + "\n")
	}
	return out.String()
}

// Difference is how a check's expected and actual answers differ, language-neutrally: both
// as canonical JSON (keys sorted, two-space indent) of the compared outcome, a line diff of
// the two, and the first difference by JSON path.
type Difference struct {
	Want  string `json:"want"`  // canonical JSON of the expected outcome
	Got   string `json:"got"`   // canonical JSON of the actual outcome
	Lines string `json:"lines"` // lineDiff(Want, Got): "- " only in want, "+ " only in got
	First string `json:"first"` // "$.result.text: want "a", got "b""
}

// Diff compares want and got, two JSON texts (protocol responses, or plain values), as the
// kit compares them: for responses, the id, an error's message and the order of a prepare's
// reads are left out. ok is false when either is missing or not JSON, or they agree.
func Diff(want, got string) (d Difference, ok bool) {
	if want == "" || got == "" {
		return d, false
	}
	w, err := parseJSON(want)
	if err != nil {
		return d, false
	}
	g, err := parseJSON(got)
	if err != nil {
		return d, false
	}
	w, g = outcome(w), outcome(g)
	d.Want, d.Got = canonical(w), canonical(g)
	if d.Want == d.Got {
		return Difference{}, false
	}
	d.Lines = lineDiff(d.Want, d.Got)
	d.First = firstDifference(w, g)
	return d, true
}

// Canonical returns JSON text as canonical JSON: object keys sorted, two-space indent,
// scalars as written. ok is false when s is not one JSON value.
func Canonical(s string) (string, bool) {
	v, err := parseJSON(s)
	if err != nil {
		return "", false
	}
	return canonical(v), true
}
