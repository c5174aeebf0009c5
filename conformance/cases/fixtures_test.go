package cases_test

import (
	"bytes"
	"context"
	"flag"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

var update = flag.Bool("update", false, "rewrite fixtures/*.yaml from gen_test.go, with outcomes computed by the reference")

const header = `Generated from conformance/cases/gen_test.go by
  go test ./conformance/cases -run TestFixturesUpToDate -update
Expected outcomes come from the embedded reference and are checked against the published
package by TestFixturesUpstream. Format: spec/fixtures.md, schema: spec/schema/fixture.schema.json.`

// build computes every generated file with its expected outcomes.
func build(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, g := range generated() {
		f := cases.File{Name: g.file, Version: cases.Version, Op: g.op}
		for _, gc := range g.cases {
			profile := cases.Profile001
			if len(gc.profiles) > 0 {
				profile = gc.profiles[0]
			}
			h := &refadapter.Reference{Profile: protocol.Profile(profile)}
			resp := h.Handle(context.Background(), protocol.Request{ID: 1, Op: g.op, Args: gc.args}.Plain())
			w := cases.Want{OK: resp.OK, Result: resp.Result}
			if !resp.OK {
				w.Code = resp.Err.Code
				if r, ok := resp.Err.Extra.Get("reads"); ok {
					w.Reads, w.HasReads = r.([]any), true
				}
				if l, ok := resp.Err.Extra.Get("lists"); ok {
					w.Lists, w.HasLists = l.(float64), true
				}
				if w.Code == protocol.CodeProtocol || w.Code == protocol.CodeUnsupported {
					t.Errorf("%s/%s: the reference rejects the request: %s", g.file, gc.name, resp.Err.Message)
				}
			}
			f.Cases = append(f.Cases, cases.Case{Name: gc.name, Requirements: gc.reqs, Traps: gc.traps, Profiles: gc.profiles, Args: gc.args, Want: w})
		}
		out[g.file] = cases.Marshal(f, header)
	}
	return out
}

func TestFixturesUpToDate(t *testing.T) {
	files := build(t)
	dir := filepath.Join("..", "..", "fixtures")
	for name, data := range files {
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(have, data) {
			t.Errorf("%s is not what gen_test.go generates; run go test ./conformance/cases -run TestFixturesUpToDate -update", name)
		}
	}
	if *update {
		// The compiled form the runner reads (TestCompiledUpToDate in ./fixtures checks it).
		bin, err := cases.Compile(os.DirFS(dir))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, cases.CompiledName), bin, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runAll(t *testing.T, c adapter.Caller, profile string) []result.Case {
	t.Helper()
	cl, err := adapter.Connect(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cases.Run(context.Background(), cl, fixtures.FS, cases.Options{Selection: suite.Selection{Profile: protocol.Profile(profile)}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestFixturesReference(t *testing.T) {
	for _, profile := range []string{cases.Profile001, cases.Profile010} {
		t.Run(profile, func(t *testing.T) {
			res := runAll(t, adapter.InProcess{H: &refadapter.Reference{Profile: protocol.Profile(profile)}}, profile)
			if len(res) < 100 {
				t.Errorf("only %d fixture cases ran", len(res))
			}
			for _, r := range res {
				if r.Status != result.Pass {
					t.Errorf("%s: %s %s\n%s", r.Name, r.Status, r.Message, r.Diff)
				}
			}
		})
	}
}

// TestFixturesUpstream runs every fixture against the published package (the node-upstream
// adapter), for both releases it installs.
func TestFixturesUpstream(t *testing.T) {
	t.Parallel() // mostly waiting for Node
	dir, _ := filepath.Abs("../adapters/node-upstream")
	for _, profile := range []string{cases.Profile001, cases.Profile010} {
		t.Run(profile, func(t *testing.T) {
			t.Parallel() // one Node process per release
			modules := filepath.Join(dir, "node_modules")
			if profile == cases.Profile010 {
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
			res := runAll(t, p, profile)
			counts := map[result.Status]int{}
			for _, r := range res {
				counts[r.Status]++
				switch r.Status {
				case result.Pass:
				case result.NotCovered:
					if r.Area != "host" {
						t.Errorf("%s: not covered by the published package: %s", r.Name, r.Message)
					}
				default:
					t.Errorf("%s: %s %s\ninput %s\n%s", r.Name, r.Status, r.Message, r.Input, r.Diff)
				}
			}
			t.Logf("profile %s: %v", profile, counts)
		})
	}
}
