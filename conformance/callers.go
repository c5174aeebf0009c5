package conformance

import (
	"context"
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
				ch <- answer{err: &adapter.TransportError{Op: req.Op, Reason: fmt.Sprintf("handler panicked: %v", r)}}
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
			return protocol.Response{}, &adapter.TransportError{Op: req.Op, Reason: fmt.Sprintf("answered id %d to request id %d", a.resp.ID, req.ID)}
		}
		return a.resp, a.err
	case <-timer.C:
		// The handler goroutine cannot be stopped; its context is cancelled and it is left to
		// finish on its own.
		return protocol.Response{}, &adapter.TransportError{Op: req.Op, Reason: fmt.Sprintf("no response within %v (raise it with --timeout)", c.timeout)}
	case <-ctx.Done():
		return protocol.Response{}, &adapter.TransportError{Op: req.Op, Reason: "cancelled: " + ctx.Err().Error()}
	}
}

// guard stops calling an adapter that failed too many calls in a row: each failure of a hung
// adapter costs a full timeout, so without it a dead adapter would keep a run going for hours.
// Once tripped, every call fails at once and the run reports the adapter unusable.
type guard struct {
	c   adapter.Caller
	max int

	mu          sync.Mutex
	consecutive int
	last        string
	tripped     string
}

func (g *guard) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	g.mu.Lock()
	if g.tripped != "" {
		reason := g.tripped
		g.mu.Unlock()
		return protocol.Response{}, &adapter.TransportError{Op: req.Op, Reason: "not sent: " + reason}
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
	if g.consecutive >= g.max || ctx.Err() != nil {
		g.tripped = fmt.Sprintf("the adapter failed %d calls in a row, the last: %s", g.consecutive, g.last)
		if ctx.Err() != nil {
			g.tripped = "the run was cancelled: " + ctx.Err().Error()
		}
	}
	return resp, err
}

// unusable returns why the guard gave up on the adapter, or "".
func (g *guard) unusable() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tripped
}
