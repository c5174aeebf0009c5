package mutants

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// normalize is the seed's normalizeReferences over typed references (Go's types already make
// every element an object with a string sessionId and an optional string label).
func (s *portService) normalize(agentID string, refs []service.Input) ([]service.Normalized, error) {
	self := func() error {
		return errcode.New(errcode.SelfReference, "session "+jsjson.Quote(agentID)+" cannot reference itself")
	}
	index := map[string]int{}
	var out []service.Normalized
	for _, r := range refs {
		if s.p.k.trap.idEqual(r.SessionID, agentID) && !s.p.k.selfAfterCount {
			return nil, self()
		}
		label := r.SessionID
		if r.Label != nil {
			label = *r.Label
		}
		key := r.SessionID
		if s.p.k.trap.canonicalEqual {
			key = nfc(key) // MUTANT: canonically equivalent ids are one
		}
		if s.p.k.trap.foldIDs {
			key = foldKey(key) // MUTANT: ids that differ in case are one
		}
		if s.p.k.trap.lossyEqual {
			key = jsstring.ToWellFormed(key) // MUTANT: a HashSet of lossy Strings
		}
		if i, ok := index[key]; ok {
			if s.p.k.dedupLast {
				out[i].Label = label // MUTANT: the last occurrence's label wins
			}
			continue
		}
		index[key] = len(out)
		out = append(out, service.Normalized{SessionID: r.SessionID, Label: label})
	}
	if s.p.k.trap.hashOrder {
		hashOrder(out) // MUTANT: a hash set's iteration order
	}
	if len(out) > s.cfg.MaxReferences {
		return nil, errcode.New(errcode.TooMany, fmt.Sprintf("a message may reference at most %d sessions", s.cfg.MaxReferences))
	}
	if s.p.k.selfAfterCount {
		for _, n := range out { // MUTANT: self-reference checked after dedup and the count
			if n.SessionID == agentID {
				return nil, self()
			}
		}
	}
	return out, nil
}

