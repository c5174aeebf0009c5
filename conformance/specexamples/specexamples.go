// Package specexamples reads the examples of the kit's specifications (spec/*.md) and runs
// them against an implementation, so every example the spec shows is a check, as the
// examples of CommonMark's spec.txt are its test suite.
//
// An example is a fenced code block whose info string starts with the word example:
//
//	```example op=mention.parse
//	{"text": "see @[A](dsh-session:ImEi)"}
//	→ {"result": {"text": "see @A", "references": [{"sessionId": "a", "label": "A"}]}}
//	```
//
// The block holds the op's arguments as one JSON text, then a line starting with → and the
// expected outcome, one JSON text in the form of a fixture's want (spec/fixtures.md):
// {"result": V}, {"error": CODE} (null for an error without a contract code), or
// {"error": CODE, "reads": [ids]}. The info string's attributes:
//
//   - op=OP (required): the protocol op;
//   - profile=P[,P]: the contract releases the example holds in (default: every release);
//   - subset: compare the result as a subset: an object of the expected value matches an
//     object that has at least its keys (each value matching), arrays match element by
//     element with equal lengths, and a string starting with … matches any string ending with
//     the rest (so an example need not repeat the prompt's fixed prefix);
//   - req=SR-…: the requirement the example illustrates, when it is not the one whose bullet
//     the block follows.
//
// The JSON is read as JSON.parse reads it (package jsjson), so \udXXX escapes stay lone
// surrogates.
package specexamples

import (
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Files are the spec files that hold examples, in the spec folder.
var Files = []string{"session-reference.md", "protocol.md"}

// Profiles are the contract releases an example without a profile attribute holds in.
var Profiles = []string{cases.Profile001, cases.Profile010}

// Arrow starts the line of an example that holds its expected outcome.
const Arrow = "→"

// Example is one example block of a spec file.
type Example struct {
	File        string // spec file name, e.g. "session-reference.md"
	Line        int    // line of the opening fence, 1-based
	N           int    // the example's number in its file, from 1
	Requirement string // the requirement it illustrates, or ""
	Op          string
	Profiles    []string // the releases it holds in
	Subset      bool
	Args        *wire.Object
	Want        cases.Want
	Source      string // the block's text between the fences, indentation removed
}

// Name is the example's name in test output: "session-reference.md/12 (SR-MENTION-8)".
func (e Example) Name() string {
	n := fmt.Sprintf("%s/%d", strings.TrimSuffix(e.File, ".md"), e.N)
	if e.Requirement != "" {
		n += "_" + e.Requirement
	}
	return n
}

// String locates the example for a reader: "session-reference.md:120 (example 12)".
func (e Example) String() string { return fmt.Sprintf("%s:%d (example %d)", e.File, e.Line, e.N) }

// AppliesTo reports whether the example holds in profile.
func (e Example) AppliesTo(profile string) bool {
	return slices.Contains(e.Profiles, cases.NormalizeProfile(profile))
}

// Features returns the adapter features the example needs (host for host.send,
// lone-surrogates for a string with a lone surrogate).
func (e Example) Features() []string {
	f := cases.File{Op: e.Op}
	return f.Features(cases.Case{Args: e.Args, Want: e.Want})
}

var (
	fenceOpen  = regexp.MustCompile("^( *)(```+)example(?:[ \t]+(.*))?$")
	reqLine    = regexp.MustCompile(`^- \*\*(SR-[A-Z]+-[0-9]+)\*\*`)
	reqID      = regexp.MustCompile(`^SR-[A-Z]+-[0-9]+$`)
	knownOps   = []string{protocol.OpURIEncode, protocol.OpURIDecode, protocol.OpMentionFormat, protocol.OpMentionParse, protocol.OpConfig, protocol.OpCandidates, protocol.OpPrepare, protocol.OpHostSend}
	knownCodes = []string{"SESSION_REFERENCE_INVALID_CONFIG", "SESSION_REFERENCE_INVALID_REFERENCE", "SESSION_REFERENCE_SELF_REFERENCE", "SESSION_REFERENCE_TOO_MANY", "SESSION_REFERENCE_READ_FAILED", "SESSION_REFERENCE_BUDGET_EXCEEDED", "SESSION_REFERENCE_CANCELLED", protocol.CodeProtocol}
)

// Load reads the examples of every file of Files in the spec folder fsys.
func Load(fsys fs.FS) ([]Example, error) {
	var out []Example
	for _, name := range Files {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ex, err := Parse(name, data)
		if err != nil {
			return nil, err
		}
		out = append(out, ex...)
	}
	return out, nil
}

// Parse reads the example blocks of one Markdown file. A block that does not hold an
// example of the form above is an error, never skipped.
func Parse(name string, data []byte) ([]Example, error) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var out []Example
	req := ""
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := reqLine.FindStringSubmatch(line); m != nil {
			req = m[1]
			continue
		}
		if strings.HasPrefix(line, "#") {
			req = ""
			continue
		}
		m := fenceOpen.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		indent, fence := m[1], m[2]
		start := i + 1
		var body []string
		closed := false
		for i++; i < len(lines); i++ {
			l := lines[i]
			if t := strings.TrimLeft(l, " "); strings.HasPrefix(t, fence) && strings.TrimRight(t, "`") == "" && strings.TrimSpace(t) == strings.TrimRight(t, " ") {
				closed = true
				break
			}
			body = append(body, strings.TrimPrefix(l, indent))
		}
		if !closed {
			return nil, fmt.Errorf("%s:%d: example block is not closed", name, start)
		}
		e, err := parseExample(m[3], strings.Join(body, "\n"))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, start, err)
		}
		e.File, e.Line, e.N = name, start, len(out)+1
		if e.Requirement == "" {
			e.Requirement = req
		}
		out = append(out, e)
	}
	return out, nil
}

