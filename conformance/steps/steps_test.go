package steps_test

import (
	"context"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/steps"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/internal/sweep"
)

func run(t *testing.T, h adapter.Handler, fsys any, opts steps.Options) []result.Case {
	t.Helper()
	c, err := adapter.Connect(context.Background(), adapter.InProcess{H: h})
	if err != nil {
		t.Fatal(err)
	}
	f := features.FS
	var res []result.Case
	if m, ok := fsys.(fstest.MapFS); ok {
		res, err = steps.Run(context.Background(), c, m, opts)
	} else {
		res, err = steps.Run(context.Background(), c, f, opts)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestFeaturesPassOnReference(t *testing.T) {
	for _, profile := range []string{"0.0.1-rc.1", "0.1.0-rc.8"} {
		t.Run(profile, func(t *testing.T) {
			res := run(t, &refadapter.Reference{Profile: protocol.Profile(profile)}, nil, steps.Options{Selection: suite.Selection{Profile: protocol.Profile(profile)}})
			if len(res) < 60 {
				t.Errorf("only %d scenarios ran", len(res))
			}
			for _, r := range res {
				if r.Status != result.Pass {
					t.Errorf("%s: %s: %s %s\n%s\ninput %s\ngot   %s", r.Area, r.Name, r.Status, r.Message, r.Diff, r.Input, r.Got)
				}
				if len(r.Requirements) == 0 {
					t.Errorf("%s: %s names no requirement", r.Area, r.Name)
				}
			}
		})
	}
}

func TestProfilesSelectScenarios(t *testing.T) {
	names := func(profile string) map[string]bool {
		out := map[string]bool{}
		for _, r := range run(t, &refadapter.Reference{Profile: protocol.Profile(profile)}, nil, steps.Options{Selection: suite.Selection{Profile: protocol.Profile(profile), Tags: "@host"}}) {
			out[r.Name] = true
		}
		return out
	}
	a, b := names("0.0.1-rc.1"), names("0.1.0-rc.8")
	if !a["Context first, then the readable message (target idle)"] || a["The readable message, then its context (target idle)"] {
		t.Errorf("profile 0.0.1-rc.1 ran %v", a)
	}
	if b["Context first, then the readable message (target idle)"] || !b["The readable message, then its context (target idle)"] {
		t.Errorf("profile 0.1.0-rc.8 ran %v", b)
	}
}

// wrong corrupts the result of one op.
type wrong struct {
	op string
	h  adapter.Handler
}

func (w wrong) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	resp := w.h.Handle(ctx, req)
	if req.Op == w.op && resp.OK {
		if s, ok := resp.Result.(string); ok {
			resp.Result = s + "x"
		} else if o, ok := resp.Result.(*wire.Object); ok {
			o.Set("text", "corrupted")
		}
	}
	return resp
}

func TestWrongAnswersFail(t *testing.T) {
	res := run(t, wrong{op: protocol.OpURIEncode, h: &refadapter.Reference{}}, nil, steps.Options{Selection: suite.Selection{Tags: "@uri"}})
	failed := 0
	for _, r := range res {
		if r.Status == result.Fail {
			failed++
		}
	}
	if failed == 0 {
		t.Fatalf("no uri scenario failed with a corrupted uri.encode: %+v", res)
	}
	res = run(t, wrong{op: protocol.OpMentionParse, h: &refadapter.Reference{}}, nil, steps.Options{Selection: suite.Selection{Tags: "@SR-MENTION-9"}})
	for _, r := range res {
		if r.Status != result.Fail {
			t.Errorf("%s: %s with a corrupted mention.parse", r.Name, r.Status)
		}
	}
}

// unsupported answers ADAPTER_UNSUPPORTED for one op and declares no features.
type unsupported struct {
	op string
	h  adapter.Handler
}

func (u unsupported) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpHello {
		resp := u.h.Handle(ctx, req)
		resp.Result.(*wire.Object).Set("features", []any{})
		return resp
	}
	if req.Op == u.op {
		return protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: "no"}}
	}
	return u.h.Handle(ctx, req)
}

