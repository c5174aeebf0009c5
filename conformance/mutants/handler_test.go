package mutants

import (
	"context"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
)

// tooManyEarly is a protocol-level mutant (the Go API cannot pass a malformed reference):
// its normalization fails with SESSION_REFERENCE_TOO_MANY as soon as the distinct count
// passes maxReferences, before the later references are validated (SR-PREP-4, SR-ERR-3).
type tooManyEarly struct{ refadapter.Reference }

func (h *tooManyEarly) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op != protocol.OpPrepare {
		return h.Reference.Handle(ctx, req)
	}
	args := refadapter.ToReference(req.Args).(*jsjson.Object) // the port reads the reference's values
	maxRefs := service.MaxReferences
	if cv, ok := args.Get("config"); ok {
		c, isObj := cv.(*jsjson.Object)
		if !isObj {
			return h.Reference.Handle(ctx, req)
		}
		if m, ok := c.Get("maxReferences"); ok && m != nil {
			n, ok := service.SafeInteger(m)
			if !ok || n < 1 || n > service.MaxReferences {
				return h.Reference.Handle(ctx, req)
			}
			maxRefs = n
		}
	}
	var agentID any
	if a, ok := args.Get("agent"); ok {
		if o, ok := a.(*jsjson.Object); ok {
			agentID, _ = o.Get("id")
		}
	}
	refs, _ := args.Get("references")
	list, _ := refs.([]any)
	seen := map[string]bool{}
	for _, e := range list {
		o, ok := e.(*jsjson.Object)
		if !ok {
			break
		}
		idv, _ := o.Get("sessionId")
		id, ok := idv.(string)
		if !ok || id == agentID {
			break
		}
		if lv, ok := o.Get("label"); ok {
			if _, isString := lv.(string); !isString {
				break
			}
		}
		seen[id] = true
		if len(seen) > maxRefs { // MUTANT: the count checked inside the loop
			return protocol.Response{ID: req.ID, Err: &protocol.Error{
				Code: string(errcode.TooMany), Message: "too many references",
				Extra: wire.NewObject().Set("reads", []any{}),
			}}
		}
	}
	return h.Reference.Handle(ctx, req)
}

// queryTypeAfterList is a protocol-level mutant (the Go API's query is a string): it lists
// the sessions before it looks at the query's type, as a port that lowercases the query only
// where it filters does (SR-CAND-11, SR-ERR-4). A query that is not a string then lists once
// where the contract lists nothing, and an abort before the call is reported as cancelled.
type queryTypeAfterList struct{ refadapter.Reference }

func (h *queryTypeAfterList) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	q, given := req.Args.Get("query")
	if _, isString := q.(string); req.Op != protocol.OpCandidates || !given || isString {
		return h.Reference.Handle(ctx, req)
	}
	args := wire.NewObject()
	for _, k := range req.Args.Keys() {
		if k != "query" {
			v, _ := req.Args.Get(k)
			args.Set(k, v)
		}
	}
	resp := h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: req.Op, Args: args})
	if !resp.OK {
		return resp
	}
	return protocol.Response{ID: req.ID, Err: &protocol.Error{ // MUTANT: the query's type, after the listing
		Message: "query.toLocaleLowerCase is not a function", Extra: wire.NewObject().Set("lists", float64(1)),
	}}
}
