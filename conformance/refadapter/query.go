package refadapter

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// Query is the session query of one candidates, prepare or host.send request as the
// reference's service sees it: the request's world behind Calls, which records the calls (the
// answer reports them) and, for the protocol's cancel modes, holds one.
type Query struct {
	World *sessionquerytest.World
	*Calls
}

// NewQuery wraps the world of one request for the reference adapter.
func NewQuery(w *sessionquerytest.World) *Query {
	return &Query{World: w, Calls: &Calls{}}
}

// ListSessions records the listing and lists the world unless it is the call held.
func (q *Query) ListSessions(ctx context.Context) (recs []sessionquery.Record, err error) {
	end, err := q.List(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { end(err) }()
	return q.World.ListSessions(ctx)
}

// ReadTitleSnapshots records ids and reads the world's titles unless it is the call held.
func (q *Query) ReadTitleSnapshots(ctx context.Context, ids []string) (titles []sessionquery.TitleSettlement, err error) {
	end, err := q.Titles(ctx, ids)
	if err != nil {
		return nil, err
	}
	defer func() { end(err) }()
	return q.World.ReadTitleSnapshots(ctx, ids)
}

// ReadSurface records id and reads the world's surface unless it is the call held.
func (q *Query) ReadSurface(ctx context.Context, id string) (surf sessionquery.Surface, err error) {
	end, err := q.Read(ctx, id)
	if err != nil {
		return sessionquery.Surface{}, err
	}
	defer func() { end(err) }()
	return q.World.ReadSurface(ctx, id)
}

// Calls are the session-query calls of one request as the protocol sees them, whatever the
// types of the store they reach: each is recorded as it is made (a call that never returns is
// recorded too) and, once a cancel mode is armed, the one call it names is held. A store calls
// List, Titles or Read first and, unless told to fail, the end function when its call
// completes. The reference adapter and conformancetest's Go-port bridge share it, so the
// cancel modes and the recorded calls behave the same for both.
// The zero value is ready to use and safe for concurrent use.
type Calls struct {
	mu         sync.Mutex
	lists      int
	titleReads []string
	reads      []string

	hold hold
}

// List records a listing and begins it: it returns the function the call runs with its error
// when it completes, or, for the call held, the error of ctx once ctx ends.
func (c *Calls) List(ctx context.Context) (end func(error), err error) {
	c.mu.Lock()
	c.lists++
	c.mu.Unlock()
	return c.hold.begin(ctx, nil)
}

// Titles records a title read of ids and begins it, as List does.
func (c *Calls) Titles(ctx context.Context, ids []string) (end func(error), err error) {
	c.mu.Lock()
	c.titleReads = append(c.titleReads, ids...)
	c.mu.Unlock()
	return c.hold.begin(ctx, nil)
}

// Read records a surface read of id and begins it, as List does.
func (c *Calls) Read(ctx context.Context, id string) (end func(error), err error) {
	c.mu.Lock()
	c.reads = append(c.reads, id)
	c.mu.Unlock()
	return c.hold.begin(ctx, &id)
}

// Lists returns how many listings were made.
func (c *Calls) Lists() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lists
}

// TitleReads returns the ids of every title read, over all calls, in call order.
func (c *Calls) TitleReads() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string{}, c.titleReads...)
}

// Reads returns the ids of the surface reads, in call order. A service that starts its reads
// concurrently makes them in no fixed order.
func (c *Calls) Reads() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string{}, c.reads...)
}

// CancelOnFirstCall makes the first query call stay pending, as a read the host aborts
// (protocol cancel "during-read"). The abort is decided by what the other calls return, not
// by a clock: once others further calls have returned and all of them succeeded, it invokes
// cancel at once; if one failed, it never does (the service must fail on that read, as the
// seed's Promise.all rejects before a later abort), and the held call pends until Release.
// Either way, once aborted, it returns when its context has ended and the service has
// returned (Release; a Go port's, heldGrace after the abort at most). With readID set, the
// held call is instead the ReadSurface of that id: a service that starts its reads
// concurrently cannot say which call comes first, while JavaScript starts the first input's
// read first.
func (c *Calls) CancelOnFirstCall(cancel func(), others int, readID ...string) {
	c.hold.arm(cancel, others, false, readID)
}

