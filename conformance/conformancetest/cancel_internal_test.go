package conformancetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/internal/canceltest"
	"github.com/sessionref-kit/sessionref-kit/conformance/internal/refport"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// A Go port whose service waits on the context and on its session-query calls together (a
// select, as the reference's does: refport) answers a request whose cancel mode holds a call
// CANCELLED every time: the held call stays pending until the port has returned, as an
// aborted JavaScript read never settles. (It used to return ctx's error at the abort; the
// port's select then found both ready and could take the read's failure, no code: a
// correct port failed now and then.)
func TestHeldCallAlwaysCancelsAPort(t *testing.T) {
	t.Parallel()
	world, err := wire.Parse(`{"sessions":[{"header":{"id":"s-1","cwd":"/w","createdAt":1},"title":"t"},{"header":{"id":"s-2","createdAt":2}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	agent := wire.NewObject().Set("id", "me").Set("cwd", "/w")
	refs := canceltest.Refs
	b, _, err := newBridge(refport.Port{}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{protocol.CancelDuringRead, protocol.CancelAtCall} {
		for _, req := range []protocol.Request{
			{Op: protocol.OpCandidates, Args: wire.NewObject().Set("world", world).Set("agent", agent).Set("query", "").Set("cancel", mode)},
			{Op: protocol.OpPrepare, Args: wire.NewObject().Set("world", world).Set("agent", agent).Set("content", "x").Set("references", refs("s-1")).Set("cancel", mode)},
			{Op: protocol.OpPrepare, Args: wire.NewObject().Set("world", world).Set("agent", agent).Set("content", "x").Set("references", refs("s-1", "s-2")).Set("cancel", mode)},
		} {
			// Side by side, so the scheduler interleaves the held call, the abort and the
			// port's wait in as many orders as it will.
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					for i := range 25 {
						req := req
						req.ID = int64(g*1000 + i)
						resp := b.Handle(context.Background(), req)
						if resp.Err == nil || resp.Err.Code != contract.Cancelled {
							t.Errorf("%s, cancel %s, run %d: %+v, want %s", req.Op, mode, req.ID, resp.Err, contract.Cancelled)
							return
						}
					}
				})
			}
			wg.Wait()
		}
	}
}

// busyPort is the reference port, except that its ListCandidates starts the listing, is busy
// for a while, and then waits on the context and the listing together: a port under load.
// The host aborts during the listing; a JavaScript listing the host aborts never settles, so
// the port must answer CANCELLED.
type busyPort struct{ refport.Port }

func (p busyPort) NewService(store goport.SessionStore, cfg goport.Config) (goport.Service, error) {
	svc, err := p.Port.NewService(store, cfg)
	return busyService{Service: svc, store: store}, err
}

type busyService struct {
	goport.Service
	store goport.SessionStore
}

func (s busyService) ListCandidates(ctx context.Context, agent goport.Agent, query string, limit goport.Optional[goport.Int]) ([]goport.Candidate, error) {
	listed := make(chan error, 1)
	go func() {
		_, err := s.store.ListSessions(ctx)
		listed <- err
	}()
	time.Sleep(60 * time.Millisecond) // busy, past the abort
	select {
	case <-ctx.Done():
		return nil, goport.Cancelled
	case err := <-listed:
		if err != nil {
			return nil, &goport.Error{Code: "", Message: "listing failed", Err: err}
		}
	}
	return s.Service.ListCandidates(ctx, agent, query, limit)
}

// The busy port finds both the abort and the held listing's outcome ready when it looks, if
// the held call has returned by then: it must not have (see TestHeldCallAlwaysCancelsAPort).
func TestHeldCallPendsWhileThePortIsBusy(t *testing.T) {
	t.Parallel()
	world, err := wire.Parse(`{"sessions":[{"header":{"id":"s-1","cwd":"/w","createdAt":1},"title":"t"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := newBridge(busyPort{}, "")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			req := protocol.Request{ID: int64(i), Op: protocol.OpCandidates, Args: wire.NewObject().Set("world", world).
				Set("agent", wire.NewObject().Set("id", "me")).Set("query", "").Set("cancel", protocol.CancelDuringRead)}
			if resp := b.Handle(context.Background(), req); resp.Err == nil || resp.Err.Code != contract.Cancelled {
				t.Errorf("run %d: %+v, want %s", i, resp.Err, contract.Cancelled)
			}
		})
	}
	wg.Wait()
}

// The racing cases of the cancel modes (spec/protocol.md, cancel) answer as the seed does,
// every time, for a Go port behind the bridge too: at-call is cancelled even when a later
// read fails (the failing read returns only after the abort), during-read fails with the
// failing read (nothing aborts after it) and is cancelled when the other reads succeed.
func TestRacingCancelCasesAreExactForAPort(t *testing.T) {
	t.Parallel()
	world, err := wire.Parse(canceltest.World)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := newBridge(refport.Port{}, "")
	if err != nil {
		t.Fatal(err)
	}
	const repeats = 200
	for _, tc := range canceltest.Racing {
		t.Run(fmt.Sprintf("%s/%v", tc.Mode, tc.Refs), func(t *testing.T) {
			t.Parallel()
			req := protocol.Request{Op: protocol.OpPrepare, Args: tc.Args(world)}
			wrong := 0
			for i := range repeats {
				req.ID = int64(i)
				if resp := b.Handle(context.Background(), req); resp.Err == nil || resp.Err.Code != tc.Want {
					if wrong == 0 {
						t.Errorf("run %d: %+v, want %s", i, resp.Err, tc.Want)
					}
					wrong++
				}
			}
			if wrong > 0 {
				t.Errorf("%d of %d runs wrong", wrong, repeats)
			}
		})
	}
}