func parseExample(info, body string) (Example, error) {
	e := Example{Source: body}
	for _, attr := range strings.Fields(info) {
		k, v, _ := strings.Cut(attr, "=")
		switch k {
		case "op":
			if !slices.Contains(knownOps, v) {
				return e, fmt.Errorf("unknown op %q", v)
			}
			e.Op = v
		case "profile":
			for _, p := range strings.Split(v, ",") {
				p = cases.NormalizeProfile(p)
				if !slices.Contains(Profiles, p) {
					return e, fmt.Errorf("unknown profile %q", p)
				}
				e.Profiles = append(e.Profiles, p)
			}
		case "subset":
			e.Subset = true
		case "req":
			if !reqID.MatchString(v) {
				return e, fmt.Errorf("req=%q is not a requirement id", v)
			}
			e.Requirement = v
		default:
			return e, fmt.Errorf("unknown attribute %q", attr)
		}
	}
	if e.Op == "" {
		return e, fmt.Errorf("example has no op=")
	}
	if e.Profiles == nil {
		e.Profiles = slices.Clone(Profiles)
	}
	args, want, ok := cutArrow(body)
	if !ok {
		return e, fmt.Errorf("example has no line starting with %s", Arrow)
	}
	av, err := wire.Parse(args)
	if err != nil {
		return e, fmt.Errorf("arguments: %v", err)
	}
	if e.Args, ok = av.(*wire.Object); !ok {
		return e, fmt.Errorf("arguments are not a JSON object")
	}
	wv, err := wire.Parse(want)
	if err != nil {
		return e, fmt.Errorf("expected outcome: %v", err)
	}
	if e.Want, err = parseWant(wv); err != nil {
		return e, err
	}
	if e.Subset && !e.Want.OK {
		return e, fmt.Errorf("subset applies to a result, not an error")
	}
	return e, nil
}

// cutArrow splits a body at its first line that starts with the arrow.
func cutArrow(body string) (args, want string, ok bool) {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, Arrow) {
			rest := append([]string{strings.TrimPrefix(l, Arrow)}, lines[i+1:]...)
			return strings.Join(lines[:i], "\n"), strings.Join(rest, "\n"), true
		}
	}
	return "", "", false
}

