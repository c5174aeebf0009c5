package sessionquery

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// World is an in-memory session-query service built from a world document (spec SR-QUERY-4):
//
//	{"sessions":[{"header":{"id":S,"cwd"?:S,"createdAt":N,…},"title"?:S,"titleError"?:S,
//	  "surface"?:{"capturedThroughSeq":N|null,"events":[…]},"readError"?:S}],"listError"?:S}
//
// It lists the sessions in document order, reads a title as a fulfilled settlement (with or
// without a title) or, with titleError, a rejected one, and reads a surface or fails with
// readError. It records the ids passed to ReadSurface and ReadTitleSnapshots. A World is safe
// for concurrent use.
type World struct {
	Sessions  []WorldSession
	ListError *string

	mu         sync.Mutex
	reads      []string
	titleReads []string
	lists      int
	calls      int
	onFirst    func()
	others     int
	holdID     *string
	held       bool
	immediate  bool // CancelInFirstCall: the held call cancels at once
	completed  chan struct{}
}

// WorldSession is one session of a World.
type WorldSession struct {
	Header     Header
	Title      *string
	TitleError *string
	Surface    *Surface // nil reads as an empty surface with capturedThroughSeq null
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
// the wrong type are errors, so a typo in a fixture cannot silently change its meaning.
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
		so, ok := sv.(*jsjson.Object)
		if !ok {
			return s, fmt.Errorf("%s.surface: not an object", where)
		}
		if err := onlyKeys(so, where+".surface", "capturedThroughSeq", "events"); err != nil {
			return s, err
		}
		surf := Surface{Session: h}
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
	o, ok := v.(*jsjson.Object)
	if !ok {
		return Header{}, errors.New("not an object")
	}
	var h Header
	id, ok := o.Get("id")
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
				h.Extra = jsjson.NewObject()
			}
			x, _ := o.Get(k)
			h.Extra.Set(k, x)
		}
	}
	return h, nil
}

// Value returns the header as a JSON object: id, cwd, createdAt, then the extra keys.
func (h Header) Value() *jsjson.Object {
	o := jsjson.NewObject()
	o.Set("id", h.ID)
	if h.CWD != nil {
		o.Set("cwd", *h.CWD)
	}
	o.Set("createdAt", h.CreatedAt)
	for _, k := range h.Extra.Keys() {
		x, _ := h.Extra.Get(k)
		o.Set(k, x)
	}
	return o
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

// CancelOnFirstCall makes the World's first query call stay pending, as a read the host
// aborts (protocol cancel "during-read"): once others further calls have completed, it invokes
// cancel, then it returns when its context ends. Waiting for the other calls mirrors
// JavaScript, where reads that settle at once do so before a timer-driven abort. With
// readID set, the held call is instead the ReadSurface of that id: a caller that starts its
// reads concurrently cannot say which call comes first, while JavaScript starts the first
// input's read first.
func (w *World) CancelOnFirstCall(cancel func(), others int, readID ...string) {
	w.mu.Lock()
	if len(readID) > 0 {
		w.holdID = &readID[0]
	}
	w.onFirst = cancel
	w.others = others
	w.completed = make(chan struct{}, others+64)
	w.mu.Unlock()
}

// CancelInFirstCall makes the World's first query call invoke cancel as it is made, before it
// returns, and then stay pending until its context ends (protocol cancel "at-call"). With
// readID set, the call is the ReadSurface of that id, as for CancelOnFirstCall.
func (w *World) CancelInFirstCall(cancel func(), readID ...string) {
	w.CancelOnFirstCall(cancel, 0, readID...)
	w.mu.Lock()
	w.immediate = true
	w.mu.Unlock()
}

// abortGrace is how long the held call waits, after the others completed, before it aborts.
const abortGrace = 20 * time.Millisecond

// begin counts a call and, for the first one under CancelOnFirstCall, holds it. It returns
// the function the call runs when it completes.
func (w *World) begin(ctx context.Context, readID *string) (end func(), err error) {
	w.mu.Lock()
	var hold bool
	if w.holdID != nil {
		hold = readID != nil && *readID == *w.holdID && w.onFirst != nil && !w.held
		w.held = w.held || hold
	} else {
		w.calls++
		hold = w.calls == 1 && w.onFirst != nil
	}
	cancel, others, completed, immediate := w.onFirst, w.others, w.completed, w.immediate
	w.mu.Unlock()
	if hold && immediate {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if !hold {
		return func() {
			if completed != nil {
				select {
				case completed <- struct{}{}:
				default:
				}
			}
		}, nil
	}
	go func() {
		for i := 0; i < others; i++ {
			select {
			case <-completed:
			case <-ctx.Done():
				return
			}
		}
		// A completed call has returned but its caller may not have taken the result yet;
		// JavaScript delivers such settlements before the abort, so give the caller a moment.
		time.Sleep(abortGrace)
		cancel()
	}()
	<-ctx.Done()
	return nil, ctx.Err()
}

// Reads returns the ids passed to ReadSurface, in call order.
func (w *World) Reads() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string{}, w.reads...)
}