// CancelInFirstCall makes the first query call invoke cancel as it is made, before it
// returns, and then stay pending as CancelOnFirstCall's call does (protocol cancel "at-call").
// Every other call returns only once that abort has happened: one made earlier waits for it
// (madeGrace at most, for a service that never makes the held call). In JavaScript the seed
// makes every read before it sees any outcome, so no outcome precedes the abort; a service
// on threads may make them in any order, and the wait gives it the seed's order. With readID
// set, the call is the ReadSurface of that id, as for CancelOnFirstCall.
func (c *Calls) CancelInFirstCall(cancel func(), readID ...string) {
	c.hold.arm(cancel, 0, true, readID)
}

// ArmList sets up the protocol's cancel mode (a request's "cancel" value) for a candidates
// request: "during-read" holds the first call (CancelOnFirstCall), "at-call" cancels in it
// (CancelInFirstCall); the other modes are the caller's, before the call or never.
func (c *Calls) ArmList(mode any, cancel func()) {
	switch mode {
	case protocol.CancelDuringRead:
		c.CancelOnFirstCall(cancel, 0)
	case protocol.CancelAtCall:
		c.CancelInFirstCall(cancel)
	}
}

// ArmReads does what ArmList does for a prepare request whose normalized sources are ids, in
// order: the held call is the first source's read, once the others completed. With no source
// nothing is held.
func (c *Calls) ArmReads(mode any, cancel func(), ids []string) {
	if len(ids) == 0 {
		return
	}
	switch mode {
	case protocol.CancelDuringRead:
		c.CancelOnFirstCall(cancel, len(ids)-1, ids[0])
	case protocol.CancelAtCall:
		c.CancelInFirstCall(cancel, ids[0])
	}
}

// Release ends the call a cancel mode held, once the service (the reference's, or a Go
// port's) has returned (see hold.release). The reference adapter and conformancetest's bridge
// defer it; calling it again, or with nothing held, does nothing.
func (c *Calls) Release() {
	c.hold.mu.Lock()
	release := c.hold.release
	c.hold.mu.Unlock()
	if release != nil {
		c.hold.releaseOnce.Do(func() { close(release) })
	}
}

