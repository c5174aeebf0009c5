package steps

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"github.com/sessionref-kit/sessionref-kit/features"
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
	for _, profile := range []string{"0.0.1-rc.1", "0.1.0-rc.8"} {
		for _, h := range []adapter.Handler{&refadapter.Reference{Profile: profile}, skewed{&refadapter.Reference{Profile: profile}}} {
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
