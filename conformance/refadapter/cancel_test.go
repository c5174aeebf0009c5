package refadapter

import (
	"context"
	"sync"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// A request whose cancel mode holds a session-query call is cancelled, every time: the held
// call stays pending until the service has returned, as a JavaScript read the host aborts
// never settles. (It used to return at the abort; when the service's wait on ctx found both
// ready, Go's select could take the read's error, a failure with no code. CI saw it once,
// under load, as a diff "difference" that did not reproduce.)
func TestHeldCallAlwaysCancels(t *testing.T) {
	t.Parallel()
	world, err := wire.Parse(`{"sessions":[{"header":{"id":"s-1","cwd":"/w","createdAt":1},"title":"t"},{"header":{"id":"s-2","createdAt":2}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	agent := wire.NewObject().Set("id", "me").Set("cwd", "/w")
	ref := func(id string) any { return []any{wire.NewObject().Set("sessionId", id)} }
	var r Reference
	for _, mode := range []string{protocol.CancelDuringRead, protocol.CancelAtCall} {
		for _, req := range []protocol.Request{
			{Op: protocol.OpCandidates, Args: wire.NewObject().Set("world", world).Set("agent", agent).Set("query", "").Set("cancel", mode)},
			{Op: protocol.OpPrepare, Args: wire.NewObject().Set("world", world).Set("agent", agent).Set("content", "x").Set("references", ref("s-1")).Set("cancel", mode)},
		} {
			// Side by side, so the scheduler interleaves the held call, the abort and the
			// service's wait in as many orders as it will.
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					for i := range 250 {
						req := req
						req.ID = int64(g*1000 + i)
						resp := r.Handle(context.Background(), req)
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
