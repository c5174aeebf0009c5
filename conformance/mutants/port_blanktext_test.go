package mutants

import (
	"context"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// blankSkipped is a TypeScript port whose projection skips a message when `!text.trim()`
// instead of `text === ""` (TRAP-STR-TRIM): a message of JavaScript whitespace only is not
// projected. It is protocol-level: it empties such messages' content in every world it is
// given (a request's own or a world.define'd one), so the reference skips them.
type blankSkipped struct{ refadapter.Reference }

func (h *blankSkipped) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	switch req.Op {
	case protocol.OpPrepare, protocol.OpHostSend, protocol.OpWorldDefine:
		if w, ok := req.Args.Get("world"); ok {
			if wo, isObj := w.(*wire.Object); isObj && wo != nil && wo.Has("sessions") {
				req = withArg(req, "world", withoutMessages(wo, isBlank))
			}
		}
	}
	return h.Reference.Handle(ctx, req)
}

// isBlank: `!text.trim()` for a non-empty text, all JavaScript whitespace.
func isBlank(text string) bool { return strings.TrimFunc(text, jsstring.IsSpace) == "" }

// withoutMessages is a copy of world whose non-empty messages whose text skip holds have no
// content, so the reference skips them.
func withoutMessages(world *wire.Object, skip func(string) bool) *wire.Object {
	return mapEvents(world, func(e *wire.Object) any { return emptiedWhen(e, skip) })
}

// emptiedWhen returns e with an empty content when it is a message whose text is non-empty
// and skip holds for it, and e itself otherwise.
func emptiedWhen(e any, skip func(string) bool) any {
	eo, isObj := e.(*wire.Object)
	if !isObj || eo == nil {
		return e
	}
	holder, ok := messageHolder(eo)
	if !ok {
		return e
	}
	content, _ := holder.Get("content")
	blocks, isList := content.([]any)
	if !isList {
		return e
	}
	var texts []string
	for _, b := range blocks {
		if bo, isObj := b.(*wire.Object); isObj && bo != nil {
			if t, _ := bo.Get("type"); t == "text" {
				if s, ok := bo.Get("text"); ok {
					if str, isString := s.(string); isString {
						texts = append(texts, str)
					}
				}
			}
		}
	}
	text := strings.Join(texts, "\n")
	if text == "" || !skip(text) {
		return e
	}
	return withHolder(eo, copyWith(holder, "content", []any{})) // MUTANT: the port's emptiness test skips it
}

// messageHolder is the object of a message event that holds its content: data for a
// user/message, data.message for an assistant/message; ok is false for any other event.
func messageHolder(e *wire.Object) (holder *wire.Object, ok bool) {
	typ, _ := e.Get("type")
	data, _ := e.Get("data")
	do, isObj := data.(*wire.Object)
	if !isObj || do == nil {
		return nil, false
	}
	switch typ {
	case "user/message":
		return do, true
	case "assistant/message":
		m, _ := do.Get("message")
		holder, isObj = m.(*wire.Object)
		return holder, isObj && holder != nil
	}
	return nil, false
}

// withHolder is a copy of the message event e (one messageHolder accepts) with holder in
// place of the object that holds its content.
func withHolder(e, holder *wire.Object) *wire.Object {
	if typ, _ := e.Get("type"); typ == "assistant/message" {
		data, _ := e.Get("data")
		return copyWith(e, "data", copyWith(data.(*wire.Object), "message", holder))
	}
	return copyWith(e, "data", holder)
}

// copyWith is a copy of obj with obj[key] set to v (in place of the old value, or last).
func copyWith(obj *wire.Object, key string, v any) *wire.Object {
	out := wire.NewObject()
	for _, k := range obj.Keys() {
		x, _ := obj.Get(k)
		if k == key {
			x = v
		}
		out.Set(k, x)
	}
	if !obj.Has(key) {
		out.Set(key, v)
	}
	return out
}
