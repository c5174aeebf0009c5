package properties

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func prepareProperties() []Property {
	return []Property{
		{Name: "prepare/dedup-order", Area: "prepare", Requirements: []string{"SR-PREP-2", "SR-PREP-3", "SR-PREP-4", "SR-PREP-5", "SR-PREP-6", "SR-PREP-7", "SR-PREP-8"}, check: propPrepareDedup},
		{Name: "prepare/tag-safety", Area: "prepare", Requirements: []string{"SR-PROMPT-1", "SR-PROMPT-2", "SR-PROMPT-5", "SR-PREP-10"}, check: propPrepareTagSafety},
		{Name: "prepare/byte-caps", Area: "prepare", Requirements: []string{"SR-RET-1", "SR-RET-10", "SR-PREP-9"}, check: propPrepareByteCaps},
	}
}

// prepareCase is a generated, well-typed prepare request with what the contract fixes about it.
type prepareCase struct {
	args     *wire.Object
	world    *protocol.World
	agentID  string
	distinct []source // first-mention order, first label kept
	self     bool     // some reference names the agent itself
	maxRefs  int
	budget   int
	content  any
}

// source is one distinct reference of a message: its session id and the first label given.
type source struct{ id, label string }

// genPrepare draws a prepare request whose references are all well typed and which is never
// cancelled, so its outcome is fixed by the contract's rules.
func genPrepare(e *env, t *rapid.T, smallBudget bool) prepareCase {
	w := gen.World(t, "world", e.gen)
	agent := gen.Agent(t, "agent", e.gen)
	agentID, _ := agent.Get("id")
	pc := prepareCase{world: w, agentID: agentID.(string), maxRefs: contract.MaxReferences, budget: contract.DefaultMaxReferenceBytes}
	n := rapid.IntRange(0, 5).Draw(t, "references")
	refs := make([]any, 0, n)
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		var id string
		switch k := rapid.IntRange(0, 9).Draw(t, "which"); {
		case k < 7 && len(w.Sessions) > 0:
			id = rapid.SampledFrom(w.Sessions).Draw(t, "session").Header.ID
		case k == 7 && rapid.IntRange(0, 2).Draw(t, "self?") == 0:
			id = pc.agentID
		default:
			id = gen.ID(t, "id", e.gen)
		}
		ref := wire.NewObject().Set("sessionId", id)
		label := id
		if rapid.Bool().Draw(t, "labelled") {
			label = gen.String(t, "label", e.gen, 4)
			ref.Set("label", label)
		}
		refs = append(refs, ref)
		if id == pc.agentID {
			pc.self = true
		}
		if !seen[id] {
			seen[id] = true
			pc.distinct = append(pc.distinct, source{id: id, label: label})
		}
	}
	pc.content = gen.Content(t, "content", e.gen)
	pc.args = wire.NewObject().Set("world", w.Value()).Set("agent", agent).Set("content", pc.content).Set("references", refs)
	cfg := wire.NewObject()
	if smallBudget || rapid.IntRange(0, 3).Draw(t, "budget?") == 0 {
		pc.budget = rapid.IntRange(1, 1500).Draw(t, "maxReferenceBytes")
		cfg.Set("maxReferenceBytes", float64(pc.budget))
	}
	if rapid.IntRange(0, 3).Draw(t, "maxRefs?") == 0 {
		pc.maxRefs = rapid.IntRange(1, 3).Draw(t, "maxReferences")
		cfg.Set("maxReferences", float64(pc.maxRefs))
	}
	if cfg.Len() > 0 {
		pc.args.Set("config", cfg)
	}
	return pc
}

// readable reports whether every distinct source can be read.
func (pc prepareCase) readable() bool {
	for _, d := range pc.distinct {
		s := pc.world.Find(d.id)
		if s == nil || s.ReadError != nil {
			return false
		}
	}
	return true
}

func (pc prepareCase) distinctIDs() []any {
	out := make([]any, len(pc.distinct))
	for i, d := range pc.distinct {
		out[i] = d.id
	}
	return out
}