// WaitReads waits until at least n reads were made or timeout passes, and returns them: a
// service that starts reads in goroutines may return before the last of them has called in.
func (c *Calls) WaitReads(n int, timeout time.Duration) []string {
	deadline := time.Now().Add(timeout)
	for {
		r := c.Reads()
		if len(r) >= n || time.Now().After(deadline) {
			return r
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// hold holds the one call arm chose.
type hold struct {
	mu        sync.Mutex
	calls     int
	onFirst   func()
	others    int
	holdID    *string
	held      bool
	immediate bool // CancelInFirstCall: the held call cancels at once
	// eager: the caller is the reference's service, which makes every call it will make
	// without waiting for a held one (see Reference.setup): no grace is needed for a
	// service that never returns.
	eager     bool
	completed chan error    // each other call's error, nil for a success
	started   chan struct{} // one for each other call made
	// made is closed once the held call of CancelInFirstCall has aborted: the other calls
	// wait for it, so no outcome precedes the abort.
	made     chan struct{}
	madeOnce sync.Once
	// release ends the held call (Release): until then it stays pending after the abort,
	// as a JavaScript read the host aborts never settles (a Go port's for heldGrace at
	// most). Returning at the abort instead would race the service's own wait on ctx (a Go
	// select picks either when both are ready), so the service would sometimes fail with
	// the read's error, not cancelled.
	release     chan struct{}
	releaseOnce sync.Once
}

func (h *hold) arm(cancel func(), others int, immediate bool, readID []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(readID) > 0 {
		h.holdID = &readID[0]
	}
	h.onFirst = cancel
	h.others = others
	h.immediate = immediate
	h.completed = make(chan error, others+64)
	h.started = make(chan struct{}, others+64)
	if immediate {
		h.made = make(chan struct{})
	}
	h.release = make(chan struct{})
}

// pendAfterAbort keeps a held call pending once ctx ends, as an aborted JavaScript read never
// settles: until Release for an eager caller (the reference's service), and for a Go port
// until Release or heldGrace, whichever comes first. A port that waits on ctx and on the
// call together (a select) then sees the abort alone, every time; one that waits on the
// call alone is not left waiting for ever, and gets ctx's error after heldGrace.
func (h *hold) pendAfterAbort(ctx context.Context, eager bool, release chan struct{}) error {
	<-ctx.Done()
	switch {
	case release == nil:
	case eager:
		<-release
	default:
		t := time.NewTimer(heldGrace)
		defer t.Stop()
		select {
		case <-release:
		case <-t.C:
		}
	}
	return ctx.Err()
}

// heldGrace is how long a Go port's held call stays pending after the abort, unless the port
// returns first (see pendAfterAbort), and how long, in "during-read" after another call
// failed, a port that waits for the held call alone waits before the abort ends it. None decides the answer of a service
// that waits as the seed does; each only ends a wait that would otherwise last for ever.
const heldGrace = 200 * time.Millisecond

// errReleased is what a held call of "during-read" returns when the service returned, after
// another call failed, without aborting: nothing is waiting for it any more.
var errReleased = errors.New("refadapter: held call ended: the service returned")

// begin counts a call and, for the one to hold, holds it. It returns the function the call
// runs when it completes, with its error.
func (h *hold) begin(ctx context.Context, readID *string) (end func(error), err error) {
	h.mu.Lock()
	var hold bool
	if h.holdID != nil {
		hold = readID != nil && *readID == *h.holdID && h.onFirst != nil && !h.held
		h.held = h.held || hold
	} else {
		h.calls++
		hold = h.calls == 1 && h.onFirst != nil
	}
	cancel, others, completed, started, immediate, eager, made, release := h.onFirst, h.others, h.completed, h.started, h.immediate, h.eager, h.made, h.release
	h.mu.Unlock()
	switch {
	case hold && immediate:
		cancel()
		h.madeOnce.Do(func() { close(made) })
		return nil, h.pendAfterAbort(ctx, eager, release)
	case hold:
		return nil, h.holdDuringRead(ctx, cancel, others, completed, started, eager, release)
	}
	if started != nil {
		select {
		case started <- struct{}{}:
		default:
		}
	}
	if made != nil {
		// at-call: this call returns after the abort, as every outcome does in the seed. The
		// reference's service always makes the held call, so it gets no backstop: however
		// late the scheduler runs that call, the answer is the same.
		var backstop <-chan time.Time
		if !eager {
			t := time.NewTimer(madeGrace)
			defer t.Stop()
			backstop = t.C
		}
		select {
		case <-made:
		case <-release:
		case <-backstop:
		}
	}
	return func(err error) {
		if completed != nil {
			select {
			case completed <- err:
			default:
			}
		}
	}, nil
}

// holdDuringRead is the held call of "during-read": it aborts once the others calls have
// returned, all successfully; after a failure it pends, unaborted, until the service
// returns. Two backstops end waits that would otherwise last for ever, for a Go port that
// waits for the held call alone: one that has not made every other call within madeGrace
// (it reads one source after another) is aborted then, and one still waiting heldGrace
// after a failure (it waits for every read) too. Neither decides anything for a port that
// makes its reads at once and fails on the first failure, as the seed does.
func (h *hold) holdDuringRead(ctx context.Context, cancel func(), others int, completed chan error, started chan struct{}, eager bool, release chan struct{}) error {
	failed := false
	made, done := 0, 0
	var notMade <-chan time.Time
	if !eager && others > 0 {
		t := time.NewTimer(madeGrace)
		defer t.Stop()
		notMade = t.C
	}
	for done < others && !failed {
		select {
		case <-started:
			if made++; made >= others {
				notMade = nil
			}
		case err := <-completed:
			done++
			failed = err != nil
		case <-release:
			return errReleased
		case <-ctx.Done():
			return h.pendAfterAbort(ctx, eager, release)
		case <-notMade:
			cancel()
			return h.pendAfterAbort(ctx, eager, release)
		}
	}
	if failed {
		var backstop <-chan time.Time
		if !eager {
			t := time.NewTimer(heldGrace)
			defer t.Stop()
			backstop = t.C
		}
		select {
		case <-release:
			return errReleased
		case <-ctx.Done():
		case <-backstop:
		}
	}
	cancel()
	return h.pendAfterAbort(ctx, eager, release)
}

// madeGrace is how long the held call of "during-read" waits for a Go port to make the other
// calls before it aborts (see holdDuringRead), and how long a call of "at-call" waits for the
// held call to be made: a port that starts its reads at once makes them within microseconds;
// one that reads sources one after another never does.
const madeGrace = 500 * time.Millisecond
