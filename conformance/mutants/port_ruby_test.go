package mutants

import (
	"context"
	"strings"

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
		{name: "ruby/cwd-nil-to-s", mistake: "rank 0 when session.cwd == agent.cwd.to_s: for an agent without a cwd, a session whose cwd is \"\" ranks first", handler: &rubyCwdToS{}},
		{name: "ruby/strip-format-label", mistake: "mention.format strips the label (String#strip: ASCII whitespace and NUL at both ends)", handler: &rubyStripLabel{}},
		{name: "ruby/string-index", mistake: "references, configurations and event data read duck-typed with value[key]: a String holding the key reads as the key (String#[] is a substring search)", handler: &rubyStringIndex{}},
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

// rubyStringIndex reads references, configurations and a user/message's data duck-typed,
// value[key] with a rescue for the types that raise, and so meets Ruby's String#[] with a
// String argument, a substring search (gen_strindex_test.go, TRAP-TYPE-STRING-INDEX): a
// string holding the key reads as the key. It answers the request the reference would answer
// with each such string replaced by the object the Ruby port reads it as.
type rubyStringIndex struct{ refadapter.Reference }

// rubyIndex is Ruby's s[key] for a string s: key when s contains it.
func rubyIndex(s, key string) (string, bool) {
	if strings.Contains(s, key) {
		return key, true
	}
	return "", false
}

func (h *rubyStringIndex) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	args := wire.NewObject()
	for _, k := range req.Args.Keys() {
		v, _ := req.Args.Get(k)
		args.Set(k, v)
	}
	if cfg, ok := args.Get("config"); ok {
		if s, isString := cfg.(string); isString {
			obj := wire.NewObject()
			for _, key := range []string{"maxReferences", "candidateLimit", "maxReferenceBytes"} {
				if v, ok := rubyIndex(s, key); ok {
					obj.Set(key, v) // MUTANT: "…maxReferences…"["maxReferences"]
				}
			}
			args.Set("config", obj)
		}
	}
	if req.Op == protocol.OpPrepare {
		if list, ok := args.Get("references"); ok {
			if rs, ok := list.([]any); ok {
				out := make([]any, len(rs))
				for i, e := range rs {
					out[i] = e
					if s, isString := e.(string); isString {
						if id, ok := rubyIndex(s, "sessionId"); ok {
							r := wire.NewObject().Set("sessionId", id) // MUTANT: a string read as a reference
							if l, ok := rubyIndex(s, "label"); ok {
								r.Set("label", l)
							}
							out[i] = r
						}
					}
				}
				args.Set("references", out)
			}
		}
		if w, ok := args.Get("world"); ok {
			if raw, isRaw := w.(wire.Raw); isRaw {
				if v, err := wire.Parse(string(raw)); err == nil {
					w = v
				}
			}
			args.Set("world", stringDataWithSource(w))
		}
	}
	return h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: req.Op, Args: args})
}

// stringDataWithSource copies a world document, giving every user/message whose data is a
// string holding "source" the data {"source": "source"}: a source without a kind, skipped.
func stringDataWithSource(w any) any {
	root, ok := w.(*wire.Object)
	if !ok {
		return w
	}
	return mapEvents(root, func(eo *wire.Object) any {
		typ, _ := eo.Get("type")
		d, _ := eo.Get("data")
		ds, isString := d.(string)
		if typ != "user/message" || !isString {
			return eo
		}
		if src, ok := rubyIndex(ds, "source"); ok {
			return copyWith(eo, "data", wire.NewObject().Set("source", src)) // MUTANT
		}
		return eo
	})
}

func copyObject(o *wire.Object) *wire.Object {
	c := wire.NewObject()
	for _, k := range o.Keys() {
		v, _ := o.Get(k)
		c.Set(k, v)
	}
	return c
}

// rubyCwdToS ranks with session.cwd == agent.cwd.to_s (gen_cwdnil_test.go,
// TRAP-TYPE-NULL-ABSENT): Ruby's nil.to_s is "", so for an agent without a cwd a session
// whose cwd is "" ranks as in the agent's directory. It answers as the reference answers for
// the same agent with the cwd "".
type rubyCwdToS struct{ refadapter.Reference }

func (h *rubyCwdToS) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	ag, _ := req.Args.Get("agent")
	a, ok := ag.(*wire.Object)
	if req.Op != protocol.OpCandidates || !ok || a.Has("cwd") {
		return h.Reference.Handle(ctx, req)
	}
	args := copyObject(req.Args).Set("agent", copyObject(a).Set("cwd", "")) // MUTANT: nil.to_s
	return h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: req.Op, Args: args})
}

// rubyStripLabel formats a mention with label.strip (gen_trimformat_test.go, TRAP-STR-TRIM):
// Ruby's String#strip takes ASCII whitespace and NUL from both ends of the label, the id
// included when it stands for the label.
type rubyStripLabel struct{ refadapter.Reference }

func (h *rubyStripLabel) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op != protocol.OpMentionFormat {
		return h.Reference.Handle(ctx, req)
	}
	label, ok := req.Args.Get("label")
	if !ok || label == nil {
		label, _ = req.Args.Get("sessionId")
	}
	s, isString := label.(string)
	if !isString {
		return h.Reference.Handle(ctx, req)
	}
	args := copyObject(req.Args).Set("label", strings.Trim(s, "\x00\t\n\v\f\r ")) // MUTANT: label.strip
	return h.Reference.Handle(ctx, protocol.Request{ID: req.ID, Op: req.Op, Args: args})
}
