package conformancetest

import (
	"context"
	"fmt"
	"sync"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// This file is the bridge's one use of the reference's session-query fake: the protocol's
// world document (spec/protocol.md, "The world") behaves exactly as the reference adapter's,
// cancel modes and recorded reads included, and the port sees it as a SessionStore of the
// kit's types.

// world is the SessionStore of one request.
type world struct {
	q *refadapter.Query

	mu  sync.Mutex
	why string // the first surface the Go types could not carry, when one was read
}

func newWorld(v any) (*world, error) {
	w, err := sessionquerytest.WorldFromValue(v)
	if err != nil {
		return nil, protocolError("%v", err)
	}
	return &world{q: refadapter.NewQuery(w)}, nil
}

// inexpressible says why the request cannot be answered through the Go types: a surface the
// port read held an event they cannot carry. Empty when every read was expressible.
func (w *world) inexpressible() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.why
}

func header(h sessionquery.Header) goport.SessionHeader {
	out := goport.SessionHeader{ID: h.ID, CreatedAt: h.CreatedAt}
	if h.CWD != nil {
		out.CWD = goport.Some(*h.CWD)
	}
	return out
}

// ListSessions implements SessionStore.
func (w *world) ListSessions(ctx context.Context) ([]goport.SessionRecord, error) {
	recs, err := w.q.ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]goport.SessionRecord, len(recs))
	for i, r := range recs {
		out[i] = goport.SessionRecord{Header: header(r.Header), Live: r.Live, Persisted: r.Persisted}
	}
	return out, nil
}

// ReadTitleSnapshots implements SessionStore.
func (w *world) ReadTitleSnapshots(ctx context.Context, ids []string) ([]goport.TitleSnapshot, error) {
	sets, err := w.q.ReadTitleSnapshots(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]goport.TitleSnapshot, len(sets))
	for i, s := range sets {
		out[i] = goport.TitleSnapshot{SessionID: s.SessionID, Err: s.Err, Session: header(s.Session)}
		if s.Title != nil {
			out[i].Title = goport.Some(*s.Title)
		}
	}
	return out, nil
}

// ReadSurface implements SessionStore. A surface whose events the Go types cannot carry
// fails the read, and the bridge answers the request not covered.
func (w *world) ReadSurface(ctx context.Context, id string) (goport.Surface, error) {
	s, err := w.q.ReadSurface(ctx, id)
	if err != nil {
		return goport.Surface{}, err
	}
	out := goport.Surface{Session: header(s.Session), Events: make([]goport.Event, len(s.Events))}
	if s.CapturedThroughSeq != nil {
		out.CapturedThroughSeq = goport.Some(*s.CapturedThroughSeq)
	}
	for i, ev := range s.Events {
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
