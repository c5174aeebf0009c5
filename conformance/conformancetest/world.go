package conformancetest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// This file is the bridge's session-query service: the protocol's world document
// (spec/protocol.md, "The world") read into protocol.World and answered in the kit's types,
// as any adapter answers it. The calls go through refadapter.Calls, which the reference
// adapter uses too, so the cancel modes and the recorded reads behave exactly as the
// reference adapter's.

// world is the SessionStore of one request.
type world struct {
	doc   *protocol.World
	calls *refadapter.Calls

	mu  sync.Mutex
	why string // the first surface the Go types could not carry, when one was read
}

func newWorld(v any) (*world, error) {
	w, err := protocol.WorldFromValue(v)
	if err != nil {
		return nil, protocolError("%v", err)
	}
	return &world{doc: w, calls: &refadapter.Calls{}}, nil
}

// inexpressible says why the request cannot be answered through the Go types: a surface the
// port read held an event they cannot carry. Empty when every read was expressible.
func (w *world) inexpressible() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.why
}

func header(h protocol.Header) goport.SessionHeader {
	out := goport.SessionHeader{ID: h.ID, CreatedAt: h.CreatedAt}
	if h.CWD != nil {
		out.CWD = goport.Some(*h.CWD)
	}
	return out
}

// ListSessions implements SessionStore: every session in document order, persisted and not
// live, or listError.
func (w *world) ListSessions(ctx context.Context) (out []goport.SessionRecord, err error) {
	end, err := w.calls.List(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { end(err) }()
	if w.doc.ListError != nil {
		return nil, errors.New(*w.doc.ListError)
	}
	out = make([]goport.SessionRecord, len(w.doc.Sessions))
	for i, s := range w.doc.Sessions {
		out[i] = goport.SessionRecord{Header: header(s.Header), Persisted: true}
	}
	return out, nil
}

// ReadTitleSnapshots implements SessionStore: one settlement per unique id, in
// first-occurrence order, from the first session with the id; an unknown id or a titleError
// settles with an error.
func (w *world) ReadTitleSnapshots(ctx context.Context, ids []string) (out []goport.TitleSnapshot, err error) {
	end, err := w.calls.Titles(ctx, ids)
	if err != nil {
		return nil, err
	}
	defer func() { end(err) }()
	// Index the sessions once per call, so a query over n sessions is not n² comparisons.
	index := make(map[string]int, len(w.doc.Sessions))
	for i := len(w.doc.Sessions) - 1; i >= 0; i-- {
		index[w.doc.Sessions[i].Header.ID] = i
	}
	seen := make(map[string]bool, len(ids))
	out = make([]goport.TitleSnapshot, 0, len(ids))
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		i, known := index[id]
		switch {
		case !known:
			out = append(out, goport.TitleSnapshot{SessionID: id, Err: errors.New("session not found")})
		case w.doc.Sessions[i].TitleError != nil:
			out = append(out, goport.TitleSnapshot{SessionID: id, Err: errors.New(*w.doc.Sessions[i].TitleError)})
		default:
			s := &w.doc.Sessions[i]
			t := goport.TitleSnapshot{SessionID: id, Session: header(s.Header)}
			if s.Title != nil {
				t.Title = goport.Some(*s.Title)
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// read is one surface read of the document: the session, and its surface (nil: empty, with
// capturedThroughSeq null), or the read's error.
func (w *world) read(ctx context.Context, id string) (s *protocol.Session, err error) {
	end, err := w.calls.Read(ctx, id)
	if err != nil {
		return nil, err
	}
	defer func() { end(err) }()
	if s = w.doc.Find(id); s == nil {
		return nil, fmt.Errorf("session %s not found", wire.Quote(id))
	}
	if s.ReadError != nil {
		return nil, errors.New(*s.ReadError)
	}
	return s, nil
}

// ReadSurface implements SessionStore. A surface whose events the Go types cannot carry
// fails the read, and the bridge answers the request not covered.
func (w *world) ReadSurface(ctx context.Context, id string) (goport.Surface, error) {
	s, err := w.read(ctx, id)
	if err != nil {
		return goport.Surface{}, err
	}
	var events []any
	out := goport.Surface{Session: header(s.Header)}
	if s.Surface != nil {
		events = s.Surface.Events
		if s.Surface.CapturedThroughSeq != nil {
			out.CapturedThroughSeq = goport.Some(*s.Surface.CapturedThroughSeq)
		}
	}
	out.Events = make([]goport.Event, len(events))
	for i, ev := range events {
		e, err := event(ev)
		if err != nil {
			w.mu.Lock()
			if w.why == "" {
				w.why = fmt.Sprintf("session %s, surface event %d: %v", wire.Quote(id), i, err)
			}
			w.mu.Unlock()
			return goport.Surface{}, fmt.Errorf("conformancetest: %v", err)
		}
		out.Events[i] = e
	}
	return out, nil
}

// ReadSurfaceValue implements goport.ValueSurfaceReader: ReadSurface with every event as the
// world gave it, so no shape makes the request inexpressible.
func (w *world) ReadSurfaceValue(ctx context.Context, id string) (goport.ValueSurface, error) {
	s, err := w.read(ctx, id)
	if err != nil {
		return goport.ValueSurface{}, err
	}
	out := goport.ValueSurface{Session: header(s.Header)}
	if s.Surface == nil {
		return out, nil
	}
	if s.Surface.CapturedThroughSeq != nil {
		out.CapturedThroughSeq = goport.Some(*s.Surface.CapturedThroughSeq)
	}
	out.Events = make([]goport.Value, len(s.Surface.Events))
	for i, ev := range s.Surface.Events {
		if out.Events[i], err = wire.Marshal(ev); err != nil {
			return goport.ValueSurface{}, fmt.Errorf("conformancetest: event %d: %v", i, err)
		}
	}
	return out, nil
}

// event reads one surface event into the Go types. It fails for a shape they cannot carry
// (an event that is not an object, a type that is not a string, a message or source that
// is not an object, content that is not an array, a block that is not an object …), never
// for one they can: an unknown type, a missing message or source.
func event(v any) (goport.Event, error) {
	o, ok := v.(*wire.Object)
	if !ok {
		return goport.Event{}, fmt.Errorf("the event is %s, not an object", kind(v))
	}
	tv, _ := o.Get("type")
	typ, ok := tv.(string)
	if !ok {
		return goport.Event{}, fmt.Errorf("type is %s, not a string", kind(tv))
	}
	e := goport.Event{Type: typ}
	if s, ok := get(o, "seq").(float64); ok {
		e.Seq = s
	}
	var mv any
	switch typ {
	case "user/message":
		mv = get(o, "data")
	case "assistant/message":
		mv = get(get(o, "data"), "message")
	default:
		// Projection reads nothing else of these: a message the types cannot carry is left out.
		m, err := message(get(get(o, "data"), "message"))
		if err == nil {
			e.Message = m
		}
		return e, nil
	}
	m, err := message(mv)
	if err != nil {
		return goport.Event{}, err
	}
	e.Message = m
	return e, nil
}

// get is o[key] for an object, nil otherwise.
func get(v any, key string) any {
	o, ok := v.(*wire.Object)
	if !ok {
		return nil
	}
	x, _ := o.Get(key)
	return x
}

func message(v any) (*goport.EventMessage, error) {
	if v == nil {
		return nil, nil
	}
	o, ok := v.(*wire.Object)
	if !ok {
		return nil, fmt.Errorf("the message is %s, not an object", kind(v))
	}
	m := &goport.EventMessage{}
	var err error
	if m.ID, err = optionalString(o, "id"); err != nil {
		return nil, err
	}
	if m.Role, err = optionalString(o, "role"); err != nil {
		return nil, err
	}
	if sv := get(o, "source"); sv != nil {
		so, ok := sv.(*wire.Object)
		if !ok {
			return nil, fmt.Errorf("source is %s, not an object", kind(sv))
		}
		m.Source = &goport.EventSource{}
		for _, f := range []struct {
			key string
			dst *string
		}{{"kind", &m.Source.Kind}, {"plugin", &m.Source.Plugin}, {"compactionId", &m.Source.CompactionID}} {
			if *f.dst, err = optionalString(so, f.key); err != nil {
				return nil, fmt.Errorf("source.%w", err)
			}
		}
	}
	cv, present := o.Get("content")
	if !present {
		return nil, fmt.Errorf("content is absent")
	}
	blocks, ok := cv.([]any)
	if !ok {
		return nil, fmt.Errorf("content is %s, not an array", kind(cv))
	}
	m.Content = make([]goport.ContentBlock, len(blocks))
	for i, b := range blocks {
		bo, ok := b.(*wire.Object)
		if !ok {
			return nil, fmt.Errorf("content[%d] is %s, not an object", i, kind(b))
		}
		if m.Content[i].Type, err = optionalString(bo, "type"); err != nil {
			return nil, fmt.Errorf("content[%d].%w", i, err)
		}
		if t, ok := get(bo, "text").(string); ok {
			m.Content[i].Text = goport.Some(t)
		}
	}
	return m, nil
}

// optionalString reads a key that is a string or absent ("").
func optionalString(o *wire.Object, key string) (string, error) {
	v, ok := o.Get(key)
	if !ok {
		return "", nil
	}
	s, isString := v.(string)
	if !isString {
		return "", fmt.Errorf("%s is %s, not a string", key, kind(v))
	}
	return s, nil
}

// emptyStore is the session-query service of a config request, which reads nothing.
type emptyStore struct{}

func (emptyStore) ListSessions(context.Context) ([]goport.SessionRecord, error) { return nil, nil }
func (emptyStore) ReadTitleSnapshots(_ context.Context, ids []string) ([]goport.TitleSnapshot, error) {
	return nil, nil
}
func (emptyStore) ReadSurface(_ context.Context, id string) (goport.Surface, error) {
	return goport.Surface{}, fmt.Errorf("session %s not found", wire.Quote(id))
}
