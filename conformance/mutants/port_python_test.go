package mutants

import (
	"context"
	"math"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// pythonMutants are the mistakes a Python port written from the spec alone would make by a
// Python default, that passed every fixed check before the cases named in their comments.
// They are about JavaScript values Go's types do not carry, so each is a protocol-level
// handler over the reference that answers as the Python port does.
func pythonMutants() []mutant {
	return []mutant{
		{name: "python/int-of-infinity", mistake: "a configured value or a limit tested with v == int(v) before its range: 1e400 (Infinity) raises OverflowError, with no code", handler: &pythonIntOfInfinity{}},
	}
}

// positiveSafe is Number.isSafeInteger(v) && v > 0.
func positiveSafe(v any) bool {
	f, ok := plainNumber(v)
	return ok && f > 0 && f <= 1<<53-1 && f == math.Trunc(f)
}

// pythonIntOfInfinity validates the configuration and the limit as
// `isinstance(v, (int, float)) and not isinstance(v, bool) and v == int(v) and 0 < v <= 2**53 - 1`
// (gen_infinity_test.go, TRAP-TYPE-SAFE-INTEGER): for a number that reads as ±Infinity,
// int(v) raises OverflowError, which carries no contract code, where the seed fails with
// SESSION_REFERENCE_INVALID_CONFIG or SESSION_REFERENCE_INVALID_REFERENCE. Keys are checked in
// order, so an earlier invalid key still decides with its code.
type pythonIntOfInfinity struct{ refadapter.Reference }

func (h *pythonIntOfInfinity) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	overflow := func(extra *wire.Object) protocol.Response {
		return protocol.Response{ID: req.ID, Err: &protocol.Error{Message: "cannot convert float infinity to integer", Extra: extra}} // MUTANT
	}
	var extra *wire.Object
	switch req.Op {
	case protocol.OpConfig, protocol.OpHostSend:
	case protocol.OpPrepare:
		extra = wire.NewObject().Set("reads", []any{})
	case protocol.OpCandidates:
	default:
		return h.Reference.Handle(ctx, req)
	}
	if cfg, ok := req.Args.Get("config"); ok {
		if obj, ok := cfg.(*wire.Object); ok {
			for _, k := range []string{"maxReferences", "candidateLimit", "maxReferenceBytes"} {
				v, _ := obj.Get(k)
				if v == nil {
					continue // absent or null: the default
				}
				if f, ok := plainNumber(v); ok && math.IsInf(f, 0) {
					return overflow(extra)
				}
				if _, isBool := v.(bool); isBool || !positiveSafe(v) {
					break // this key fails with its code, as the reference says
				}
			}
		}
	}
	if req.Op == protocol.OpCandidates {
		if resp := h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: protocol.OpConfig, Args: configArgs(req.Args)}); resp.Err != nil {
			return h.Reference.Handle(ctx, req) // construction fails first, with its code
		}
		if l, ok := req.Args.Get("limit"); ok {
			if f, ok := plainNumber(l); ok && math.IsInf(f, 0) {
				return overflow(wire.NewObject().Set("lists", float64(0)))
			}
		}
	}
	return h.Reference.Handle(ctx, req)
}

// configArgs returns the arguments of a config request for the configuration of args.
func configArgs(args *wire.Object) *wire.Object {
	out := wire.NewObject()
	if cfg, ok := args.Get("config"); ok {
		out.Set("config", cfg)
	}
	return out
}
