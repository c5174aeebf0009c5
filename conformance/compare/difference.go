package compare

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Difference is how a check's expected and actual answers differ, language-neutrally: both
// as canonical JSON (Canonical) of the compared outcome, a line diff of the two, and the
// first difference by JSON path. It is the kit's one diff: the parts record it when a check
// fails, and every report, diff and bench show it.
type Difference struct {
	Want  string `json:"want"`  // canonical JSON of the expected outcome
	Got   string `json:"got"`   // canonical JSON of the actual outcome
	Lines string `json:"lines"` // a line diff of Want and Got: "- " only in want, "+ " only in got
	First string `json:"first"` // "$.result.text: want "a", got "b""
}

// String is the first difference, then the line diff: "" for a nil Difference.
func (d *Difference) String() string {
	if d == nil {
		return ""
	}
	return "first difference: " + d.First + "\n" + d.Lines
}

// Explain returns how got differs from want, nil when they agree (Agree). Each is shown as
// the kit compares it: without the id, an error's message left out, a prepare's reads in
// order; an answer received with numbers a double cannot hold (Response.Received) is shown
// with those numbers as they were written.
func Explain(want, got protocol.Response) *Difference {
	if Agree(want, got) {
		return nil
	}
	return explain(shown(want), shown(got))
}

// ExplainValues returns how two JSON values differ, nil when they are equal JSON values
// (object key order aside).
func ExplainValues(want, got any) *Difference {
	if samePlain(Plain(want), Plain(got)) {
		return nil
	}
	return explain(Unplain(want), Unplain(got))
}

// Unplain turns Plain's maps back into objects, keys sorted: the JSON value Plain was given,
// up to key order.
func Unplain(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Unplain(e)
		}
		return out
	case map[string]any:
		out := wire.NewObject()
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out.Set(k, Unplain(x[k]))
		}
		return out
	}
	return v
}

func explain(w, g any) *Difference {
	d := &Difference{Want: Canonical(w), Got: Canonical(g)}
	d.Lines = lineDiff(d.Want, d.Got)
	if d.First = firstDiff("$", w, g, true, true); d.First == "" {
		// Values that differ where their JSON is alike: strings with bytes that are not WTF-8.
		d.First = "$: the values differ in bytes that are not UTF-8, which JSON writes alike"
	}
	return d
}

// shown is the JSON value of r as a diff shows it (see Explain).
func shown(r protocol.Response) any {
	var v any = r.Value()
	if r.Received != "" {
		if x, err := wire.ParseExact(r.Received); err == nil {
			v = x
		}
	}
	return outcome(v)
}

// outcome returns the part of a response object the kit compares: without its id and its
// error's message, a prepare's reads sorted. Other values are returned as they are.
func outcome(v any) any {
	o, ok := v.(*wire.Object)
	if !ok || !o.Has("ok") {
		return v
	}
	out := wire.NewObject()
	for k, e := range o.All() {
		switch k {
		case "id":
			continue
		case "error":
			if eo, ok := e.(*wire.Object); ok {
				c := wire.NewObject()
				for k, e := range eo.All() {
					if k != "message" {
						c.Set(k, e)
					}
				}
				e = sortedReads(c)
			}
		case "result":
			e = sortedReads(e)
		}
		out.Set(k, e)
	}
	return out
}

// sortedReads returns an object with its "reads" sorted, when they are all strings.
func sortedReads(v any) any {
	o, ok := v.(*wire.Object)
	if !ok {
		return v
	}
	r, _ := o.Get("reads")
	list, ok := r.([]any)
	if !ok {
		return v
	}
	for _, e := range list {
		if _, ok := e.(string); !ok {
			return v
		}
	}
	sorted := slices.Clone(list)
	slices.SortStableFunc(sorted, func(a, b any) int { return strings.Compare(wire.Quote(a.(string)), wire.Quote(b.(string))) })
	c := wire.NewObject()
	for k, e := range o.All() {
		c.Set(k, e)
	}
	return c.Set("reads", sorted)
}

