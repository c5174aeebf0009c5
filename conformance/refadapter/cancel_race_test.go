package refadapter

import (
	"context"
	"fmt"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/internal/canceltest"
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
	world, err := wire.Parse(canceltest.World)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range canceltest.Racing {
		t.Run(fmt.Sprintf("%s/%v", tc.Mode, tc.Refs), func(t *testing.T) {
			t.Parallel()
			var r Reference
			req := protocol.Request{Op: protocol.OpPrepare, Args: tc.Args(world)}
			wrong := 0
			var first string
			for i := range racingRepeats {
				req.ID = int64(i)
				resp := r.Handle(context.Background(), req)
				if resp.Err == nil || resp.Err.Code != tc.Want {
					if wrong == 0 {
						first = fmt.Sprintf("%+v", resp.Err)
					}
					wrong++
				}
			}
			if wrong > 0 {
				t.Errorf("%d of %d runs did not answer %s (first: %s)", wrong, racingRepeats, tc.Want, first)
			}
		})
	}
}