func parseWant(v any) (cases.Want, error) {
	var w cases.Want
	o, ok := v.(*wire.Object)
	if !ok {
		return w, fmt.Errorf("expected outcome is not a JSON object")
	}
	for _, k := range o.Keys() {
		if k != "result" && k != "error" && k != "reads" {
			return w, fmt.Errorf("expected outcome: unknown key %q", k)
		}
	}
	res, hasResult := o.Get("result")
	code, hasError := o.Get("error")
	if hasResult == hasError {
		return w, fmt.Errorf("expected outcome needs exactly one of result and error")
	}
	if hasResult {
		if o.Has("reads") {
			return w, fmt.Errorf("reads goes with error; a result holds its own reads")
		}
		return cases.Want{OK: true, Result: res}, nil
	}
	switch c := code.(type) {
	case nil:
	case string:
		if !slices.Contains(knownCodes, c) {
			return w, fmt.Errorf("unknown error code %q", c)
		}
		w.Code = c
	default:
		return w, fmt.Errorf("error is neither a code nor null")
	}
	if r, ok := o.Get("reads"); ok {
		if w.Reads, ok = r.([]any); !ok {
			return w, fmt.Errorf("reads is not a list")
		}
		w.HasReads = true
	}
	return w, nil
}

// Check compares an implementation's response with the example's expected outcome. It returns
// "" when they agree, else what differs.
func (e Example) Check(got protocol.Response) string {
	if !e.Subset || !got.OK {
		return e.Want.Explain(got).String()
	}
	var b strings.Builder
	matchSubset(&b, "result", compare.Plain(e.Want.Result), compare.Plain(got.Result))
	if b.Len() == 0 {
		return ""
	}
	line, _ := got.Line()
	return b.String() + "got " + string(line)
}

func matchSubset(b *strings.Builder, at string, want, got any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			fmt.Fprintf(b, "%s: want an object, got %s\n", at, jsonText(got))
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				fmt.Fprintf(b, "%s.%s: missing\n", at, k)
				continue
			}
			if at == "result" && k == "reads" {
				matchSubset(b, at+"."+k, compare.SortedStrings(w[k]), compare.SortedStrings(gv))
				continue
			}
			matchSubset(b, at+"."+k, w[k], gv)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			fmt.Fprintf(b, "%s: want %d elements, got %s\n", at, len(w), jsonText(got))
			return
		}
		for i := range w {
			matchSubset(b, fmt.Sprintf("%s[%d]", at, i), w[i], g[i])
		}
	case string:
		g, ok := got.(string)
		if suffix, cut := strings.CutPrefix(w, "…"); cut && ok {
			if !strings.HasSuffix(g, suffix) {
				fmt.Fprintf(b, "%s: want a string ending in %s, got %s\n", at, jsonText(suffix), jsonText(g))
			}
			return
		}
		if !ok || g != w {
			fmt.Fprintf(b, "%s: want %s, got %s\n", at, jsonText(w), jsonText(got))
		}
	default:
		if fmt.Sprint(want) != fmt.Sprint(got) || (want == nil) != (got == nil) {
			fmt.Fprintf(b, "%s: want %s, got %s\n", at, jsonText(want), jsonText(got))
		}
	}
}

func jsonText(v any) string {
	data, err := wire.Marshal(toJS(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// toJS turns compare.Plain's maps back into objects (keys sorted) for printing.
func toJS(v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := wire.NewObject()
		for _, k := range keys {
			o.Set(k, toJS(x[k]))
		}
		return o
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toJS(e)
		}
		return out
	}
	return v
}

// Run sends the example's request to c and checks the answer. It returns skip, a reason the
// example was not run (the adapter lacks a feature it needs), or fail, what went wrong; both
// are "" when the example holds.
func (e Example) Run(ctx context.Context, c *adapter.Client) (skip, fail string) {
	for _, f := range e.Features() {
		if !c.Supports(f) {
			return "the adapter does not declare feature " + f, ""
		}
	}
	resp, err := c.Do(ctx, e.Op, e.Args)
	if err != nil {
		return "", err.Error()
	}
	if adapter.Unsupported(resp) {
		return "", adapter.UnsupportedReason(e.Op, resp)
	}
	if d := e.Check(resp); d != "" {
		req := protocol.Request{Op: e.Op, Args: e.Args}
		return "", fmt.Sprintf("%s does not hold\nrequest %s\n%s", e, req.Line(), d)
	}
	return "", ""
}

// ByRequirement groups examples by the requirement they illustrate.
func ByRequirement(ex []Example) map[string][]Example {
	out := map[string][]Example{}
	for _, e := range ex {
		if e.Requirement != "" {
			out[e.Requirement] = append(out[e.Requirement], e)
		}
	}
	return out
}