// readsOf returns a response's reads: the result's on success, the error object's on failure.
func readsOf(resp protocol.Response) (any, bool) {
	if resp.OK {
		o, ok := resp.Result.(*wire.Object)
		if !ok {
			return nil, false
		}
		return o.Get("reads")
	}
	if resp.Err == nil {
		return nil, false
	}
	return resp.Err.Extra.Get("reads")
}

// propPrepareDedup: a self-reference fails with SESSION_REFERENCE_SELF_REFERENCE and more
// distinct sources than maxReferences with SESSION_REFERENCE_TOO_MANY, both before any read;
// otherwise every distinct source is read exactly once in first-mention order, an unreadable
// one fails the call with SESSION_REFERENCE_READ_FAILED, and the context's sources keep
// first-mention order and the first label given for each id.
func propPrepareDedup(e *env, t *rapid.T) {
	pc := genPrepare(e, t, false)
	resp := e.call(t, protocol.OpPrepare, pc.args)
	code := func() string {
		if resp.OK {
			return "ok"
		}
		if resp.Err == nil || resp.Err.Code == "" {
			return "null"
		}
		return resp.Err.Code
	}()
	wantReads := pc.distinctIDs()
	var wantCode string
	switch {
	case pc.self:
		wantCode, wantReads = contract.SelfReference, []any{}
	case len(pc.distinct) > pc.maxRefs:
		wantCode, wantReads = contract.TooMany, []any{}
	case !pc.readable():
		wantCode = contract.ReadFailed
	}
	if wantCode != "" && code != wantCode {
		e.failf(t, protocol.OpPrepare, pc.args, resp, fmt.Sprintf(`{"code":%q}`, wantCode), "prepare answered %s, want %s", code, wantCode)
	}
	if wantCode == "" && code != "ok" && code != contract.BudgetExceeded {
		e.failf(t, protocol.OpPrepare, pc.args, resp, "a result", "prepare failed with %s on readable sources", code)
	}
	reads, ok := readsOf(resp)
	if !ok {
		e.failf(t, protocol.OpPrepare, pc.args, resp, "reads", "prepare's response has no reads")
	}
	// Reads run concurrently, so the order they reach the query is not compared (SR-PREP-6);
	// that every distinct source is read once, even when one read fails, is.
	if d := compare.ExplainValues(compare.SortedStrings(wantReads), compare.SortedStrings(reads)); d != nil {
		e.fail(t, failure{message: "prepare's reads are not each distinct source once", input: sent(protocol.OpPrepare, pc.args, nil), want: result.JSONOf(wantReads), got: result.JSONOf(reads), diff: d})
	}
	if !resp.OK {
		return
	}
	o, ok := resp.Result.(*wire.Object)
	if !ok {
		e.failf(t, protocol.OpPrepare, pc.args, resp, "an object", "prepare's result is not an object")
	}
	if c, _ := o.Get("content"); compare.ExplainValues(pc.content, c) != nil {
		e.fail(t, failure{message: "prepare did not return the content as given", input: sent(protocol.OpPrepare, pc.args, nil), want: result.JSONOf(pc.content), got: result.JSONOf(c), diff: compare.ExplainValues(pc.content, c)})
	}
	ac, _ := o.Get("additionalContext")
	if len(pc.distinct) == 0 {
		if ac != nil {
			e.failf(t, protocol.OpPrepare, pc.args, resp, `"additionalContext":null`, "prepare made a context for a message without references")
		}
		return
	}
	refs := sourceRefs(ac)
	want := make([]any, len(pc.distinct))
	got := make([]any, len(refs))
	for i, d := range pc.distinct {
		want[i] = wire.NewObject().Set("sessionId", d.id).Set("label", d.label).Set("inputIndex", float64(i))
	}
	for i, r := range refs {
		x := wire.NewObject()
		for _, k := range []string{"sessionId", "label", "inputIndex"} {
			v, _ := r.Get(k)
			x.Set(k, v)
		}
		got[i] = x
	}
	if d := compare.ExplainValues(want, got); d != nil {
		e.fail(t, failure{message: "the context's sources are not the distinct references in first-mention order with their first labels", input: sent(protocol.OpPrepare, pc.args, nil), want: result.JSONOf(want), got: result.JSONOf(got), diff: d})
	}
}

