package report

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// Group is checks that failed (or errored) for one cause: the same first difference (its
// path and the shape of the two values: strings stand for any string, error codes and other
// literals are kept), or, for a check without both answers, the same message with its
// values left out; an adapter that stopped answering fails every check not sent for one
// reason. One missing check in a port fails tens of checks this way: they are one group.
type Group struct {
	Status result.Status
	// Cause is the shared first difference or message, as its Example has it.
	Cause string
	// Cases are the group's checks in run order; Example is the smallest of them (the
	// shortest input, then answers).
	Cases   []result.Case
	Example result.Case
}

// Groups returns the failures and errors of the report grouped by cause, failures first,
// each kind in the order of its first check.
func (r *Report) Groups() []Group {
	var out []Group
	for _, st := range []result.Status{result.Fail, result.Error} {
		at := map[string]int{}
		var gs []Group
		for _, cs := range r.Cases {
			if cs.Status != st {
				continue
			}
			k, cause := groupKey(cs)
			i, ok := at[k]
			if !ok {
				i = len(gs)
				at[k] = i
				gs = append(gs, Group{Status: st, Cause: cause})
			}
			gs[i].Cases = append(gs[i].Cases, cs)
		}
		for i := range gs {
			gs[i].Example = smallest(gs[i].Cases)
			gs[i].Cause = causeOf(gs[i].Example)
		}
		out = append(out, gs...)
	}
	return out
}

var (
	// a JSON string that is not an object key and not an error code
	// (or one clipped: "abc… (126 more bytes))
	jsonString = regexp.MustCompile(`"(?:[^"\\…]|\\.)*(?:… \(\d+ more bytes\)|"(\s*:)?)`)
	errorCode  = regexp.MustCompile(`^"[A-Z][A-Z0-9_]*"$`)
	// what a message quotes of an answer or request
	quotedValue = regexp.MustCompile(`: [{\[].*$| \(reproduce with [^)]*\)|\d+`)
	// how an error names the op it was sent for, and the ways a given-up adapter fails
	notSent = regexp.MustCompile(`^(adapter [a-z.]+: )?(not sent: |not run: adapter unusable: )`)
	opName  = regexp.MustCompile(`^adapter [a-z.]+: `)
)

// groupKey returns the key of cs's cause and the cause as shown.
func groupKey(cs result.Case) (key, cause string) {
	if cs.Status == result.Error {
		m := cs.Message
		if notSent.MatchString(m) {
			// The reason is the run's (the verdict says it): named once, not per op.
			return "not-sent " + notSent.ReplaceAllString(m, ""), givenUp
		}
		return cs.Area + " " + opName.ReplaceAllString(m, ""), m
	}
	if d := cs.Diff; d != nil {
		return cs.Area + " diff " + shape(d.First), d.First
	}
	return cs.Area + " msg " + shape(quotedValue.ReplaceAllString(cs.Message, "")), cs.Message
}

// givenUp is the cause shown for the checks not sent once the adapter was given up on.
const givenUp = "not run: the adapter was given up on (the last line says why)"

// givenUpMarkdown is givenUp in the Markdown summary, whose verdict is its heading.
const givenUpMarkdown = "not run: the adapter was given up on (the heading says why)"

func causeOf(cs result.Case) string {
	if cs.Status == result.Error && notSent.MatchString(cs.Message) {
		return givenUp
	}
	if cs.Status == result.Fail {
		if d := cs.Diff; d != nil {
			return d.First
		}
	}
	return cs.Message
}

// shape replaces the string values of a first difference by "…", keeping object keys and
// error codes: two checks that differ the same way on different inputs then share it.
func shape(s string) string {
	return jsonString.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasSuffix(strings.TrimSpace(m), ":") || errorCode.MatchString(m) {
			return m
		}
		return `"…"`
	})
}

func smallest(cs []result.Case) result.Case {
	best := cs[0]
	for _, c := range cs[1:] {
		a, b := c.Input.Len(), best.Input.Len()
		if a < b || a == b && c.Want.Len()+c.Got.Len() < best.Want.Len()+best.Got.Len() {
			best = c
		}
	}
	return best
}

// writeGroups writes the failures and errors grouped by cause (Groups): a group of one as
// the check in full, a larger one as its cause and count, the requirements and traps its
// checks name, its smallest example without the line diff (the first difference says it),
// and the others by name. Fixture bugs follow, as writeFailures writes them.
func (r *Report) writeGroups(b *strings.Builder) {
	for _, g := range r.Groups() {
		b.WriteString("\n")
		r.writeGroup(b, g)
	}
	if r.Totals.Fail+r.Totals.Error > 0 {
		b.WriteString("  (-v shows every failure in full)\n")
	}
	r.writeFixtureBugs(b)
}

// groupTitle is the first line writeGroup writes for a group of more than one check.
func groupTitle(g Group) string {
	label := map[result.Status]string{result.Fail: "FAIL", result.Error: "ERROR"}[g.Status]
	return fmt.Sprintf("%s %d checks, one cause: %s", label, len(g.Cases), Terminal(clip(g.Cause, 400)))
}

