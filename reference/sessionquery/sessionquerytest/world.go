// Package sessionquerytest implements an in-memory session-query service for tests of the
// session-reference service, as testing/fstest stands beside io/fs: World, a list of sessions
// held in memory (written as a Go literal or read from a JSON document with ParseWorld), and
// Recorder, which records the calls made to any sessionquery.Querier.
package sessionquerytest

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// World is an in-memory sessionquery.Querier over a list of sessions. As a JSON document
// (ParseWorld, Value) it reads:
//
//	{"sessions":[{"header":{"id":S,"cwd"?:S,"createdAt":N,…},"title"?:S,"titleError"?:S,
//	  "surface"?:{"capturedThroughSeq":N|null,"events":[…]},"readError"?:S}],"listError"?:S}
//
// It lists the sessions in order, reads a title as a fulfilled settlement (with or
// without a title) or, with titleError, a rejected one, and reads a surface or fails with
// readError. Its queries only read it, so any number may run at once; changing Sessions
// while a query runs is a race. Wrap it in a Recorder to see the calls made.
type World struct {
	Sessions  []WorldSession
	ListError *string
}

// WorldSession is one session of a World.
type WorldSession struct {
	Header     sessionquery.Header
	Title      *string
	TitleError *string
	Surface    *sessionquery.Surface // nil reads as an empty surface with capturedThroughSeq null
	ReadError  *string
}

// ParseWorld reads a world document from JSON text.
func ParseWorld(text string) (*World, error) {
	v, err := jsjson.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("world: %w", err)
	}
	return WorldFromValue(v)
}

// WorldFromValue reads a world document from a parsed JSON value. Unknown keys and values of
// the wrong type are errors, so a typo in a test cannot silently change its meaning.
func WorldFromValue(v any) (*World, error) {
	root, ok := v.(*jsjson.Object)
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

func sessionFromValue(v any, where string) (WorldSession, error) {
	o, ok := v.(*jsjson.Object)
	if !ok {
		return WorldSession{}, fmt.Errorf("%s: not an object", where)
	}
	if err := onlyKeys(o, where, "header", "title", "titleError", "surface", "readError"); err != nil {
		return WorldSession{}, err
	}
	var s WorldSession
	hv, _ := o.Get("header")
	h, err := sessionquery.HeaderFromValue(hv)
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
		so, ok := sv.(*jsjson.Object)
		if !ok {
			return s, fmt.Errorf("%s.surface: not an object", where)
		}
		if err := onlyKeys(so, where+".surface", "capturedThroughSeq", "events"); err != nil {
			return s, err
		}
		surf := sessionquery.Surface{Session: h}
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

// Value returns the world document as a JSON value.
func (w *World) Value() *jsjson.Object {
	root := jsjson.NewObject()
	list := make([]any, 0, len(w.Sessions))
	for _, s := range w.Sessions {
		o := jsjson.NewObject()
		o.Set("header", s.Header.Value())
		setOpt(o, "title", s.Title)
		setOpt(o, "titleError", s.TitleError)
		if s.Surface != nil {
			so := jsjson.NewObject()
			if s.Surface.CapturedThroughSeq != nil {
				so.Set("capturedThroughSeq", *s.Surface.CapturedThroughSeq)
			} else {
				so.Set("capturedThroughSeq", nil)
			}
			ev := s.Surface.Events
			if ev == nil {
				ev = []any{}
			}
			so.Set("events", ev)
			o.Set("surface", so)
		}
		setOpt(o, "readError", s.ReadError)
		list = append(list, o)
	}
	root.Set("sessions", list)
	setOpt(root, "listError", w.ListError)
	return root
}

func setOpt(o *jsjson.Object, key string, v *string) {
	if v != nil {
		o.Set(key, *v)
	}
}

func onlyKeys(o *jsjson.Object, where string, keys ...string) error {
next:
	for _, k := range o.Keys() {
		for _, want := range keys {
			if k == want {
				continue next
			}
		}
		return fmt.Errorf("%s: unknown key %s", where, jsjson.Quote(k))
	}
	return nil
}

// optString reads an optional string; null counts as absent.
func optString(o *jsjson.Object, key, where string) (*string, error) {
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

// Clone returns a copy of w that a test may change without changing w: the session list and
// each surface are copied, the events are shared (a change must replace them, never write
// into them). The copy costs one allocation per surface, whatever its size.
func (w *World) Clone() *World {
	c := &World{ListError: w.ListError, Sessions: slices.Clone(w.Sessions)}
	for i := range c.Sessions {
		if s := c.Sessions[i].Surface; s != nil {
			sc := *s
			c.Sessions[i].Surface = &sc
		}
	}
	return c
}

func (w *World) find(id string) *WorldSession {
	for i := range w.Sessions {
		if w.Sessions[i].Header.ID == id {
			return &w.Sessions[i]
		}
	}
	return nil
}

// ListSessions lists every session in document order, or fails with listError. Records
// are persisted and not live.
func (w *World) ListSessions(context.Context) ([]sessionquery.Record, error) {
	if w.ListError != nil {
		return nil, errors.New(*w.ListError)
	}
	out := make([]sessionquery.Record, len(w.Sessions))
	for i, s := range w.Sessions {
		out[i] = sessionquery.Record{Header: s.Header, Persisted: true}
	}
	return out, nil
}

// ReadTitleSnapshots settles each unique id once, in first-occurrence order: a rejected
// settlement for an unknown id ("session not found") or a session with titleError, a
// fulfilled one otherwise. The first session with an id wins.
func (w *World) ReadTitleSnapshots(_ context.Context, ids []string) ([]sessionquery.TitleSettlement, error) {
	out := make([]sessionquery.TitleSettlement, 0, len(ids))
	// Index the sessions once per call: finding each id by a linear scan made a query over n
	// sessions cost n² comparisons. The first session with an id wins, as in find. A session
	// settles once (seen by position); unknown ids, rare, are remembered in a map of their own.
	index := make(map[string]int, len(w.Sessions))
	for i := len(w.Sessions) - 1; i >= 0; i-- {
		index[w.Sessions[i].Header.ID] = i
	}
	seen := make([]bool, len(w.Sessions))
	var seenUnknown map[string]bool
	for _, id := range ids {
		i, known := index[id]
		if !known {
			if seenUnknown[id] {
				continue
			}
			if seenUnknown == nil {
				seenUnknown = map[string]bool{}
			}
			seenUnknown[id] = true
			out = append(out, sessionquery.TitleSettlement{SessionID: id, Err: errors.New("session not found")})
			continue
		}
		if seen[i] {
			continue
		}
		seen[i] = true
		s := &w.Sessions[i]
		if s.TitleError != nil {
			out = append(out, sessionquery.TitleSettlement{SessionID: id, Err: errors.New(*s.TitleError)})
		} else {
			out = append(out, sessionquery.TitleSettlement{SessionID: id, Session: s.Header, Title: s.Title})
		}
	}
	return out, nil
}

// ReadSurface returns the session's surface (an empty one, capturedThroughSeq null, when the
// document gives none), or fails when the session is unknown or has a readError. The first
// session with an id wins.
func (w *World) ReadSurface(_ context.Context, id string) (sessionquery.Surface, error) {
	s := w.find(id)
	if s == nil {
		return sessionquery.Surface{}, fmt.Errorf("session %s not found", jsjson.Quote(id))
	}
	if s.ReadError != nil {
		return sessionquery.Surface{}, errors.New(*s.ReadError)
	}
	if s.Surface == nil {
		return sessionquery.Surface{Session: s.Header}, nil
	}
	surf := *s.Surface
	surf.Session = s.Header
	return surf, nil
}
