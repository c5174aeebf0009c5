package cases_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Builders for the fixture generator: JSON values as package jsjson represents them.

// o builds an object from key, value pairs.
func o(kv ...any) *wire.Object {
	obj := wire.NewObject()
	for i := 0; i+1 < len(kv); i += 2 {
		obj.Set(kv[i].(string), norm(kv[i+1]))
	}
	return obj
}

// a builds an array.
func a(vs ...any) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = norm(v)
	}
	return out
}

func norm(v any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	}
	return v
}

// u reads s as the inside of a JSON string literal: u(`a\ud800`) is "a" and a lone surrogate.
func u(s string) string {
	v, err := wire.Parse(`"` + s + `"`)
	if err != nil {
		panic(fmt.Sprintf("u(%q): %v", s, err))
	}
	return v.(string)
}

// Surface events, numbered by the surface that holds them.

func textBlock(t string) *wire.Object { return o("type", "text", "text", t) }

func userMsg(t string) *wire.Object {
	return o("type", "user/message", "data", o("role", "user", "content", a(textBlock(t)), "source", o("kind", "user")))
}

func userBlocks(blocks ...any) *wire.Object {
	return o("type", "user/message", "data", o("role", "user", "content", a(blocks...), "source", o("kind", "user")))
}

func asstMsg(t string) *wire.Object {
	return o("type", "assistant/message", "data", o("message", o("role", "assistant", "content", a(textBlock(t)), "source", o("kind", "model"))))
}

func asstBlocks(blocks ...any) *wire.Object {
	return o("type", "assistant/message", "data", o("message", o("role", "assistant", "content", a(blocks...), "source", o("kind", "model"))))
}

func checkpointMsg(t string) *wire.Object {
	return o("type", "user/message", "data", o("role", "user", "content", a(textBlock(t)),
		"source", o("kind", "plugin", "plugin", "compact", "compactionId", "c-1")))
}

func sourcedMsg(t string, source *wire.Object) *wire.Object {
	return o("type", "user/message", "data", o("role", "user", "content", a(textBlock(t)), "source", source))
}

func toolResult(t string) *wire.Object {
	return o("type", "tool/result", "data", o("message", o("role", "user",
		"content", a(o("type", "tool-result", "toolCallId", "c1", "content", a(textBlock(t)))),
		"source", o("kind", "tool", "callId", "c1"))))
}

// toolResultLike is a tool/result event that looks like a message to a port that projects
// tool results: text blocks directly in its message (and beside it, in a user/message's
// place), source kind "user", role "user". The contract never projects it (SR-PROJ-3).
func toolResultLike(t string) *wire.Object {
	blocks := a(textBlock(t), o("type", "tool-result", "toolCallId", "c1", "content", a(textBlock(t+" (nested)"))))
	src := o("kind", "user")
	return o("type", "tool/result", "data", o("message", o("role", "user", "content", blocks, "source", src),
		"role", "user", "content", blocks, "source", src))
}

// surface numbers its events from 1 and captures through the last.
func surface(events ...*wire.Object) *wire.Object {
	list := make([]any, len(events))
	for i, e := range events {
		c := wire.NewObject().Set("type", must(e.Get("type"))).Set("seq", float64(i+1))
		d, _ := e.Get("data")
		list[i] = c.Set("data", d)
	}
	return o("capturedThroughSeq", len(events), "events", list)
}

func must(v any, _ bool) any { return v }

// sess builds a world session: header {id, cwd?, createdAt} plus options.
type opt func(*wire.Object)

func cwd(c string) opt {
	return func(s *wire.Object) { h, _ := s.Get("header"); h.(*wire.Object).Set("cwd", c) }
}
func created(n int) opt {
	return func(s *wire.Object) { h, _ := s.Get("header"); h.(*wire.Object).Set("createdAt", float64(n)) }
}
func title(t string) opt            { return func(s *wire.Object) { s.Set("title", t) } }
func titleErr(e string) opt         { return func(s *wire.Object) { s.Set("titleError", e) } }
func readErr(e string) opt          { return func(s *wire.Object) { s.Set("readError", e) } }
func surf(x *wire.Object) opt       { return func(s *wire.Object) { s.Set("surface", x) } }
func events(ev ...*wire.Object) opt { return surf(surface(ev...)) }

func sess(id string, opts ...opt) *wire.Object {
	s := o("header", o("id", id))
	for _, f := range opts {
		f(s)
	}
	h, _ := s.Get("header")
	if !h.(*wire.Object).Has("createdAt") {
		h.(*wire.Object).Set("createdAt", 1.0)
	}
	// Header keys in the order id, cwd, createdAt.
	ho := h.(*wire.Object)
	nh := wire.NewObject().Set("id", must(ho.Get("id")))
	if c, ok := ho.Get("cwd"); ok {
		nh.Set("cwd", c)
	}
	nh.Set("createdAt", must(ho.Get("createdAt")))
	s.Set("header", nh)
	return s
}

func world(sessions ...*wire.Object) *wire.Object {
	list := make([]any, len(sessions))
	for i, s := range sessions {
		list[i] = s
	}
	return o("sessions", list)
}

func ref(id string) *wire.Object         { return o("sessionId", id) }
func refL(id, label string) *wire.Object { return o("sessionId", id, "label", label) }
func refs(rs ...*wire.Object) []any {
	out := make([]any, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}
func agent(id string) *wire.Object        { return o("id", id) }
func agentIn(id, dir string) *wire.Object { return o("id", id, "cwd", dir) }