// WaitReads waits until at least n reads were recorded or timeout passes, and returns them:
// a service that starts reads in goroutines may return before the last of them has called in.
func (w *World) WaitReads(n int, timeout time.Duration) []string {
	deadline := time.Now().Add(timeout)
	for {
		r := w.Reads()
		if len(r) >= n || time.Now().After(deadline) {
			return r
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// Lists returns how many times ListSessions was called.
func (w *World) Lists() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lists
}

// TitleReads returns the ids passed to ReadTitleSnapshots, over all calls, in call order.
func (w *World) TitleReads() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string{}, w.titleReads...)
}

func (w *World) find(id string) *WorldSession {
	for i := range w.Sessions {
		if w.Sessions[i].Header.ID == id {
			return &w.Sessions[i]
		}
	}
	return nil
}

// ListSessions lists every session in document order, or fails with listError.
func (w *World) ListSessions(ctx context.Context) ([]Record, error) {
	w.mu.Lock()
	w.lists++
	w.mu.Unlock()
	end, err := w.begin(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer end()
	if w.ListError != nil {
		return nil, errors.New(*w.ListError)
	}
	out := make([]Record, len(w.Sessions))
	for i, s := range w.Sessions {
		out[i] = Record{Header: s.Header, Persisted: true}
	}
	return out, nil
}

// ReadTitleSnapshots settles each unique id once, in first-occurrence order.
func (w *World) ReadTitleSnapshots(ctx context.Context, ids []string) ([]TitleSettlement, error) {
	w.mu.Lock()
	w.titleReads = append(w.titleReads, ids...)
	w.mu.Unlock()
	end, err := w.begin(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer end()
	out := make([]TitleSettlement, 0, len(ids))
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
			out = append(out, TitleSettlement{SessionID: id, Err: errors.New("session not found")})
			continue
		}
		if seen[i] {
			continue
		}
		seen[i] = true
		s := &w.Sessions[i]
		if s.TitleError != nil {
			out = append(out, TitleSettlement{SessionID: id, Err: errors.New(*s.TitleError)})
		} else {
			out = append(out, TitleSettlement{SessionID: id, Session: s.Header, Title: s.Title})
		}
	}
	return out, nil
}

// ReadSurface returns the session's surface, or fails when the session is unknown or has a
// readError.
func (w *World) ReadSurface(ctx context.Context, id string) (Surface, error) {
	w.mu.Lock()
	w.reads = append(w.reads, id)
	w.mu.Unlock()
	end, err := w.begin(ctx, &id)
	if err != nil {
		return Surface{}, err
	}
	defer end()
	s := w.find(id)
	if s == nil {
		return Surface{}, fmt.Errorf("session %s not found", jsjson.Quote(id))
	}
	if s.ReadError != nil {
		return Surface{}, errors.New(*s.ReadError)
	}
	if s.Surface == nil {
		return Surface{Session: s.Header}, nil
	}
	surf := *s.Surface
	surf.Session = s.Header
	return surf, nil
}
