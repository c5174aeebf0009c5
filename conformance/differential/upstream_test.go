package differential_test

import (
	"context"
	"github.com/sessionref-kit/sessionref-kit/internal/adaptertest"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/differential"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/internal/sweep"
)

// upstreamChecks is the number of generated requests per op TestAgainstUpstream sends, and
// whether it replays the whole fixture corpus: 30 and not (most of the test's time is
// Node's), or $SESSIONREF_DIFF_CHECKS and the whole corpus: .ci/run sends 100, the long run
// 10000 (see the node-upstream README).
func upstreamChecks(t *testing.T) (checks int, corpus bool) {
	s := os.Getenv("SESSIONREF_DIFF_CHECKS")
	if s == "" {
		return 30, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("SESSIONREF_DIFF_CHECKS=%q: want a positive integer", s)
	}
	return n, true
}

// TestAgainstUpstream compares the reference with the published package (the node-upstream
// adapter, both releases it installs) on generated requests for every op the package has:
// the seven contract ops, and in 0.1.0-rc.8 host.send (its own agent/pre-step listener).
func TestAgainstUpstream(t *testing.T) {
	if os.Getenv("SESSIONREF_DIFF_CHECKS") == "" {
		sweep.Skip(t, "the published package against the reference on generated requests; SESSIONREF_DIFF_CHECKS=N sends N per op")
	}
	t.Parallel()
	dir, _ := filepath.Abs("../adapters/node-upstream")
	for _, tc := range []struct {
		profile string
		ops     int
	}{{"0.0.1-rc.1", 7}, {"0.1.0-rc.8", 8}} {
		profile := tc.profile
		t.Run(profile, func(t *testing.T) {
			t.Parallel() // two Node processes, one per release
			modules := filepath.Join(dir, "node_modules")
			if profile != "0.0.1-rc.1" {
				modules = filepath.Join(dir, "profiles", profile, "node_modules")
			}
			if _, err := os.Stat(modules); err != nil {
				t.Skip("node-upstream adapter not installed for profile " + profile + " (npm ci, see its README)")
			}
			node := connect(t, []string{"node", filepath.Join(dir, "adapter.js"), "--profile", profile})
			ref := reference(t, profile)
			checks, corpus := upstreamChecks(t)
			res := differential.Run(context.Background(), node, ref, differential.Options{Checks: checks, Profile: protocol.Profile(profile), NoCorpus: !corpus})
			runs := []upstreamRun{{res, checks}}
			if !corpus {
				// The fixture corpus is TestFixturesUpstream's to compare with the package, on
				// what each fixture asserts. Of what a difference compares, the fixtures leave
				// out only how often a failed listing listed sessions (candidates' lists), so
				// that op's corpus is replayed here.
				runs = append(runs, upstreamRun{differential.Run(context.Background(), node, ref, differential.Options{Ops: []string{protocol.OpCandidates}, Checks: 1, Profile: protocol.Profile(profile)}), 1})
			}
			for _, run := range runs {
				for _, o := range run.res.Ops {
					t.Logf("%-14s %6d requests, %4d of the corpus, in %v", o.Op, o.Requests, o.Corpus, o.Elapsed)
					switch {
					case o.Transport != "":
						t.Errorf("%s: %s\nrequest %s", o.Op, o.Transport, o.TransportRequest)
					case o.NotCovered != "":
						t.Errorf("%s: not covered: %s", o.Op, o.NotCovered)
					case o.Difference != nil:
						d := o.Difference
						a, _ := d.A.Line()
						b, _ := d.B.Line()
						t.Errorf("%s differs (seed %d)\nrequest   %s\nupstream  %s\nreference %s\n(-reference +upstream)\n%s", o.Op, run.res.Seed, d.Request.Line(), a, b, d.Diff)
					case o.Requests < run.checks*9/10:
						t.Errorf("%s: only %d of %d requests compared (%d unsupported)", o.Op, o.Requests, run.checks, o.Unsupported)
					}
				}
			}
			if len(res.Ops) != tc.ops {
				t.Errorf("ran %d ops, want the %d the package has in %s", len(res.Ops), tc.ops, profile)
			}
		})
	}
}

// upstreamRun is one differential run of TestAgainstUpstream and its generated requests per op.
type upstreamRun struct {
	res    differential.Result
	checks int
}

func connect(t *testing.T, argv []string) *adapter.Client {
	t.Helper()
	c, _ := adaptertest.Connect(t, argv, "", 0)
	return c
}

func reference(t *testing.T, profile string) *adapter.Client {
	t.Helper()
	c, err := adapter.Connect(context.Background(), adapter.InProcess{H: &refadapter.Reference{Profile: protocol.Profile(profile)}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
