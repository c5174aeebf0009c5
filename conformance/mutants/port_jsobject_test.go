package mutants

import (
	"cmp"
	"context"
	"slices"
	"strconv"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// TypeScript ports that keep ids or copy objects in plain JavaScript objects where the seed
// uses a Set and structuredClone (TRAP-ORDER-HASH-ITERATION, TRAP-TYPE-PROTOTYPE-KEYS). They
// are protocol-level: what they get wrong is a property of JavaScript objects, which the Go
// API's types do not have, so each rewrites the request as that port would see it and lets
// the reference answer.
func jsObjectMutants() []mutant {
	return []mutant{
		{name: "trap/ts-object-values-dedup", mistake: "TypeScript dedup into a plain object read back with Object.values: integer-like ids first, in numeric order", handler: &objectValuesDedup{}},
		{name: "trap/ts-in-object-dedup", mistake: "TypeScript dedup with `id in seen` on a plain object: a source named toString, constructor, __proto__ … is skipped as already seen", handler: &protoInDedup{}},
		{name: "trap/ts-for-in-deep-copy", mistake: "TypeScript deep copy of the content by for…in assignment: every \"__proto__\" key dropped", handler: &forInCopy{}},
	}
}

// objectPrototypeKeys are the names `key in {}` is true for (Object.prototype's properties).
var objectPrototypeKeys = []string{
	"constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__",
	"__lookupSetter__", "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf",
	"__proto__", "toLocaleString",
}

// wellFormedRefs returns prepare's references when every one has the shape the seed accepts
// (an object, a string sessionId, a label absent or a string); ok is false otherwise, and the
// mutants leave such a request to the reference, whose answer a port with the mistake shares.
func wellFormedRefs(req protocol.Request) (refs []*wire.Object, ok bool) {
	if req.Op != protocol.OpPrepare {
		return nil, false
	}
	v, _ := req.Args.Get("references")
	list, isList := v.([]any)
	if !isList {
		return nil, false
	}
	for _, e := range list {
		r, isObj := e.(*wire.Object)
		if !isObj || r == nil {
			return nil, false
		}
		if id, _ := r.Get("sessionId"); !isString(id) {
			return nil, false
		}
		if l, given := r.Get("label"); given && !isString(l) {
			return nil, false
		}
		refs = append(refs, r)
	}
	return refs, true
}

func isString(v any) bool { _, ok := v.(string); return ok }

func refID(r *wire.Object) string { v, _ := r.Get("sessionId"); return v.(string) }

// withArg is req with args[key] replaced by v, the other keys in their order.
func withArg(req protocol.Request, key string, v any) protocol.Request {
	args := wire.NewObject()
	for _, k := range req.Args.Keys() {
		x, _ := req.Args.Get(k)
		if k == key {
			x = v
		}
		args.Set(k, x)
	}
	return protocol.Request{ID: req.ID, Op: req.Op, Args: args}
}

// isArrayIndex reports whether s is a key JavaScript orders first in an object: the canonical
// decimal form of an integer from 0 to 2^32 − 2.
func isArrayIndex(s string) (uint64, bool) {
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil && n < 1<<32-1 && strconv.FormatUint(n, 10) == s
}

// objectValuesDedup dedups into `const seen: Record<string, Reference> = {}` and returns
// Object.values(seen): the first mention of each id, array-index ids first in ascending
// numeric order, then the rest in mention order.
type objectValuesDedup struct{ refadapter.Reference }

func (h *objectValuesDedup) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	refs, ok := wellFormedRefs(req)
	if !ok {
		return h.Reference.Handle(ctx, req)
	}
	var firsts []*wire.Object
	seen := map[string]bool{}
	for _, r := range refs {
		if id := refID(r); !seen[id] {
			seen[id] = true
			firsts = append(firsts, r)
		}
	}
	slices.SortStableFunc(firsts, func(a, b *wire.Object) int { // MUTANT: Object.values order
		na, ia := isArrayIndex(refID(a))
		nb, ib := isArrayIndex(refID(b))
		switch {
		case ia && ib:
			return cmp.Compare(na, nb)
		case ia:
			return -1
		case ib:
			return 1
		}
		return 0
	})
	list := make([]any, len(firsts))
	for i, r := range firsts {
		list[i] = r
	}
	return h.Reference.Handle(ctx, withArg(req, "references", list))
}

// protoInDedup dedups with `if (id in seen) continue; seen[id] = true` on `{}`: a reference
// to a session named after a property of Object.prototype is taken as seen and skipped, after
// its shape and self checks, so it is neither read nor counted.
type protoInDedup struct{ refadapter.Reference }

func (h *protoInDedup) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	refs, ok := wellFormedRefs(req)
	if !ok {
		return h.Reference.Handle(ctx, req)
	}
	var agentID any
	if a, given := req.Args.Get("agent"); given {
		if o, isObj := a.(*wire.Object); isObj && o != nil {
			agentID, _ = o.Get("id")
		}
	}
	var kept []any
	for _, r := range refs {
		if id := refID(r); id != agentID && slices.Contains(objectPrototypeKeys, id) {
			continue // MUTANT: `id in seen` is true for an inherited name
		}
		kept = append(kept, r)
	}
	if len(kept) == len(refs) {
		return h.Reference.Handle(ctx, req)
	}
	if kept == nil {
		kept = []any{}
	}
	return h.Reference.Handle(ctx, withArg(req, "references", kept))
}

// forInCopy copies the content with `for (const k in v) out[k] = copy(v[k])`: assigning
// out["__proto__"] sets the copy's prototype, so no such key survives, at any depth.
type forInCopy struct{ refadapter.Reference }

func (h *forInCopy) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	content, given := req.Args.Get("content")
	if req.Op != protocol.OpPrepare || !given {
		return h.Reference.Handle(ctx, req)
	}
	return h.Reference.Handle(ctx, withArg(req, "content", dropProtoKeys(content)))
}

func dropProtoKeys(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropProtoKeys(e)
		}
		return out
	case *wire.Object:
		if x == nil {
			return x
		}
		out := wire.NewObject()
		for _, k := range x.Keys() {
			if k == "__proto__" {
				continue // MUTANT: the prototype setter, not a key
			}
			e, _ := x.Get(k)
			out.Set(k, dropProtoKeys(e))
		}
		return out
	}
	return v
}
