package differential_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/differential"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/internal/testadapters"
)

// TestMain makes this test binary a multi-call one: testscript.Main puts the commands of
// internal/testadapters on $PATH, copies of the binary, which started as buggy runs the port
// with a JSON-escaping bug the tests start (see package testadapters), so that nothing is
// built at test time.
func TestMain(m *testing.M) {
	testscript.Main(m, testadapters.Commands())
}

// buggyPort is the absolute path of the command "buggy" of TestMain.
func buggyPort(t *testing.T) string {
	t.Helper()
	path, err := testadapters.Path("buggy")
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// A port with a JSON-escaping bug in uri.encode: the run finds it, shrinks it to a short id, and writes a fixture that fails against the port and passes against the reference.
func TestFindsShrinksAndWritesFixture(t *testing.T) {
	bug := connect(t, []string{buggyPort(t)})
	ref := reference(t, "")
	var progress []string
	res := differential.Run(context.Background(), bug, ref, differential.Options{
		Ops: []string{protocol.OpURIEncode, protocol.OpURIDecode}, Checks: 300, Seed: 7,
		NoCorpus: true, // the generators and rapid's shrinking, not the fixture corpus (below)
		Progress: func(o differential.OpResult) { progress = append(progress, o.Op) },
	})
	if strings.Join(progress, ",") != "uri.encode,uri.decode" {
		t.Errorf("progress reported %v", progress)
	}
	if !res.LoneSurrogates {
		t.Error("both sides declare lone-surrogates, yet the run generated none")
	}
	if len(res.Ops) != 2 || res.Ops[1].Difference != nil || res.Ops[1].Requests != 300 {
		t.Fatalf("uri.decode: want 300 requests and no difference, got %+v", res.Ops[1])
	}
	d := res.Ops[0].Difference
	if d == nil {
		t.Fatalf("uri.encode: no difference found in %d requests", res.Ops[0].Requests)
	}
	if d.Fault != "result" || d.Op != protocol.OpURIEncode {
		t.Errorf("fault %q op %q, want result uri.encode", d.Fault, d.Op)
	}
	id, _ := d.Request.Args.Get("sessionId")
	// Rapid drops pieces from the end of a string, not always from its start: a few units.
	if s, ok := id.(string); !ok || len(wire.UTF16(s)) > 4 || !strings.ContainsAny(s, "<>&\u2028\u2029\ufffd") && wire.WellFormed(s) || d.Request.Args.Len() != 1 {
		t.Errorf("not shrunk to a short id holding the culprit: %s", d.Request.Line())
	}
	if !strings.Contains(d.Diff, `"result"`) || strings.Contains(d.Diff, "compare.Outcome") {
		t.Errorf("diff does not show the results:\n%s", d.Diff)
	}
	if !strings.HasPrefix(d.FileName(), "diff-uri-encode-result-") || !strings.HasSuffix(d.FileName(), ".yaml") {
		t.Errorf("file name %q", d.FileName())
	}

	data, err := d.Marshal("", "buggy", "reference", res.Seed)
	if err != nil {
		t.Fatal(err)
	}
	f, err := cases.Parse(d.FileName(), data)
	if err != nil {
		t.Fatalf("written fixture does not load: %v\n%s", err, data)
	}
	if len(f.Cases) != 1 || f.Op != protocol.OpURIEncode || len(f.Cases[0].Requirements) != 1 {
		t.Fatalf("fixture %+v", f)
	}
	for _, c := range []struct {
		name string
		cl   *adapter.Client
		want result.Status
	}{{"reference", ref, result.Pass}, {"buggy", bug, result.Fail}} {
		got, err := differential.CheckFixture(context.Background(), c.cl, d.FileName(), data, "")
		if err != nil || len(got) != 1 || got[0].Status != c.want {
			t.Errorf("fixture against %s: %+v %v, want %s", c.name, got, err, c.want)
		}
	}
	if strings.ContainsFunc(string(data[:strings.Index(string(data), "version:")]), func(r rune) bool { return r > 0x7E }) {
		t.Errorf("header is not ASCII:\n%s", data)
	}
}

// The same port is found on the fixture corpus before anything is generated, whatever the
// seed: the difference names its fixture case and traps, and its fixture carries them.
func TestCorpusFindsTrapWhateverTheSeed(t *testing.T) {
	bug := connect(t, []string{buggyPort(t)})
	ref := reference(t, "")
	for _, seed := range []uint64{1, 2} {
		res := differential.Run(context.Background(), bug, ref, differential.Options{Ops: []string{protocol.OpURIEncode}, Checks: 10, Seed: seed})
		o := res.Ops[0]
		d := o.Difference
		if d == nil || d.Source == "" || len(d.Traps) == 0 || o.Requests != 0 || o.Corpus == 0 {
			t.Fatalf("seed %d: want a difference on the fixture corpus before any generated request, got %+v", seed, o)
		}
		if !strings.HasPrefix(d.Source, "traps-uri-encode/") {
			t.Errorf("source %q, want a case of traps-uri-encode", d.Source)
		}
		data, err := d.Marshal("", "buggy", "reference", res.Seed)
		if err != nil {
			t.Fatal(err)
		}
		f, err := cases.Parse(d.FileName(), data)
		if err != nil || len(f.Cases) != 1 || len(f.Cases[0].Traps) == 0 || !strings.Contains(string(data), "the request is fixture "+d.Source) {
			t.Fatalf("fixture %v %+v\n%s", err, f, data)
		}
	}
}

// ignoreK is the reference, except that a candidates query loses its "K": a port whose
// lowercasing misses one letter.
type ignoreK struct{ adapter.Handler }

func (h ignoreK) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpCandidates {
		if q, ok := req.Args.Get("query"); ok {
			if s, ok := q.(string); ok && strings.Contains(s, "K") {
				req.Args = wire.Clone(req.Args).(*wire.Object)
				req.Args.Set("query", strings.ReplaceAll(s, "K", "X"))
			}
		}
	}
	return h.Handler.Handle(ctx, req)
}

