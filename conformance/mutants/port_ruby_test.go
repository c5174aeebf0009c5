package mutants

import (
	"context"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// rubyMutants are the mistakes a Ruby port written from the spec alone made, or would make
// by a Ruby default, that passed every fixed check before the cases named in their comments.
// Go's types cannot carry them (they are about JavaScript values of any type), so each is a
// protocol-level handler over the reference that answers as the Ruby port does.
func rubyMutants() []mutant {
	return []mutant{
		{name: "ruby/json-max-nesting", mistake: "content deep-copied and non-string ids encoded through Ruby's JSON (max_nesting 100): deeper values fail with no code", handler: &rubyMaxNesting{}},
	}
}

// depth is the nesting depth of a wire value: 0 for a scalar, 1 for [] or {}.
func depth(v any) int {
	d := 0
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	case *wire.Object:
		for _, k := range x.Keys() {
			e, _ := x.Get(k)
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}

// rubyMaxNesting copies prepare's content with JSON.parse(JSON.generate(content)) and
// encodes a non-string id with JSON.generate, both with Ruby's default max_nesting of 100
// (gen_depth_test.go, TRAP-JSON-DEPTH-LIMIT): a value nested deeper raises
// JSON::NestingError, which carries no contract code.
type rubyMaxNesting struct{ refadapter.Reference }

func (h *rubyMaxNesting) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	const maxNesting = 100
	fail := func(extra *wire.Object) protocol.Response {
		return protocol.Response{ID: req.ID, Err: &protocol.Error{Message: "nesting of 101 is too deep", Extra: extra}} // MUTANT
	}
	switch req.Op {
	case protocol.OpPrepare:
		if c, ok := req.Args.Get("content"); ok && depth(c) > maxNesting {
			// The service is constructed first: a configuration error comes before the copy.
			args := wire.NewObject()
			if cfg, ok := req.Args.Get("config"); ok {
				args.Set("config", cfg)
			}
			resp := h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: protocol.OpConfig, Args: args})
			if resp.Err != nil {
				resp.Err.Extra = wire.NewObject().Set("reads", []any{})
				return resp
			}
			return fail(wire.NewObject().Set("reads", []any{}))
		}
	case protocol.OpURIEncode, protocol.OpMentionFormat:
		if id, ok := req.Args.Get("sessionId"); ok && depth(id) > maxNesting {
			return fail(nil)
		}
	}
	return h.Reference.Handle(ctx, req)
}