func mustLine(v any) string {
	b, err := wire.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// sourceRefs returns additionalContext.source.references as objects.
func sourceRefs(ac any) []*wire.Object {
	o, _ := ac.(*wire.Object)
	src, _ := o.Get("source")
	so, _ := src.(*wire.Object)
	rv, _ := so.Get("references")
	list, _ := rv.([]any)
	out := make([]*wire.Object, 0, len(list))
	for _, r := range list {
		ro, _ := r.(*wire.Object)
		if ro == nil {
			ro = wire.NewObject()
		}
		out = append(out, ro)
	}
	return out
}

// promptOf returns the context message's one text block.
func promptOf(ac any) (string, bool) {
	o, ok := ac.(*wire.Object)
	if !ok {
		return "", false
	}
	cv, _ := o.Get("content")
	list, _ := cv.([]any)
	if len(list) != 1 {
		return "", false
	}
	b, _ := list[0].(*wire.Object)
	if ty, _ := b.Get("type"); ty != "text" {
		return "", false
	}
	tv, _ := b.Get("text")
	s, ok := tv.(string)
	return s, ok
}

const (
	openTag  = "<referenced-sessions>"
	closeTag = "</referenced-sessions>"
)

// snapshotJSON returns the JSON text between the framing tags, checking the framing: the
// fixed preamble, each tag exactly once, nothing after the closing tag.
func snapshotJSON(prompt string) (string, error) {
	if !strings.HasPrefix(prompt, contract.PromptPrefix) {
		return "", fmt.Errorf("the prompt does not start with the contract's preamble")
	}
	if !strings.HasSuffix(prompt, contract.PromptSuffix) {
		return "", fmt.Errorf("the prompt does not end with %q", contract.PromptSuffix)
	}
	if n := strings.Count(prompt, openTag); n != 1 {
		return "", fmt.Errorf("%s appears %d times", openTag, n)
	}
	if n := strings.Count(prompt, closeTag); n != 1 {
		return "", fmt.Errorf("%s appears %d times", closeTag, n)
	}
	body := prompt[len(contract.PromptPrefix) : len(prompt)-len(contract.PromptSuffix)]
	if i := strings.IndexByte(body, '<'); i >= 0 {
		return "", fmt.Errorf("the snapshot JSON holds a raw '<' at byte %d", i)
	}
	return body, nil
}

// splitArray returns the raw text of each top-level element of a JSON array text.
func splitArray(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, fmt.Errorf("not a JSON array")
	}
	var out []string
	depth, start, inStr := 0, 1, false
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s)-1 {
		out = append(out, s[start:len(s)-1])
	}
	return out, nil
}

