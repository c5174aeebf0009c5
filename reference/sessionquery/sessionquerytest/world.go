// Package sessionquerytest implements an in-memory session-query service for tests of the
// session-reference service, as testing/fstest stands beside io/fs: World, a list of sessions
// held in memory and written as a Go literal (as an fstest.MapFS is), and Recorder, which
// records the calls made to any sessionquery.Querier.
package sessionquerytest

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// World is an in-memory sessionquery.Querier over a list of sessions, written as a Go
// literal:
//
//	w := &sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{
//		{Header: sessionquery.Header{ID: "a", CreatedAt: 1}, Title: &title},
//		{Header: sessionquery.Header{ID: "b", CreatedAt: 2}, ReadError: &gone},
//	}}
//
// It lists the sessions in order, or fails with ListError; reads a title as a fulfilled
// settlement (with or without a title) or, with TitleError, a rejected one; and reads a
// surface or fails with ReadError. Its queries only read it, so any number may run at once;
// changing Sessions while a query runs is a race. Wrap it in a Recorder to see the calls made.
type World struct {
	Sessions  []WorldSession
	ListError *string
}

// WorldSession is one session of a World.
type WorldSession struct {
	Header     sessionquery.Header
	Title      *string
	TitleError *string
	Surface    *sessionquery.Surface // nil reads as an empty surface with capturedThroughSeq null; its Session is Header
	ReadError  *string
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

// ListSessions lists every session in order, or fails with ListError. Records
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
// settlement for an unknown id ("session not found") or a session with TitleError, a
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
// session has none), or fails when the session is unknown or has a ReadError. The first
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
