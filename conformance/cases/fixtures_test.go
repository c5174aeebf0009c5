package cases_test

import (
	"bytes"
	"context"
	"flag"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
	"github.com/sessionref-kit/sessionref-kit/internal/sweep"
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
	return runSelected(t, c, suite.Selection{Profile: protocol.Profile(profile)})
}

// runSelected runs the fixture cases sel selects against c.
func runSelected(t *testing.T, c adapter.Caller, sel suite.Selection) []result.Case {
	t.Helper()
	cl, err := adapter.Connect(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cases.Run(context.Background(), cl, fixtures.FS, cases.Options{Selection: sel})
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

// upstreamAll makes TestFixturesUpstream run every fixture case against the published
// package; without it, go test ./... runs a fixed sample (.ci/run passes it).
var upstreamAll = flag.Bool("upstream.all", false, "TestFixturesUpstream: every fixture case against the published package, not every "+strconv.Itoa(upstreamStride)+"th of each file")

// upstreamStride is the sample of TestFixturesUpstream without -upstream.all: the cases
// 0, N, 2N, ... of each fixture file. Fixed, not drawn: a verdict never depends on a seed,
// and every file has its first case in the sample.
const upstreamStride = 4

// upstreamSample is a Selection.Take that takes every upstreamStride-th case of each fixture
// file (all of them with -upstream.all); taken counts what it took, seen what it was offered.
type upstreamSample struct {
	seen, taken int
	byFile      map[string]int
}

func (u *upstreamSample) take(part, name string) bool {
	u.seen++
	file, _, _ := strings.Cut(name, "/")
	i := u.byFile[file]
	u.byFile[file]++
	if *upstreamAll || i%upstreamStride == 0 {
		u.taken++
		return true
	}
	return false
}

// TestFixturesUpstream runs the fixtures against the published package (the node-upstream
// adapter), for both releases it installs: a sweep, a fixed sample of each file's cases with
// SESSIONREF_SWEEPS=1, every case with -upstream.all (.ci/run).
func TestFixturesUpstream(t *testing.T) {
	if !*upstreamAll {
		sweep.Skip(t, "the fixtures against the published package; every case with -upstream.all")
	}
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
				if *upstreamAll {
					t.Fatal("-upstream.all: node-upstream adapter not installed for profile " + profile)
				}
				t.Skip("node-upstream adapter not installed for profile " + profile)
			}
			p, err := adapter.StartProcess([]string{"node", "adapter.js", "--profile", profile}, dir, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			sample := &upstreamSample{byFile: map[string]int{}}
			res := runSelected(t, p, suite.Selection{Profile: protocol.Profile(profile), Take: sample.take})
			if len(res) != sample.taken || sample.taken < sample.seen/upstreamStride || sample.taken < 100 {
				t.Fatalf("%d results of %d cases taken, %d offered", len(res), sample.taken, sample.seen)
			}
			if !*upstreamAll {
				t.Logf("a sample: %d of the %d cases (every case with -upstream.all)", sample.taken, sample.seen)
			}
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