// propPrepareTagSafety: the context's prompt is the fixed preamble, then the JSON snapshot
// between the two framing tags, each present exactly once and no raw "<" inside; the JSON
// parses back to one object per source carrying its id, label, the session's cwd and capture
// seq, and a conversation of {role, text} entries, in the order of the source records.
func propPrepareTagSafety(e *env, t *rapid.T) {
	pc := genPrepare(e, t, false)
	resp := e.call(t, protocol.OpPrepare, pc.args)
	if !resp.OK {
		return // the outcome of failures is checked by prepare/dedup-order and agreement
	}
	o, _ := resp.Result.(*wire.Object)
	ac, _ := o.Get("additionalContext")
	if ac == nil {
		return
	}
	prompt, ok := promptOf(ac)
	if !ok {
		e.failf(t, protocol.OpPrepare, pc.args, resp, "one text block", "the context message is not one text block")
	}
	body, err := snapshotJSON(prompt)
	if err != nil {
		e.failf(t, protocol.OpPrepare, pc.args, resp, "a tag-safe prompt", "%v", err)
	}
	v, err := wire.ParseLimited(body, protocol.MaxResponseValues) // the adapter wrote it: bounded as a response is
	if err != nil {
		e.failf(t, protocol.OpPrepare, pc.args, resp, "a JSON array", "the snapshot between the tags is not JSON: %v", err)
	}
	list, ok := v.([]any)
	refs := sourceRefs(ac)
	if !ok || len(list) != len(refs) {
		e.failf(t, protocol.OpPrepare, pc.args, resp, fmt.Sprintf("an array of %d snapshots", len(refs)), "the snapshot is not an array with one object per source")
	}
	for i, x := range list {
		d, _ := x.(*wire.Object)
		if d == nil || strings.Join(d.Keys(), ",") != "sessionId,label,cwd,capturedThroughSeq,conversation" {
			e.failf(t, protocol.OpPrepare, pc.args, resp, "keys sessionId,label,cwd,capturedThroughSeq,conversation", "snapshot %d has other keys", i)
		}
		src := refs[i]
		for _, k := range []string{"sessionId", "label", "capturedThroughSeq"} {
			a, _ := d.Get(k)
			b, _ := src.Get(k)
			if compare.ExplainValues(a, b) != nil {
				e.failf(t, protocol.OpPrepare, pc.args, resp, mustLine(b), "snapshot %d's %s is %s, its source record says %s", i, k, mustLine(a), mustLine(b))
			}
		}
		id, _ := d.Get("sessionId")
		sid, _ := id.(string)
		s := pc.world.Find(sid)
		if s == nil {
			e.failf(t, protocol.OpPrepare, pc.args, resp, "a referenced session", "snapshot %d names no session of the world", i)
		}
		var wantCWD any
		if s.Header.CWD != nil {
			wantCWD = *s.Header.CWD
		}
		var wantSeq any
		if s.Surface != nil && s.Surface.CapturedThroughSeq != nil {
			wantSeq = *s.Surface.CapturedThroughSeq
		}
		cwd, _ := d.Get("cwd")
		seq, _ := d.Get("capturedThroughSeq")
		if compare.ExplainValues(wantCWD, cwd) != nil || compare.ExplainValues(wantSeq, seq) != nil {
			e.failf(t, protocol.OpPrepare, pc.args, resp, fmt.Sprintf("cwd %s, capturedThroughSeq %s", mustLine(wantCWD), mustLine(wantSeq)), "snapshot %d's cwd or capturedThroughSeq is not the session's", i)
		}
		cv, _ := d.Get("conversation")
		conv, ok := cv.([]any)
		if !ok {
			e.failf(t, protocol.OpPrepare, pc.args, resp, "a conversation array", "snapshot %d has no conversation array", i)
		}
		for j, m := range conv {
			mo, _ := m.(*wire.Object)
			role, _ := mo.Get("role")
			text, _ := mo.Get("text")
			_, isText := text.(string)
			if mo == nil || strings.Join(mo.Keys(), ",") != "role,text" || (role != "user" && role != "assistant") || !isText {
				e.failf(t, protocol.OpPrepare, pc.args, resp, `{"role":"user"|"assistant","text":…}`, "snapshot %d message %d is not a {role, text} entry", i, j)
			}
		}
	}
}

