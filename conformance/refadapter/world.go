package refadapter

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// World returns the reference's in-memory session-query service holding the sessions of a
// protocol world document: the one place the kit's world becomes the reference's.
func World(w *protocol.World) *sessionquerytest.World {
	out := &sessionquerytest.World{ListError: w.ListError, Sessions: make([]sessionquerytest.WorldSession, len(w.Sessions))}
	for i, s := range w.Sessions {
		h := header(s.Header)
		ws := sessionquerytest.WorldSession{Header: h, Title: s.Title, TitleError: s.TitleError, ReadError: s.ReadError}
		if s.Surface != nil {
			events, _ := ToReference(s.Surface.Events).([]any)
			ws.Surface = &sessionquery.Surface{Session: h, CapturedThroughSeq: s.Surface.CapturedThroughSeq, Events: events}
		}
		out.Sessions[i] = ws
	}
	return out
}

func header(h protocol.Header) sessionquery.Header {
	extra, _ := ToReference(h.Extra).(*jsjson.Object)
	return sessionquery.Header{ID: h.ID, CWD: h.CWD, CreatedAt: h.CreatedAt, Extra: extra}
}

// worldArgument is a request's world argument: the kit's values (in process), or, over
// stdio, a skeleton of them whose events are already the reference's (see decodeWorld).
type worldArgument struct {
	value  any
	events map[int][]any // sessions[i].surface.events, in the reference's values
}

// readWorldArg returns a world argument as it came: a wire.Raw (adapter.Serve keeps the
// world as its text for Reference, see RawArg) is decoded here, once.
func readWorldArg(v any) (worldArgument, error) {
	raw, ok := v.(wire.Raw)
	if !ok {
		return worldArgument{value: v}, nil
	}
	return decodeWorld(raw)
}

// decodeWorld decodes a world's text once, with the reference's JSON.parse, as the
// published package's adapter decodes its requests with JavaScript's: the events, nearly all
// of a world, stay in the reference's values as decoded. The rest (the document's skeleton:
// sessions, headers, surfaces with their events left empty) is given in the kit's values, for
// protocol.WorldFromValue to check and read as it reads any world, with the same errors.
func decodeWorld(raw wire.Raw) (worldArgument, error) {
	v, err := jsjson.Parse(string(raw))
	if err != nil { // wire accepted the text; the two codecs are tested to agree
		return worldArgument{}, err
	}
	root, ok := v.(*jsjson.Object)
	if !ok {
		return worldArgument{value: FromReference(v)}, nil
	}
	arg := worldArgument{events: map[int][]any{}}
	arg.value = skeleton(root, func(k string, e any) (any, bool) {
		sessions, ok := e.([]any)
		if k != "sessions" || !ok {
			return nil, false
		}
		out := make([]any, len(sessions))
		for i, s := range sessions {
			so, ok := s.(*jsjson.Object)
			if !ok {
				out[i] = FromReference(s)
				continue
			}
			out[i] = skeleton(so, func(k string, e any) (any, bool) {
				surf, ok := e.(*jsjson.Object)
				if k != "surface" || !ok {
					return nil, false
				}
				return skeleton(surf, func(k string, e any) (any, bool) {
					events, ok := e.([]any)
					if k != "events" || !ok {
						return nil, false
					}
					arg.events[i] = events
					return []any{}, true
				}), true
			})
		}
		return out, true
	})
	return arg, nil
}

// skeleton is FromReference of an object, except for the members keep converts itself (it
// returns true with their value).
func skeleton(o *jsjson.Object, keep func(k string, v any) (any, bool)) *wire.Object {
	out := wire.NewObject()
	for _, k := range o.Keys() {
		e, _ := o.Get(k)
		if x, ok := keep(k, e); ok {
			out.Set(k, x)
		} else {
			out.Set(k, FromReference(e))
		}
	}
	return out
}

// world reads the document into the reference's service.
func (a worldArgument) world() (*sessionquerytest.World, error) {
	w, err := protocol.WorldFromValue(a.value)
	if err != nil {
		return nil, err
	}
	out := World(w)
	for i, events := range a.events {
		out.Sessions[i].Surface.Events = events // WorldFromValue keeps sessions in order
	}
	return out, nil
}