// Canonical writes a JSON value as canonical JSON, for people and diffs: object keys sorted
// by their JSON text, two-space indent (at most 32 levels of it), one scalar or bracket per
// line; a wire.Number as written.
func Canonical(v any) string {
	var b strings.Builder
	writeCanon(&b, v, "", "")
	return b.String()
}

func writeCanon(b *strings.Builder, v any, indent, prefix string) {
	b.WriteString(indent + prefix)
	switch x := v.(type) {
	case *wire.Object:
		keys := sortedKeys(x)
		if len(keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range keys {
			e, _ := x.Get(k)
			writeCanon(b, e, deeper(indent), wire.Quote(k)+": ")
			if i < len(keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			writeCanon(b, e, deeper(indent), "")
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	default:
		b.WriteString(compact(v))
	}
}

// maxIndent bounds the indentation (32 levels): deeper values are indented as the 32nd, so
// the text of a value nested n deep is O(n), not O(n²). An adapter's answer nested 9,990
// deep (within the wire's limit) made 100 MB of spaces per failed check, and a run of
// 145 checks took 2.6 GB and its whole deadline.
const maxIndent = 64

func deeper(indent string) string {
	if len(indent) >= maxIndent {
		return indent
	}
	return indent + "  "
}

// sortedKeys are o's keys in the order of their JSON texts.
func sortedKeys(o *wire.Object) []string {
	keys := o.Keys()
	slices.SortStableFunc(keys, func(a, b string) int { return strings.Compare(wire.Quote(a), wire.Quote(b)) })
	return keys
}

// compact is v's JSON text, keys in their order; Go's print of a value JSON cannot hold.
func compact(v any) string {
	b, err := wire.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// kind is a JSON value's kind for firstDiff: object, array, string, number or literal.
func kind(v any) byte {
	switch v.(type) {
	case *wire.Object:
		return 'o'
	case []any:
		return 'a'
	case string:
		return 's'
	case float64, wire.Number:
		return 'n'
	}
	return 'l'
}

// firstDiff names the first place, in canonical order, where w and g differ, as a
// JSONPath-like location and both values there ("$.result.text: want "a", got "b""); ""
// when they are equal. hasW and hasG say whether each side has a value at path.
func firstDiff(path string, w, g any, hasW, hasG bool) string {
	short := func(v any, has bool) string {
		if !has {
			return "nothing"
		}
		return clip(compact(v), 120)
	}
	if !hasW || !hasG || kind(w) != kind(g) {
		if !hasW && !hasG {
			return ""
		}
		return fmt.Sprintf("%s: want %s, got %s", path, short(w, hasW), short(g, hasG))
	}
	switch x := w.(type) {
	case *wire.Object:
		y := g.(*wire.Object)
		for _, k := range sortedKeys(x) {
			we, _ := x.Get(k)
			ge, ok := y.Get(k)
			if d := firstDiff(path+keyName(k), we, ge, true, ok); d != "" {
				return d
			}
		}
		for _, k := range sortedKeys(y) {
			if !x.Has(k) {
				ge, _ := y.Get(k)
				return fmt.Sprintf("%s%s: want nothing, got %s", path, keyName(k), short(ge, true))
			}
		}
		return ""
	case []any:
		y := g.([]any)
		for i := 0; i < len(x) || i < len(y); i++ {
			var we, ge any
			if i < len(x) {
				we = x[i]
			}
			if i < len(y) {
				ge = y[i]
			}
			if d := firstDiff(fmt.Sprintf("%s[%d]", path, i), we, ge, i < len(x), i < len(y)); d != "" {
				return d
			}
		}
		return ""
	}
	if compact(w) != compact(g) {
		return fmt.Sprintf("%s: want %s, got %s", path, short(w, true), short(g, true))
	}
	return ""
}

// keyName writes an object key as a path step: .name for a plain identifier, else ["key"].
func keyName(k string) string {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return "[" + wire.Quote(k) + "]"
		}
	}
	if k == "" {
		return `[""]`
	}
	return "." + k
}

// clip keeps a value named in a first difference short.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d more bytes)", len(s)-n)
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
		out.WriteString(map[byte]string{' ': "  ", '-': "- ", '+': "+ "}[o.c] + o.line + "\n")
	}
	return out.String()
}
