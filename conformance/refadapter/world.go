package refadapter

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
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

// worldFromValue reads a request's world document into the reference's service.
func worldFromValue(v any) (*sessionquerytest.World, error) {
	w, err := protocol.WorldFromValue(v)
	if err != nil {
		return nil, err
	}
	return World(w), nil
}
