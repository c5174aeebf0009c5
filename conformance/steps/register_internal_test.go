package steps

import (
	"context"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/internal/sweep"
)

// skewed answers as the reference does, except that it gets some ops wrong, so that scenarios
// fail in several ways too.
type skewed struct{ ref *refadapter.Reference }

func (s skewed) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	resp := s.ref.Handle(ctx, req)
	switch req.Op {
	case protocol.OpURIEncode:
		if r, ok := resp.Result.(string); ok {
			resp.Result = r + "x"
		}
	case protocol.OpMentionParse, protocol.OpConfig:
		if resp.OK {
			return protocol.Response{ID: req.ID, Err: &protocol.Error{Code: "SESSION_REFERENCE_INVALID_CONFIG", Message: "skewed"}}
		}
	}
	return resp
}

// TestDefiningOnlyMatchingStepsChangesNothing: a run whose scenarios define only the steps
// they can match (register) ends as one defining all of them, scenario by scenario and
// message by message, for a conformant and a wrong implementation in both profiles.
func TestDefiningOnlyMatchingStepsChangesNothing(t *testing.T) {
	profiles := []string{"0.1.0-rc.8"} // the profile with every scenario
	if sweep.On() {
		profiles = append(profiles, "0.0.1-rc.1")
	}
	for _, profile := range profiles {
		for _, h := range []adapter.Handler{&refadapter.Reference{Profile: protocol.Profile(profile)}, skewed{&refadapter.Reference{Profile: protocol.Profile(profile)}}} {
			runs := make([][]result.Case, 2)
			for i, all := range []bool{false, true} {
				defineAll = all
				c, err := adapter.Connect(context.Background(), adapter.InProcess{H: h})
				if err != nil {
					t.Fatal(err)
				}
				runs[i], err = Run(context.Background(), c, features.FS, Options{Selection: suite.Selection{Profile: protocol.Profile(profile)}})
				if err != nil {
					t.Fatal(err)
				}
			}
			defineAll = false
			failed := 0
			for _, rc := range runs[0] {
				if rc.Status != result.Pass {
					failed++
				}
			}
			if _, wrong := h.(skewed); wrong && failed < 10 {
				t.Errorf("%s: only %d scenarios failed against the wrong implementation", profile, failed)
			}
			if d := cmp.Diff(runs[1], runs[0], cmpopts.IgnoreFields(result.Case{}, "Duration")); d != "" {
				t.Errorf("%s %T: defining only the matching steps changed the run (-all +matching):\n%s", profile, h, d)
			}
		}
	}
}

// BenchmarkRun is one features run against the reference in-process, with the scenarios
// defining the steps they can match, and all of them as before register filtered them.
func BenchmarkRun(b *testing.B) {
	for _, all := range []bool{false, true} {
		name := "matching"
		if all {
			name = "all"
		}
		b.Run(name, func(b *testing.B) {
			defineAll = all
			defer func() { defineAll = false }()
			c, err := adapter.Connect(context.Background(), adapter.InProcess{H: &refadapter.Reference{}})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := Run(context.Background(), c, features.FS, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A run with a selection reports exactly the selected scenarios, each as the whole run does:
// the scenarios it leaves out define one catch-all step instead of theirs (Run), and neither
// that nor their skipping changes the others.
func TestSelectedRunIsPartOfTheWhole(t *testing.T) {
	h := skewed{&refadapter.Reference{}}
	run := func(sel suite.Selection) []result.Case {
		c, err := adapter.Connect(context.Background(), adapter.InProcess{H: h})
		if err != nil {
			t.Fatal(err)
		}
		cs, err := Run(context.Background(), c, features.FS, Options{Selection: sel})
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	whole := run(suite.Selection{})
	key := func(rc result.Case) string { return rc.Area + "/" + rc.Name }
	byKey := map[string]result.Case{}
	for _, rc := range whole {
		byKey[key(rc)] = rc
	}
	for _, sel := range []suite.Selection{{Tags: "@uri or @SR-PREP-7"}, {Match: "sigma|round-trip", Skip: "lone"}, {Tags: "not @mention"}} {
		some := run(sel)
		if len(some) == 0 || len(some) >= len(whole) {
			t.Fatalf("%+v: %d of %d scenarios", sel, len(some), len(whole))
		}
		for _, rc := range some {
			w, ok := byKey[key(rc)]
			if !ok {
				t.Errorf("%+v: %s is not a scenario of the whole run", sel, key(rc))
				continue
			}
			if sel.Skip != "" && regexp.MustCompile(sel.Skip).MatchString(part+"/"+rc.Name) {
				if rc.Status != result.NotCovered || rc.Message != Skipped {
					t.Errorf("%+v: %s: %s %q, want it skipped", sel, key(rc), rc.Status, rc.Message)
				}
				continue
			}
			// The request ids are the transport's, numbered in the order sent.
			if d := cmp.Diff(w, rc, cmpopts.IgnoreFields(result.Case{}, "Duration"), cmp.Transformer("id", func(v result.Value) string { return leadingID.ReplaceAllString(v.String(), `{"id":N,`) })); d != "" {
				t.Errorf("%+v: %s differs from the whole run's (-whole +selected):\n%s", sel, key(rc), d)
			}
		}
	}
}

var leadingID = regexp.MustCompile(`^\{"id":[0-9]+,`)