func TestUnsupportedIsNotCovered(t *testing.T) {
	res := run(t, unsupported{op: protocol.OpCandidates, h: &refadapter.Reference{}}, nil, steps.Options{Selection: suite.Selection{Tags: "@candidates,@host,@lone-surrogates"}})
	if len(res) == 0 {
		t.Fatal("nothing ran")
	}
	for _, r := range res {
		if r.Status != result.NotCovered {
			t.Errorf("%s: %s, want not covered", r.Name, r.Status)
		}
	}
}

type broken struct{}

func (broken) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op == protocol.OpHello {
		return (&refadapter.Reference{}).Handle(ctx, req), nil
	}
	return protocol.Response{}, &adapter.TransportError{Op: req.Op, Reason: "crashed"}
}

func TestTransportFailureIsError(t *testing.T) {
	c, err := adapter.Connect(context.Background(), broken{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := steps.Run(context.Background(), c, features.FS, steps.Options{Selection: suite.Selection{Tags: "@config"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Status != result.Error {
			t.Errorf("%s: %s, want error", r.Name, r.Status)
		}
	}
}

func TestUndefinedStepFails(t *testing.T) {
	fsys := fstest.MapFS{"x.feature": {Data: []byte(`Feature: x

  @SR-URI-1
  Scenario: a step nobody defined
    When the id "a" is encoded
    Then the moon is made of cheese

  @SR-URI-1
  Scenario: a defined one
    When the id "a" is encoded
    Then the URI is "dsh-session:ImEi"
`)}}
	res := run(t, &refadapter.Reference{}, fsys, steps.Options{})
	got := map[string]result.Status{}
	for _, r := range res {
		got[r.Name] = r.Status
	}
	if got["a step nobody defined"] != result.Fail || got["a defined one"] != result.Pass {
		t.Errorf("got %v", got)
	}
}

func TestProfileTags(t *testing.T) {
	if got := steps.ProfileTags("@a,@b && ~@c", "0.1.0-rc.8"); got != "@a && ~@profile-0.0.1,@b && ~@c && ~@profile-0.0.1" {
		t.Errorf("got %q", got)
	}
	if got := steps.ProfileTags("", ""); !strings.Contains(got, "~@profile-0.1.0") {
		t.Errorf("got %q", got)
	}
}

// TestFeaturesUpstream runs the features against the published package (the node-upstream
// adapter), which declares no host feature: host scenarios are not covered, all else passes.
func TestFeaturesUpstream(t *testing.T) {
	sweep.Skip(t, "the features against the published package")
	t.Parallel() // mostly waiting for Node
	dir, _ := filepath.Abs("../adapters/node-upstream")
	for _, profile := range []string{"0.0.1-rc.1", "0.1.0-rc.8"} {
		t.Run(profile, func(t *testing.T) {
			t.Parallel() // one Node process per release
			modules := filepath.Join(dir, "node_modules")
			if profile == "0.1.0-rc.8" {
				modules = filepath.Join(dir, "profiles", profile, "node_modules")
			}
			if _, err := os.Stat(modules); err != nil {
				t.Skip("node-upstream adapter not installed for profile " + profile)
			}
			p, err := adapter.StartProcess([]string{"node", "adapter.js", "--profile", profile}, dir, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			c, err := adapter.Connect(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			res, err := steps.Run(context.Background(), c, features.FS, steps.Options{Selection: suite.Selection{Profile: protocol.Profile(profile)}})
			if err != nil {
				t.Fatal(err)
			}
			counts := map[result.Status]int{}
			for _, r := range res {
				counts[r.Status]++
				if r.Status == result.Pass || r.Status == result.NotCovered && r.Area == "host" {
					continue
				}
				t.Errorf("%s: %s: %s %s\n%s\ninput %s\ngot   %s", r.Area, r.Name, r.Status, r.Message, r.Diff, r.Input, r.Got)
			}
			t.Logf("profile %s: %v", profile, counts)
		})
	}
}
