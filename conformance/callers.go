package conformance

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// handlerCaller calls an in-process Handler with the same guarantees the process path has: a
// per-call timeout and a panic turned into a transport error, so a broken Go implementation
// is reported like a broken adapter process instead of hanging or crashing the runner.
type handlerCaller struct {
	h       adapter.Handler
	timeout time.Duration
}

func (c handlerCaller) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	type answer struct {
		resp protocol.Response
		err  error
	}
	ch := make(chan answer, 1)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- answer{err: &adapter.TransportError{Op: req.Op, Kind: adapter.KindExited, Reason: fmt.Sprintf("handler panicked: %v", r)}}
			}
		}()
		if _, raw := c.h.(adapter.WireNumbers); !raw {
			req = req.Plain()
		}
		ch <- answer{resp: c.h.Handle(cctx, req)}
	}()
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	select {
	case a := <-ch:
		if a.err == nil && a.resp.ID != req.ID {
			return protocol.Response{}, &adapter.TransportError{Op: req.Op, Kind: adapter.KindProtocol, Reason: fmt.Sprintf("answered id %d to request id %d", a.resp.ID, req.ID)}
		}
		return a.resp, a.err
	case <-timer.C:
		// The handler goroutine cannot be stopped; its context is cancelled and it is left to
		// finish on its own.
		return protocol.Response{}, &adapter.TransportError{Op: req.Op, Kind: adapter.KindTimeout, Reason: fmt.Sprintf("no response within %v (raise it with --timeout)", c.timeout)}
	case <-ctx.Done():
		return protocol.Response{}, &adapter.TransportError{Op: req.Op, Kind: adapter.KindCancelled, Reason: "cancelled: " + context.Cause(ctx).Error()}
	}
}

// guard stops calling an adapter that cannot be certified in bounded time: after max failed
// calls in a row, after maxTimeouts timed-out calls over the whole run (each costs a full
// timeout, and a flaky adapter that answers a few calls after each restart never fails many
// in a row), or once the run's deadline has passed. Once tripped, every call fails at once
// and the run reports the adapter unusable.
type guard struct {
	c           adapter.Caller
	max         int
	maxTimeouts int
	deadline    time.Duration // the run's, for the message; the context carries it

	mu          sync.Mutex
	consecutive int
	timeouts    int
	last        string
	tripped     string
}

// errDeadline is the cause of the run's context ending at Runner.Deadline.
var errDeadline = errors.New("the run's deadline passed")

func (g *guard) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	g.mu.Lock()
	if g.tripped == "" && ctx.Err() != nil {
		g.tripCtx(ctx)
	}
	if g.tripped != "" {
		reason := g.tripped
		g.mu.Unlock()
		return protocol.Response{}, &adapter.TransportError{Op: req.Op, Kind: adapter.KindNotSent, Reason: "not sent: " + reason}
	}
	g.mu.Unlock()
	resp, err := g.c.Call(ctx, req)
	g.mu.Lock()
	defer g.mu.Unlock()
	if err == nil {
		g.consecutive = 0
		return resp, nil
	}
	g.consecutive++
	g.last = err.Error()
	if adapter.KindOf(err) == adapter.KindTimeout {
		g.timeouts++
	}
	switch {
	case g.tripped != "":
	case ctx.Err() != nil:
		g.tripCtx(ctx)
	case g.timeouts >= g.maxTimeouts:
		g.tripped = fmt.Sprintf("%d calls timed out, the budget of the run (raise it with --max-timeouts); the last: %s", g.timeouts, g.last)
	case g.consecutive >= g.max:
		g.tripped = fmt.Sprintf("the adapter failed %d calls in a row, the last: %s", g.consecutive, g.last)
	}
	return resp, err
}

func (g *guard) tripCtx(ctx context.Context) {
	if errors.Is(context.Cause(ctx), errDeadline) {
		g.tripped = fmt.Sprintf("the run's deadline of %v passed (raise it with --deadline)", g.deadline)
		return
	}
	g.tripped = "the run was cancelled: " + context.Cause(ctx).Error()
}

// unusable returns why the guard gave up on the adapter, or "".
func (g *guard) unusable() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tripped
}

// timedOut returns how many calls timed out.
func (g *guard) timedOut() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.timeouts
}