// propPrepareByteCaps: with small budgets, every serialized snapshot object is at most
// maxReferenceBytes of UTF-8, or the call fails with SESSION_REFERENCE_BUDGET_EXCEEDED, which
// it must when a source's fixed fields alone exceed the budget; each source's retention
// stats add up (original = retained + omitted, retained = the entries kept, truncated exactly
// when messages or bytes were omitted).
func propPrepareByteCaps(e *env, t *rapid.T) {
	pc := genPrepare(e, t, true)
	resp := e.call(t, protocol.OpPrepare, pc.args)
	if pc.self || len(pc.distinct) > pc.maxRefs || !pc.readable() || len(pc.distinct) == 0 {
		return // outcomes fixed before any byte is counted: prepare/dedup-order
	}
	tooBig := -1
	for i, d := range pc.distinct {
		if fixedSize(pc.world, d) > pc.budget {
			tooBig = i
			break
		}
	}
	if !resp.OK {
		if resp.Err == nil || resp.Err.Code != contract.BudgetExceeded {
			e.failf(t, protocol.OpPrepare, pc.args, resp, "a result or SESSION_REFERENCE_BUDGET_EXCEEDED", "prepare failed with %s", errText(resp.Err))
		}
		return
	}
	if tooBig >= 0 {
		e.failf(t, protocol.OpPrepare, pc.args, resp, `{"code":"SESSION_REFERENCE_BUDGET_EXCEEDED"}`, "source %d's fixed fields exceed maxReferenceBytes %d, yet prepare succeeded", tooBig, pc.budget)
	}
	o, _ := resp.Result.(*wire.Object)
	ac, _ := o.Get("additionalContext")
	prompt, ok := promptOf(ac)
	if !ok {
		e.failf(t, protocol.OpPrepare, pc.args, resp, "a context message", "no context message for readable references")
	}
	body, err := snapshotJSON(prompt)
	if err != nil {
		e.failf(t, protocol.OpPrepare, pc.args, resp, "a tag-safe prompt", "%v", err)
	}
	elems, err := splitArray(body)
	refs := sourceRefs(ac)
	if err != nil || len(elems) != len(refs) {
		e.failf(t, protocol.OpPrepare, pc.args, resp, "one snapshot per source", "the snapshot array does not match the sources")
	}
	for i, el := range elems {
		if len(el) > pc.budget {
			e.failf(t, protocol.OpPrepare, pc.args, resp, fmt.Sprintf("at most %d bytes", pc.budget), "snapshot %d is %d bytes, over maxReferenceBytes %d", i, len(el), pc.budget)
		}
		v, _ := wire.Parse(el)
		d, _ := v.(*wire.Object)
		cv, _ := d.Get("conversation")
		conv, _ := cv.([]any)
		st := stats(refs[i])
		if st.original != st.retained+st.omitted || st.retained != len(conv) || st.truncated != (st.omitted > 0 || st.omittedBytes > 0) || st.omittedBytes < 0 {
			e.failf(t, protocol.OpPrepare, pc.args, resp, "consistent retention stats", "source %d's stats do not add up: %+v with %d entries kept", i, st, len(conv))
		}
	}
}

type retentionStats struct {
	original, retained, omitted, omittedBytes int
	truncated                                 bool
}

func stats(o *wire.Object) retentionStats {
	num := func(k string) int { v, _ := o.Get(k); f, _ := v.(float64); return int(f) }
	tr, _ := o.Get("truncated")
	b, _ := tr.(bool)
	return retentionStats{original: num("originalMessages"), retained: num("retainedMessages"), omitted: num("omittedMessages"), omittedBytes: num("omittedBytes"), truncated: b}
}

// fixedSize is the serialized size of a source's snapshot with an empty conversation: the
// least any conformant implementation can emit for it.
func fixedSize(w *protocol.World, d source) int {
	s := w.Find(d.id)
	b := []byte(`{"sessionId":`)
	b = contract.AppendTagSafe(b, d.id)
	b = append(b, `,"label":`...)
	b = contract.AppendTagSafe(b, d.label)
	b = append(b, `,"cwd":`...)
	if s.Header.CWD == nil {
		b = append(b, "null"...)
	} else {
		b = contract.AppendTagSafe(b, *s.Header.CWD)
	}
	b = append(b, `,"capturedThroughSeq":`...)
	if s.Surface == nil || s.Surface.CapturedThroughSeq == nil {
		b = append(b, "null"...)
	} else {
		b = wire.AppendNumber(b, *s.Surface.CapturedThroughSeq)
	}
	return len(b) + len(`,"conversation":[]}`)
}
