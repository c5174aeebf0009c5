package refadapter

import (
	"context"
	"sync"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// Query is the session query of one candidates, prepare or host.send request: the request's
// world, its calls recorded (the answer reports them) and, for the protocol's cancel modes,
// one call held. The service is given Querier, which passes its calls to the held Querier,
// which passes them to the world.
type Query struct {
	World *sessionquerytest.World
	*sessionquerytest.Recorder
	hold *holdQuerier
}

// NewQuery wraps the world of one request; the reference adapter, the deprecated typed
// bridge and conformancetest's Go-port bridge share it, so the cancel modes and the recorded
// reads behave the same for all three.
func NewQuery(w *sessionquerytest.World) *Query {
	h := &holdQuerier{Querier: w}
	return &Query{World: w, Recorder: &sessionquerytest.Recorder{Querier: h}, hold: h}
}

// CancelOnFirstCall makes the first query call stay pending, as a read the host aborts
// (protocol cancel "during-read"): once others further calls have completed, it invokes
// cancel, then it returns when its context ends. Waiting for the other calls mirrors
// JavaScript, where reads that settle at once do so before a timer-driven abort. With readID
// set, the held call is instead the ReadSurface of that id: a service that starts its reads
// concurrently cannot say which call comes first, while JavaScript starts the first input's
// read first.
func (q *Query) CancelOnFirstCall(cancel func(), others int, readID ...string) {
	q.hold.arm(cancel, others, false, readID)
}

// CancelInFirstCall makes the first query call invoke cancel as it is made, before it
// returns, and then stay pending until its context ends (protocol cancel "at-call"). With
// readID set, the call is the ReadSurface of that id, as for CancelOnFirstCall.
func (q *Query) CancelInFirstCall(cancel func(), readID ...string) {
	q.hold.arm(cancel, 0, true, readID)
}

// ArmList sets up the protocol's cancel mode (a request's "cancel" value) for a candidates
// request: "during-read" holds the first call (CancelOnFirstCall), "at-call" cancels in it
// (CancelInFirstCall); the other modes are the caller's, before the call or never.
func (q *Query) ArmList(mode any, cancel func()) {
	switch mode {
	case protocol.CancelDuringRead:
		q.CancelOnFirstCall(cancel, 0)
	case protocol.CancelAtCall:
		q.CancelInFirstCall(cancel)
	}
}

// ArmReads does what ArmList does for a prepare request whose normalized sources are ids, in
// order: the held call is the first source's read, once the others completed. With no source
// nothing is held.
func (q *Query) ArmReads(mode any, cancel func(), ids []string) {
	if len(ids) == 0 {
		return
	}
	switch mode {
	case protocol.CancelDuringRead:
		q.CancelOnFirstCall(cancel, len(ids)-1, ids[0])
	case protocol.CancelAtCall:
		q.CancelInFirstCall(cancel, ids[0])
	}
}

// WaitReads waits until at least n reads were made or timeout passes, and returns them: a
// service that starts reads in goroutines may return before the last of them has called in.
func (q *Query) WaitReads(n int, timeout time.Duration) []string {
	deadline := time.Now().Add(timeout)
	for {
		r := q.Reads()
		if len(r) >= n || time.Now().After(deadline) {
			return r
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// holdQuerier passes calls to Querier, except the one call arm chose, which it holds.
type holdQuerier struct {
	sessionquery.Querier

	mu        sync.Mutex
	calls     int
	onFirst   func()
	others    int
	holdID    *string
	held      bool
	immediate bool // CancelInFirstCall: the held call cancels at once
	// eager: the caller is the reference's service, which has started every call before
	// the others complete and whose outcome a successful read cannot change (see
	// Reference.setup).
	eager     bool
	completed chan error // each other call's error, nil for a success
}

func (h *holdQuerier) arm(cancel func(), others int, immediate bool, readID []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(readID) > 0 {
		h.holdID = &readID[0]
	}
	h.onFirst = cancel
	h.others = others
	h.immediate = immediate
	h.completed = make(chan error, others+64)
}

// abortGrace is how long the held call waits, after the others completed, before it aborts.
const abortGrace = 20 * time.Millisecond

// begin counts a call and, for the one to hold, holds it. It returns the function the call
// runs when it completes, with its error.
func (h *holdQuerier) begin(ctx context.Context, readID *string) (end func(error), err error) {
	h.mu.Lock()
	var hold bool
	if h.holdID != nil {
		hold = readID != nil && *readID == *h.holdID && h.onFirst != nil && !h.held
		h.held = h.held || hold
	} else {
		h.calls++
		hold = h.calls == 1 && h.onFirst != nil
	}
	cancel, others, completed, immediate, eager := h.onFirst, h.others, h.completed, h.immediate, h.eager
	h.mu.Unlock()
	if hold && immediate {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if !hold {
		return func(err error) {
			if completed != nil {
				select {
				case completed <- err:
				default:
				}
			}
		}, nil
	}
	go func() {
		failed := false
		for i := 0; i < others; i++ {
			select {
			case err := <-completed:
				failed = failed || err != nil
			case <-ctx.Done():
				return
			}
		}
		if eager && !failed {
			// Nothing is pending but the held call, and the reads that succeeded decide
			// nothing: the service fails cancelled whenever the abort comes.
			cancel()
			return
		}
		// A completed call has returned but its caller may not have taken the result yet;
		// JavaScript delivers such settlements before the abort, so give the caller a moment.
		// The reference's service returns as soon as it takes a failure, which ends ctx.
		t := time.NewTimer(abortGrace)
		defer t.Stop()
		if eager {
			select {
			case <-t.C:
			case <-ctx.Done():
				return
			}
		} else {
			<-t.C
		}
		cancel()
	}()
	<-ctx.Done()
	return nil, ctx.Err()
}

// ListSessions lists through Querier unless it is the call held.
func (h *holdQuerier) ListSessions(ctx context.Context) (recs []sessionquery.Record, err error) {
	end, err := h.begin(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer func() { end(err) }()
	return h.Querier.ListSessions(ctx)
}

// ReadTitleSnapshots reads through Querier unless it is the call held.
func (h *holdQuerier) ReadTitleSnapshots(ctx context.Context, ids []string) (titles []sessionquery.TitleSettlement, err error) {
	end, err := h.begin(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer func() { end(err) }()
	return h.Querier.ReadTitleSnapshots(ctx, ids)
}

// ReadSurface reads through Querier unless it is the call held.
func (h *holdQuerier) ReadSurface(ctx context.Context, id string) (surf sessionquery.Surface, err error) {
	end, err := h.begin(ctx, &id)
	if err != nil {
		return sessionquery.Surface{}, err
	}
	defer func() { end(err) }()
	return h.Querier.ReadSurface(ctx, id)
}
