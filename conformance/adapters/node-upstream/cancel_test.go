package nodeupstream

import (
	"context"
	"flag"
	"github.com/sessionref-kit/sessionref-kit/internal/adaptertest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/internal/canceltest"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/internal/sweep"
)

// cancelRepeats replaces the default repeat count; .ci/run passes a larger one.
var cancelRepeats = flag.Int("cancel.repeats", 0, "how often TestCancelModesAreExact sends each racing case (0: 20, or 5 with -short)")

// requireUpstream makes a missing install a failure, as for the spec examples (.ci/run sets it).
const requireUpstream = "SESSIONREF_REQUIRE_UPSTREAM"

// The published package answers the racing cancel cases (spec/protocol.md, cancel) the same
// way every time through this adapter, whose cancel modes are decided by the calls' outcomes
// (no timer): each case repeated in one adapter process, in both releases.
func TestCancelModesAreExact(t *testing.T) {
	// About 10 ms a request (a service and a cordis Context each): a sweep, 20 times each
	// by default; 100 ran clean too (1,000 answers, both releases).
	repeats := 20
	if testing.Short() {
		repeats = 5
	}
	if *cancelRepeats > 0 {
		repeats = *cancelRepeats
	} else {
		sweep.Skip(t, "the racing cancel cases, repeated, in the published package; 200 times with -cancel.repeats 200")
	}
	world, err := wire.Parse(canceltest.World)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := filepath.Abs(".")
	for _, profile := range []string{"0.0.1-rc.1", "0.1.0-rc.8"} {
		t.Run(profile, func(t *testing.T) {
			modules := filepath.Join(dir, "node_modules")
			if profile != "0.0.1-rc.1" {
				modules = filepath.Join(dir, "profiles", profile, "node_modules")
			}
			if _, err := os.Stat(modules); err != nil {
				msg := "node-upstream adapter not installed for profile " + profile + ": run npm ci in " + filepath.Dir(modules)
				if os.Getenv(requireUpstream) != "" {
					t.Fatal(msg)
				}
				t.Skip(msg)
			}
			c, p := adaptertest.Connect(t, []string{"node", filepath.Join(dir, "adapter.js"), "--profile", profile}, "", 20*time.Second)
			for _, tc := range canceltest.Racing {
				args := tc.Args(world)
				wrong := 0
				for range repeats {
					resp, err := c.Do(context.Background(), protocol.OpPrepare, args)
					if err != nil {
						t.Fatalf("%v\n%s", err, p.Stderr())
					}
					if resp.OK || resp.Err == nil || resp.Err.Code != tc.Want {
						wrong++
					}
				}
				if wrong > 0 {
					t.Errorf("%s %v: %d of %d answers were not %s", tc.Mode, tc.Refs, wrong, repeats, tc.Want)
				}
			}
		})
	}
}
