package refadapter

import (
	"context"
	"fmt"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// racingRepeats is how often each racing cancel case runs: the at-call race answered wrongly
// in about 30 of 50 runs before the fix, so 500 runs would miss it with a chance far below
// 1e-100, and they take milliseconds.
const racingRepeats = 500

// The cases whose answer depends on the order of a held read, a failing read and the abort:
// the package answers each the same way every time (spec/protocol.md, cancel), so must the
// reference. Run one after another, as the runner sends them, and side by side with the
// scheduler free to interleave them.
func TestRacingCancelCasesAreExact(t *testing.T) {
	t.Parallel()
	world, err := wire.Parse(`{"sessions":[{"header":{"id":"a","createdAt":1}},{"header":{"id":"b","createdAt":2},"readError":"gone"},{"header":{"id":"c","createdAt":3}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	agent := wire.NewObject().Set("id", "me")
	refs := func(ids ...string) any {
		out := make([]any, len(ids))
		for i, id := range ids {
			out[i] = wire.NewObject().Set("sessionId", id)
		}
		return out
	}
	for _, tc := range []struct {
		mode string
		refs []string
		want string
	}{
		// at-call: the first read aborts as it is made, before any outcome: cancelled, even
		// when a later read fails.
		{protocol.CancelAtCall, []string{"a", "b"}, contract.Cancelled},
		{protocol.CancelAtCall, []string{"a", "c", "b"}, contract.Cancelled},
		{protocol.CancelAtCall, []string{"b", "a"}, contract.Cancelled},
		// during-read: the abort comes only once every other read has succeeded; a failing
		// other read decides first.
		{protocol.CancelDuringRead, []string{"a", "b"}, contract.ReadFailed},
		{protocol.CancelDuringRead, []string{"a", "c", "b"}, contract.ReadFailed},
		{protocol.CancelDuringRead, []string{"b", "a"}, contract.Cancelled},
		{protocol.CancelDuringRead, []string{"a", "c"}, contract.Cancelled},
	} {
		t.Run(fmt.Sprintf("%s/%v", tc.mode, tc.refs), func(t *testing.T) {
			t.Parallel()
			var r Reference
			req := protocol.Request{Op: protocol.OpPrepare, Args: wire.NewObject().Set("world", world).Set("agent", agent).
				Set("content", "x").Set("references", refs(tc.refs...)).Set("cancel", tc.mode)}
			wrong := 0
			var first string
			for i := range racingRepeats {
				req.ID = int64(i)
				resp := r.Handle(context.Background(), req)
				if resp.Err == nil || resp.Err.Code != tc.want {
					if wrong == 0 {
						first = fmt.Sprintf("%+v", resp.Err)
					}
					wrong++
				}
			}
			if wrong > 0 {
				t.Errorf("%d of %d runs did not answer %s (first: %s)", wrong, racingRepeats, tc.want, first)
			}
		})
	}
}
