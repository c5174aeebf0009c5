package properties

import (
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func candidateProperties() []Property {
	return []Property{
		{Name: "candidates/ranking-and-limit", Area: "candidates", Requirements: []string{"SR-CAND-1", "SR-CAND-2", "SR-CAND-3", "SR-CAND-5", "SR-CAND-8", "SR-CAND-9", "SR-CAND-12"}, check: propCandidates},
	}
}

// candidateModel is what the contract says a candidate list is, computed from the world:
// every listed session but the agent's own, matching the query, ranked same-cwd, then
// cwd-less, then other-cwd, listing order kept within a rank, at most limit of them, each
// labelled with its readable title or else its id. Whether a session matches a non-empty
// query (a case-insensitive substring of its id, cwd or label, by the contract's
// toLowerCase) is matches' to say: the kit states the ranking, limit and labels itself and
// keeps no Unicode case tables of its own.
func candidateModel(w *protocol.World, agentID string, agentCWD *string, query string, limit int, matches func(s protocol.Session, label string) bool) []*wire.Object {
	type rec struct {
		s     protocol.Session
		rank  int
		label string
	}
	var recs []rec
	for _, s := range w.Sessions {
		if s.Header.ID == agentID {
			continue
		}
		r := rec{s: s, label: s.Header.ID}
		if s.TitleError == nil && s.Title != nil {
			r.label = *s.Title
		}
		switch c := s.Header.CWD; {
		case c != nil && agentCWD != nil && *c == *agentCWD:
			r.rank = 0
		case c == nil:
			r.rank = 1
		default:
			r.rank = 2
		}
		if query != "" && !matches(s, r.label) {
			continue
		}
		recs = append(recs, r)
	}
	slices.SortStableFunc(recs, func(a, b rec) int { return a.rank - b.rank })
	recs = recs[:min(limit, len(recs))]
	out := make([]*wire.Object, len(recs))
	for i, r := range recs {
		o := wire.NewObject().Set("sessionId", r.s.Header.ID).Set("label", r.label)
		if r.s.Header.CWD != nil {
			o.Set("cwd", *r.s.Header.CWD)
		}
		out[i] = o.Set("createdAt", r.s.Header.CreatedAt)
	}
	return out
}

// matcher returns the oracle's answer to whether a session, labelled label, matches query:
// the contract's candidates over a world of that session alone, titled label, for an agent
// of another id, list it exactly when it matches (SR-CAND-8).
func (e *env) matcher(query string) func(s protocol.Session, label string) bool {
	return func(s protocol.Session, label string) bool {
		one := &protocol.World{Sessions: []protocol.Session{{Header: s.Header, Title: &label}}}
		args := wire.NewObject().Set("world", one.Value()).
			Set("agent", wire.NewObject().Set("id", "agent of "+s.Header.ID)).Set("query", query)
		resp := e.reference(protocol.OpCandidates, args)
		if o, ok := resp.Result.(*wire.Object); resp.OK && ok {
			if cv, _ := o.Get("candidates"); cv != nil {
				if list, ok := cv.([]any); ok && len(list) <= 1 {
					return len(list) == 1
				}
			}
		}
		e.oracleFailed(protocol.OpCandidates, args, resp)
		return false
	}
}

// propCandidates: over worlds without listing failures and well-typed arguments, the
// candidates are exactly the model's (membership, ranking, order within a rank, limit,
// labels, cwd and createdAt), and every title read names a listed session other than the
// agent's own, at most once.
func propCandidates(e *env, t *rapid.T) {
	w := gen.World(t, "world", e.gen)
	w.ListError = nil
	agent := gen.Agent(t, "agent", e.gen)
	args := wire.NewObject().Set("world", w.Value()).Set("agent", agent)
	query := ""
	if rapid.IntRange(0, 2).Draw(t, "query?") > 0 {
		q := gen.Query(t, "query", w, e.gen)
		s, ok := q.(string)
		if !ok {
			s = ""
		}
		query = s
		args.Set("query", query)
	}
	limit := contract.DefaultCandidateLimit
	if rapid.Bool().Draw(t, "limit?") {
		limit = rapid.IntRange(1, 7).Draw(t, "limit")
		args.Set("limit", float64(limit))
	} else if rapid.IntRange(0, 3).Draw(t, "config?") == 0 {
		limit = rapid.IntRange(1, 7).Draw(t, "candidateLimit")
		args.Set("config", wire.NewObject().Set("candidateLimit", float64(limit)))
	}
	agentID, _ := agent.Get("id")
	var agentCWD *string
	if c, ok := agent.Get("cwd"); ok {
		s := c.(string)
		agentCWD = &s
	}
	model := candidateModel(w, agentID.(string), agentCWD, query, limit, e.matcher(query))
	want := make([]any, len(model))
	for i, m := range model {
		want[i] = m
	}
	wantObj := wire.NewObject().Set("candidates", want)
	wantLine, _ := wire.Marshal(wantObj)

	resp := e.call(t, protocol.OpCandidates, args)
	o, ok := resp.Result.(*wire.Object)
	if !resp.OK || !ok {
		e.failf(t, protocol.OpCandidates, args, resp, string(wantLine), "candidates failed on a well-formed request")
	}
	cv, _ := o.Get("candidates")
	got, _ := cv.([]any)
	if len(got) > limit {
		e.failf(t, protocol.OpCandidates, args, resp, string(wantLine), "%d candidates exceed the limit %d", len(got), limit)
	}
	gotObj := wire.NewObject().Set("candidates", got)
	if d := compare.ExplainValues(wantObj, gotObj); d != nil {
		e.fail(t, failure{message: "candidates differ from the contract's ranking, limit or labels", input: sent(protocol.OpCandidates, args, nil), want: result.JSONOf(wantObj), got: result.JSONOf(gotObj), diff: d})
	}
	tv, _ := o.Get("titleReads")
	reads, ok := tv.([]any)
	if !ok {
		e.failf(t, protocol.OpCandidates, args, resp, string(wantLine), "titleReads is not an array")
	}
	seen := map[string]bool{}
	for _, r := range reads {
		id, ok := r.(string)
		if !ok || seen[id] || id == agentID || w.Find(id) == nil {
			e.failf(t, protocol.OpCandidates, args, resp, "title reads of distinct listed sessions", "title read %s is repeated, the agent's own, or not a listed session", fmt.Sprint(r))
		}
		seen[id] = true
	}
}