// prepare is the seed's prepare, ported.
func (s *portService) prepare(ctx context.Context, agent service.Agent, content any, refs []service.Input) (*service.Prepared, error) {
	accepted := jsjson.Clone(content)
	if s.p.k.cancelFirst && len(refs) > 0 && ctx.Err() != nil {
		return nil, cancelled(ctx.Err()) // MUTANT: cancellation before the references are checked
	}
	inputs, err := s.normalize(agent.ID, refs)
	if err != nil {
		return nil, err
	}
	if len(inputs) == 0 {
		return &service.Prepared{Content: accepted}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	var surfaces []sessionquery.Surface
	var readErrs []error
	if s.p.k.readFailureAtRender {
		surfaces, readErrs, err = s.readAllSettled(ctx, inputs) // MUTANT: failures kept for the render loop
	} else {
		surfaces, err = s.readAll(ctx, inputs)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, cancelled(ctx.Err())
		}
		var ce *errcode.Error
		if errors.As(err, &ce) && ce.Code == errcode.Cancelled {
			return nil, err
		}
		return nil, errcode.Wrap(errcode.ReadFailed, "failed to read referenced session: "+err.Error(), err)
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	project := func(i int) ([]retention.Item, error) {
		events := surfaces[i].Events
		if s.p.k.projectToolResults { // MUTANT projectToolResults: a tool result is a user turn
			events = toolResultsAsUserMessages(events)
		}
		if s.p.k.skipChunks { // MUTANT skipChunks: "unfinished assistant chunks are excluded"
			events = withoutChunks(events)
		}
		items, err := retention.Project(events)
		if s.p.k.blankSkipped && err == nil {
			kept := items[:0:0]
			for _, it := range items {
				if strings.TrimSpace(it.Text) != "" { // MUTANT: blank messages taken as empty
					kept = append(kept, it)
				}
			}
			items = kept
		}
		return items, err
	}
	projected := make([][]retention.Item, len(inputs))
	if s.p.k.projectAllFirst {
		for i := range inputs { // MUTANT: every source projected before any budget is checked
			if readErrs == nil || readErrs[i] == nil {
				if projected[i], err = project(i); err != nil {
					return nil, err
				}
			}
		}
	}
	var datas []any
	var srcRefs []service.SourceReference
	for i, in := range inputs {
		if readErrs != nil && readErrs[i] != nil { // MUTANT readFailureAtRender: after the earlier sources' budgets
			return nil, errcode.Wrap(errcode.ReadFailed, "failed to read referenced session: "+readErrs[i].Error(), readErrs[i])
		}
		items := projected[i]
		if !s.p.k.projectAllFirst {
			if items, err = project(i); err != nil {
				return nil, err
			}
		}
		d, st, ok := s.retain(surfaces[i], in.Label, items)
		if !ok {
			return nil, errcode.New(errcode.BudgetExceeded, "referenced session snapshot cannot fit the configured byte budget")
		}
		datas = append(datas, dataValue(d, s.p.k))
		srcRefs = append(srcRefs, service.SourceReference{SessionID: d.SessionID, Label: d.Label, CapturedThroughSeq: d.CapturedThroughSeq, Stats: st, InputIndex: i})
	}
	body, err := snapshotJSON(datas, s.p.k)
	if err != nil {
		return nil, err
	}
	if !s.p.k.noLtEscape { // MUTANT noLtEscape: the prompt keeps `<`
		body = strings.ReplaceAll(body, "<", `\u003c`)
	}
	text := jsstring.Normalize(service.PromptPrefix + body + service.PromptSuffix)
	var b [16]byte
	_, _ = rand.Read(b[:])
	msg := &service.Message{Source: service.Source{References: srcRefs}, Text: text, ID: fmt.Sprintf("%x", b)}
	return &service.Prepared{Content: accepted, Context: msg}, nil
}

// toolResultsAsUserMessages turns each tool/result event into the user message it carries,
// its source taken as the user's: a port that treats a tool's answer as a conversation turn.
func toolResultsAsUserMessages(events []any) []any {
	out := make([]any, len(events))
	for i, ev := range events {
		out[i] = ev
		o, ok := ev.(*jsjson.Object)
		if typ, _ := o.Get("type"); !ok || typ != "tool/result" {
			continue
		}
		d, _ := o.Get("data")
		do, _ := d.(*jsjson.Object)
		if do == nil {
			continue
		}
		m, _ := do.Get("message")
		mo, _ := m.(*jsjson.Object)
		if mo == nil {
			continue
		}
		msg := jsjson.Clone(mo).(*jsjson.Object).Set("source", jsjson.NewObject().Set("kind", "user"))
		seq, _ := o.Get("seq")
		out[i] = jsjson.NewObject().Set("type", "user/message").Set("seq", seq).Set("data", msg)
	}
	return out
}

// dataValue is the snapshot object {sessionId, label, cwd, capturedThroughSeq, conversation}.
func dataValue(d retention.Data, k knobs) *jsjson.Object {
	conv := make([]any, len(d.Conversation))
	for i, m := range d.Conversation {
		conv[i] = jsjson.NewObject().Set("role", string(m.Role)).Set("text", m.Text)
	}
	o := jsjson.NewObject().Set("sessionId", d.SessionID).Set("label", d.Label)
	if cwd := k.trap.cwd(d.CWD); cwd != nil {
		o.Set("cwd", *cwd)
	} else {
		o.Set("cwd", nil)
	}
	if d.CapturedThroughSeq != nil && k.trap.number != nil {
		// MUTANT: the number formatted by a language's writer, marked as goNumbers does
		o.Set("capturedThroughSeq", "\ufdd0"+k.trap.number(*d.CapturedThroughSeq)+"\ufdd1")
	} else if d.CapturedThroughSeq != nil && k.goNumbers {
		// MUTANT goNumbers: the number formatted by Go, marked here and put in by snapshotJSON
		o.Set("capturedThroughSeq", "\ufdd0"+strconv.FormatFloat(*d.CapturedThroughSeq, 'g', -1, 64)+"\ufdd1")
	} else if d.CapturedThroughSeq != nil {
		o.Set("capturedThroughSeq", *d.CapturedThroughSeq)
	} else {
		o.Set("capturedThroughSeq", nil)
	}
	return o.Set("conversation", conv)
}

// goNumber is a number marked by dataValue for the goNumbers mutant.
var goNumber = regexp.MustCompile("\"\ufdd0([^\"\ufdd1]*)\ufdd1\"")

// snapshotJSON is JSON.stringify of snapshot values.
func snapshotJSON(v any, k knobs) (string, error) {
	var j []byte
	var err error
	if f := k.trap.jsonValue; f != nil {
		j, err = f(v) // MUTANT: a language's JSON writer
	} else {
		j, err = jsjson.Marshal(v)
	}
	if err != nil {
		return "", err
	}
	if k.goNumbers || k.trap.number != nil {
		return goNumber.ReplaceAllString(string(j), "$1"), nil
	}
	return string(j), nil
}

// readAllSettled reads every source concurrently and waits for them all, keeping each
// read's failure beside its surface (Promise.allSettled) instead of failing at the first.
func (s *portService) readAllSettled(ctx context.Context, inputs []service.Normalized) ([]sessionquery.Surface, []error, error) {
	out, errs := make([]sessionquery.Surface, len(inputs)), make([]error, len(inputs))
	done := make(chan struct{}, len(inputs))
	for i, in := range inputs {
		go func() {
			out[i], errs[i] = s.q.ReadSurface(ctx, in.SessionID)
			done <- struct{}{}
		}()
	}
	for range inputs {
		select {
		case <-done:
		case <-ctx.Done():
			return nil, nil, cancelled(ctx.Err())
		}
	}
	return out, errs, nil
}

// readAll is Promise.all over the surface reads.
func (s *portService) readAll(ctx context.Context, inputs []service.Normalized) ([]sessionquery.Surface, error) {
	out := make([]sessionquery.Surface, len(inputs))
	if s.p.k.sequentialReads {
		for i, in := range inputs { // MUTANT: one read after the other, stopping at a failure
			surf, err := await(ctx, func(ctx context.Context) (sessionquery.Surface, error) { return s.q.ReadSurface(ctx, in.SessionID) })
			if err != nil {
				return nil, err
			}
			out[i] = surf
		}
		return out, nil
	}
	type result struct {
		i   int
		s   sessionquery.Surface
		err error
	}
	ch := make(chan result, len(inputs))
	for i, in := range inputs {
		go func() {
			surf, err := s.q.ReadSurface(ctx, in.SessionID)
			ch <- result{i, surf, err}
		}()
	}
	for range inputs {
		select {
		case r := <-ch:
			if r.err != nil {
				return nil, r.err
			}
			out[r.i] = r.s
		case <-ctx.Done():
			return nil, cancelled(ctx.Err())
		}
	}
	return out, nil
}