// A difference on a chunked trap case (16 inputs in one request) is narrowed to the input
// that differs.
func TestCorpusNarrowsChunkedCase(t *testing.T) {
	bug, err := adapter.Connect(context.Background(), adapter.InProcess{H: ignoreK{&refadapter.Reference{}}})
	if err != nil {
		t.Fatal(err)
	}
	res := differential.Run(context.Background(), bug, reference(t, ""), differential.Options{Ops: []string{protocol.OpCandidates}, Checks: 10, Seed: 1})
	d := res.Ops[0].Difference
	if d == nil {
		t.Fatalf("no difference: %+v", res.Ops[0])
	}
	q, _ := d.Request.Args.Get("query")
	if q != "K" || !strings.Contains(d.Source, "input 11 of 16") {
		t.Errorf("narrowed to query %q (%s), want \"K\", input 11 of 16", q, d.Source)
	}
}

// The reference agrees with itself on every op, host.send included, and a profile-dependent
// op's fixture would name its profile.
func TestReferenceAgreesWithItself(t *testing.T) {
	for _, profile := range []string{"0.0.1-rc.1", "0.1.0-rc.8"} {
		res := differential.Run(context.Background(), reference(t, profile), reference(t, profile), differential.Options{Checks: 30, Profile: protocol.Profile(profile)})
		if len(res.Ops) != len(differential.Ops) {
			t.Fatalf("%s: ran %d ops, want %d", profile, len(res.Ops), len(differential.Ops))
		}
		for _, o := range res.Ops {
			if o.Difference != nil || o.Transport != "" || o.NotCovered != "" || o.Requests != 30 {
				t.Errorf("%s %s: %+v", profile, o.Op, o)
			}
		}
	}
	d := &differential.Difference{Op: protocol.OpHostSend, Request: protocol.Request{Op: protocol.OpHostSend}, B: protocol.Response{OK: true}, Fault: "result"}
	if p := d.Fixture("0.1.0").Cases[0].Profiles; len(p) != 1 || p[0] != cases.Profile010 {
		t.Errorf("host.send fixture profiles %v", p)
	}
}
