package protocol

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// World is the world document of a candidates, prepare or host request (spec/protocol.md,
// SR-QUERY-4): the sessions the implementation's session-query service holds.
//
//	{"sessions":[{"header":{"id":S,"cwd"?:S,"createdAt":N,…},"title"?:S,"titleError"?:S,
//	  "surface"?:{"capturedThroughSeq":N|null,"events":[…]},"readError"?:S}],"listError"?:S}
//
// The kit builds and reads worlds with this type; an implementation answers from the document
// it receives (the embedded reference builds its in-memory service from it).
type World struct {
	Sessions  []Session
	ListError *string
}

// Session is one session of a World.
type Session struct {
	Header     Header
	Title      *string
	TitleError *string
	Surface    *Surface // nil: an empty surface with capturedThroughSeq null
	ReadError  *string
}

// Header is a session header: id, cwd and createdAt, and the other keys as written (Extra),
// so a header round-trips.
type Header struct {
	ID        string
	CWD       *string // nil: the session recorded no working directory
	CreatedAt float64 // Unix epoch milliseconds
	Extra     *wire.Object
}

// Surface is a session's folded current surface: the last sequence number the capture covers
// (nil for null) and the events, JSON values kept as written because the contract must treat
// malformed events as the seed does.
type Surface struct {
	CapturedThroughSeq *float64
	Events             []any
}

// ParseWorld reads a world document from JSON text.
func ParseWorld(text string) (*World, error) {
	v, err := wire.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("world: %w", err)
	}
	return WorldFromValue(v)
}

// WorldFromValue reads a world document from a JSON value. Unknown keys and values of the
// wrong type are errors, so a typo in a fixture cannot silently change its meaning.
func WorldFromValue(v any) (*World, error) {
	root, ok := v.(*wire.Object)
	if !ok {
		return nil, errors.New("world: not an object")
	}
	if err := onlyKeys(root, "world", "sessions", "listError"); err != nil {
		return nil, err
	}
	w := &World{}
	var err error
	if w.ListError, err = optString(root, "listError", "world"); err != nil {
		return nil, err
	}
	sv, ok := root.Get("sessions")
	if !ok {
		return w, nil
	}
	list, ok := sv.([]any)
	if !ok {
		return nil, errors.New("world: sessions is not an array")
	}
	for i, e := range list {
		s, err := sessionFromValue(e, fmt.Sprintf("world: sessions[%d]", i))
		if err != nil {
			return nil, err
		}
		w.Sessions = append(w.Sessions, s)
	}
	return w, nil
}

func sessionFromValue(v any, where string) (Session, error) {
	o, ok := v.(*wire.Object)
	if !ok {
		return Session{}, fmt.Errorf("%s: not an object", where)
	}
	if err := onlyKeys(o, where, "header", "title", "titleError", "surface", "readError"); err != nil {
		return Session{}, err
	}
	var s Session
	hv, _ := o.Get("header")
	h, err := HeaderFromValue(hv)
	if err != nil {
		return s, fmt.Errorf("%s.header: %w", where, err)
	}
	s.Header = h
	if s.Title, err = optString(o, "title", where); err != nil {
		return s, err
	}
	if s.TitleError, err = optString(o, "titleError", where); err != nil {
		return s, err
	}
	if s.ReadError, err = optString(o, "readError", where); err != nil {
		return s, err
	}
	if sv, ok := o.Get("surface"); ok && sv != nil {
		so, ok := sv.(*wire.Object)
		if !ok {
			return s, fmt.Errorf("%s.surface: not an object", where)
		}
		if err := onlyKeys(so, where+".surface", "capturedThroughSeq", "events"); err != nil {
			return s, err
		}
		var surf Surface
		if cv, ok := so.Get("capturedThroughSeq"); ok && cv != nil {
			f, ok := cv.(float64)
			if !ok {
				return s, fmt.Errorf("%s.surface.capturedThroughSeq: not a number or null", where)
			}
			surf.CapturedThroughSeq = &f
		}
		if ev, ok := so.Get("events"); ok {
			events, ok := ev.([]any)
			if !ok {
				return s, fmt.Errorf("%s.surface.events: not an array", where)
			}
			surf.Events = events
		}
		s.Surface = &surf
	}
	return s, nil
}