// writeGroup writes one group as writeGroups does; the text and Markdown reports share it.
func (r *Report) writeGroup(b *strings.Builder, g Group) {
	if len(g.Cases) == 1 {
		writeCase(b, g.Example, r.Rerun(g.Example))
		return
	}
	b.WriteString(groupTitle(g) + "\n")
	if g.Status == result.Error {
		fmt.Fprintf(b, "  e.g.   %s %s\n", g.Example.Part, Terminal(g.Example.Name))
		fmt.Fprintf(b, "  rerun: %s\n", r.Rerun(g.Example))
		return
	}
	ex := g.Example
	if l := tally(g.Cases, func(c result.Case) []string { return c.Requirements }); l != "" {
		fmt.Fprintf(b, "  requirements: %s\n", l)
	}
	if l := tally(g.Cases, func(c result.Case) []string { return c.Traps }); l != "" {
		fmt.Fprintf(b, "  traps: %s\n", l)
	}
	for _, h := range groupHints(g.Cases, 2) {
		fmt.Fprintf(b, "  trap:  %s\n", Terminal(h))
	}
	fmt.Fprintf(b, "  smallest: %s %s: %s\n", ex.Part, Terminal(ex.Name), Terminal(clip(ex.Message, 300)))
	var e strings.Builder
	ex.Requirements, ex.Traps, ex.TrapHints = nil, nil, nil
	writeCase(&e, ex, r.Rerun(ex))
	for i, l := range strings.Split(strings.TrimRight(e.String(), "\n"), "\n") {
		if i == 0 || strings.HasPrefix(l, "  diff (- want, + got)") || strings.HasPrefix(l, "    ") {
			continue // the title is above; the line diff is in -v and the JSON report
		}
		b.WriteString("  " + l + "\n")
	}
	var others []string
	for _, c := range g.Cases {
		if c.Part != ex.Part || c.Name != ex.Name {
			others = append(others, c.Part+"/"+Terminal(c.Name))
		}
	}
	fmt.Fprintf(b, "  and %d more: %s\n", len(others), names(others, 160))
}

// groupHints are a group's likeliest trap hints, at most limit: each check's first (its
// likeliest, as addTrapHints ranks them), the most frequent first. The ids alone ("traps:
// TRAP-JSON-ESCAPES (2)") sent a reader to the catalogue; the hint says what the trap
// looks like, as a single failure's "trap:" line does.
func groupHints(cs []result.Case, limit int) []string {
	n := map[string]int{}
	var hints []string
	for _, c := range cs {
		if len(c.TrapHints) == 0 {
			continue
		}
		if n[c.TrapHints[0]] == 0 {
			hints = append(hints, c.TrapHints[0])
		}
		n[c.TrapHints[0]]++
	}
	sort.SliceStable(hints, func(i, j int) bool { return n[hints[i]] > n[hints[j]] })
	return hints[:min(len(hints), limit)]
}

// tally lists the values f gives the cases, each with how many cases give it when not all
// do, most frequent first: "SR-URI-6 (12), SR-URI-5 (8)".
func tally(cs []result.Case, f func(result.Case) []string) string {
	n := map[string]int{}
	var keys []string
	for _, c := range cs {
		for _, v := range f(c) {
			if n[v] == 0 {
				keys = append(keys, v)
			}
			n[v]++
		}
	}
	sort.SliceStable(keys, func(i, j int) bool { return n[keys[i]] > n[keys[j]] })
	var parts []string
	for _, k := range keys {
		if n[k] == len(cs) {
			parts = append(parts, k)
		} else {
			parts = append(parts, fmt.Sprintf("%s (%d)", k, n[k]))
		}
	}
	return clip(strings.Join(parts, ", "), 300)
}

// writeFixtureBugs writes the fixture bugs as writeFailures does.
func (r *Report) writeFixtureBugs(b *strings.Builder) {
	seen := map[string]int{}
	var order []string
	for _, cs := range r.Cases {
		if cs.Status != result.FixtureBug {
			continue
		}
		if seen[cs.Message] == 0 {
			order = append(order, cs.Message)
		}
		if seen[cs.Message]++; seen[cs.Message] <= maxSameMessage {
			b.WriteString("\n")
			writeCase(b, cs, r.Rerun(cs))
		}
	}
	for _, msg := range order {
		if n := seen[msg]; n > maxSameMessage {
			fmt.Fprintf(b, "\n…and %d more %s cases with: %s\n", n-maxSameMessage, result.FixtureBug, msg)
		}
	}
}

// names joins names with commas up to about n bytes, then says how many are left out.
func names(ns []string, n int) string {
	var b strings.Builder
	for i, s := range ns {
		if i > 0 && b.Len()+len(s) > n {
			fmt.Fprintf(&b, ", … %d more", len(ns)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	return b.String()
}
