package conformancetest

import (
	"context"
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// define answers world.define: the document is checked as a request's world would be, and
// kept as its wire value; each request naming it reads it afresh (newWorld builds its own
// store), so no request sees another's calls or mutations.
func (b *bridge) define(req protocol.Request) (any, error) {
	kv, _ := req.Arg("key")
	key, ok := kv.(string)
	if !ok {
		return nil, protocolError("world.define: key is %s, not a string", kind(kv))
	}
	wv, _ := req.Arg("world")
	if _, isRef, _ := protocol.WorldRefKey(wv); isRef {
		return nil, protocolError("world.define: the world is a reference, not a document")
	}
	if _, err := protocol.WorldFromValue(wv); err != nil {
		return nil, protocolError("world.define: %v", err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.worlds == nil {
		b.worlds = map[string]any{}
	}
	b.worlds[key] = wv
	return wire.NewObject().Set("key", key), nil
}

// resolve returns the world document wv names: wv itself, or the one defined under its
// {"$ref": KEY}.
func (b *bridge) resolve(wv any) (any, error) {
	key, isRef, err := protocol.WorldRefKey(wv)
	if err != nil {
		return nil, protocolError("world: %v", err)
	}
	if !isRef {
		return wv, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	doc, ok := b.worlds[key]
	if !ok {
		return nil, protocolError("world: no world defined under %s (world.define it first)", wire.Quote(key))
	}
	return doc, nil
}

// hostSend models host.send over the port's goport.Host (spec/protocol.md, "host.send"):
// the port says what a host enqueues for the text; the kit keeps the target's inbox, steps
// it, and reads its log before and after the mutations. The log is written as JSON when the
// target steps; the replay writes the port's messages again after the mutations, so a
// message that shares what a mutation changes is seen to change.
func (b *bridge) hostSend(ctx context.Context, r reader) (any, error) {
	text, err := r.str("text")
	if err != nil {
		return nil, err
	}
	running := false
	if v, ok := r.req.Arg("running"); ok && v != nil {
		bv, isBool := v.(bool)
		if !isBool {
			return nil, protocolError("running is %s, not a boolean", kind(v))
		}
		running = bv
	}
	c, err := b.open(ctx, r)
	if err != nil {
		return nil, err
	}
	defer c.cancel()
	defer c.world.calls.Release()
	contextFirst := b.profile == string(protocol.Spec)
	var pending []any
	if running && !contextFirst {
		// 0.1.0-rc.8 parses and prepares in the step that claims the inbox: until then the
		// direct message waits as typed (SR-HOST-8).
		block := wire.NewObject().Set("type", "text").Set("text", text)
		pending = []any{directValue(wire.NewObject(), []any{block})}
	}
	msgs, err := b.host.Deliver(c.ctx, c.svc, c.agent, text)
	if why := c.world.inexpressible(); why != "" {
		return nil, cannot("%s", why)
	}
	if err != nil {
		return nil, err
	}
	log, err := hostValues(msgs)
	if err != nil {
		return nil, err
	}
	if running && contextFirst {
		pending = log
	}
	if pending == nil {
		pending = []any{}
	}
	mv, _ := r.req.Arg("mutations")
	if err := mutate(c.world.doc, mv); err != nil {
		return nil, err
	}
	replay, err := hostValues(msgs)
	if err != nil {
		return nil, err
	}
	return wire.NewObject().Set("pending", pending).Set("log", log).Set("replay", replay), nil
}

// hostValues writes a host's messages as the protocol carries them.
func hostValues(msgs []goport.HostMessage) ([]any, error) {
	out := make([]any, 0, len(msgs))
	for i, m := range msgs {
		switch {
		case m.Context != nil && m.Direct == nil:
			out = append(out, messageValue(m.Context))
		case m.Direct != nil && m.Context == nil:
			v, err := wire.Parse(string(m.Direct))
			if err != nil {
				return nil, fmt.Errorf("conformancetest: host message %d: the direct content is not JSON: %v", i, err)
			}
			out = append(out, directValue(wire.NewObject(), v))
		default:
			return nil, fmt.Errorf("conformancetest: host message %d sets %s of Direct and Context, not one", i, map[bool]string{true: "both", false: "neither"}[m.Direct != nil])
		}
	}
	return out, nil
}

func directValue(o *wire.Object, content any) *wire.Object {
	return o.Set("source", wire.NewObject().Set("kind", "user")).Set("content", content).Set("role", "user")
}

// mutate applies host.send's mutations to the request's world document (its own copy).
func mutate(w *protocol.World, mv any) error {
	if mv == nil {
		return nil
	}
	list, ok := mv.([]any)
	if !ok {
		return protocolError("mutations is %s, not an array", kind(mv))
	}
	for i, m := range list {
		o, ok := m.(*wire.Object)
		if !ok {
			return protocolError("mutations[%d] is %s, not an object", i, kind(m))
		}
		idv, _ := o.Get("sessionId")
		id, _ := idv.(string)
		at := -1
		for j := range w.Sessions {
			if w.Sessions[j].Header.ID == id {
				at = j
				break
			}
		}
		if at < 0 {
			return protocolError("mutations[%d] names unknown session %s", i, wire.Quote(id))
		}
		s := &w.Sessions[at]
		switch op, _ := o.Get("op"); op {
		case "append":
			ev, _ := o.Get("events")
			events, ok := ev.([]any)
			if !ok {
				return protocolError("mutations[%d]: append has no events array", i)
			}
			if s.Surface == nil {
				s.Surface = &protocol.Surface{}
			}
			s.Surface.Events = append(append([]any(nil), s.Surface.Events...), events...)
		case "compact":
			sv, _ := o.Get("summary")
			summary, _ := sv.(string)
			src := wire.NewObject().Set("kind", "plugin").Set("plugin", "compact").Set("compactionId", "c-mutation")
			data := wire.NewObject().Set("id", "m-compact").Set("role", "user").
				Set("content", []any{wire.NewObject().Set("type", "text").Set("text", summary)}).Set("source", src)
			if s.Surface == nil {
				s.Surface = &protocol.Surface{}
			}
			s.Surface.Events = []any{wire.NewObject().Set("type", "user/message").Set("seq", 0.0).Set("data", data)}
		case "delete":
			w.Sessions = append(w.Sessions[:at:at], w.Sessions[at+1:]...)
		default:
			return protocolError("mutations[%d]: unknown op %v", i, op)
		}
	}
	return nil
}