// HeaderFromValue reads a session header: id (string), createdAt (number), cwd (string,
// optional); other keys are kept in Extra.
func HeaderFromValue(v any) (Header, error) {
	o, ok := v.(*wire.Object)
	if !ok {
		return Header{}, errors.New("not an object")
	}
	var h Header
	id, _ := o.Get("id")
	if h.ID, ok = id.(string); !ok {
		return h, errors.New("id is not a string")
	}
	ca, _ := o.Get("createdAt")
	if h.CreatedAt, ok = ca.(float64); !ok {
		return h, errors.New("createdAt is not a number")
	}
	if cv, present := o.Get("cwd"); present {
		c, ok := cv.(string)
		if !ok {
			return h, errors.New("cwd is not a string")
		}
		h.CWD = &c
	}
	for _, k := range o.Keys() {
		if k != "id" && k != "createdAt" && k != "cwd" {
			if h.Extra == nil {
				h.Extra = wire.NewObject()
			}
			x, _ := o.Get(k)
			h.Extra.Set(k, x)
		}
	}
	return h, nil
}

// Value returns the header as a JSON object: id, cwd, createdAt, then the extra keys.
func (h Header) Value() *wire.Object {
	o := wire.NewObject().Set("id", h.ID)
	if h.CWD != nil {
		o.Set("cwd", *h.CWD)
	}
	o.Set("createdAt", h.CreatedAt)
	if h.Extra != nil {
		for _, k := range h.Extra.Keys() {
			x, _ := h.Extra.Get(k)
			o.Set(k, x)
		}
	}
	return o
}

// Value returns the world document as a JSON value.
func (w *World) Value() *wire.Object {
	list := make([]any, 0, len(w.Sessions))
	for _, s := range w.Sessions {
		o := wire.NewObject().Set("header", s.Header.Value())
		setOpt(o, "title", s.Title)
		setOpt(o, "titleError", s.TitleError)
		if s.Surface != nil {
			so := wire.NewObject()
			if s.Surface.CapturedThroughSeq != nil {
				so.Set("capturedThroughSeq", *s.Surface.CapturedThroughSeq)
			} else {
				so.Set("capturedThroughSeq", nil)
			}
			ev := s.Surface.Events
			if ev == nil {
				ev = []any{}
			}
			o.Set("surface", so.Set("events", ev))
		}
		setOpt(o, "readError", s.ReadError)
		list = append(list, o)
	}
	root := wire.NewObject().Set("sessions", list)
	setOpt(root, "listError", w.ListError)
	return root
}

// Find returns the first session with the id, or nil: the one an implementation reads.
func (w *World) Find(id string) *Session {
	for i := range w.Sessions {
		if w.Sessions[i].Header.ID == id {
			return &w.Sessions[i]
		}
	}
	return nil
}

func setOpt(o *wire.Object, key string, v *string) {
	if v != nil {
		o.Set(key, *v)
	}
}

func onlyKeys(o *wire.Object, where string, keys ...string) error {
	for _, k := range o.Keys() {
		if !slices.Contains(keys, k) {
			return fmt.Errorf("%s: unknown key %s", where, wire.Quote(k))
		}
	}
	return nil
}

// optString reads an optional string; null counts as absent.
func optString(o *wire.Object, key, where string) (*string, error) {
	v, ok := o.Get(key)
	if !ok || v == nil {
		return nil, nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("%s.%s: not a string", where, key)
	}
	return &s, nil
}

// Agent is the target session of a candidates, prepare or host request: the agent argument
// {"id": S, "cwd"?: S}.
type Agent struct {
	ID  string
	CWD *string // nil: the agent has no working directory
}

// AgentFromValue reads a request's agent argument.
func AgentFromValue(v any) (Agent, error) {
	o, ok := v.(*wire.Object)
	if !ok {
		return Agent{}, errors.New("agent is not an object")
	}
	idv, _ := o.Get("id")
	id, ok := idv.(string)
	if !ok {
		return Agent{}, errors.New("agent.id is not a string")
	}
	a := Agent{ID: id}
	if cv, ok := o.Get("cwd"); ok {
		c, ok := cv.(string)
		if !ok {
			return Agent{}, errors.New("agent.cwd is not a string")
		}
		a.CWD = &c
	}
	return a, nil
}
