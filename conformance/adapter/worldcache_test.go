package adapter_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// serveEnv, when set, makes the test binary serve the reference on stdin and stdout, so the
// tests and benchmarks here can run a real adapter process without building one.
const serveEnv = "SESSIONREF_ADAPTER_TEST_SERVE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(serveEnv); mode != "" {
		if mode == "deaf" { // never reads its stdin
			time.Sleep(time.Hour)
		}
		var h adapter.Handler = &refadapter.Reference{}
		if mode != "1" {
			h = faulty{h, mode}
		}
		if err := adapter.Serve(context.Background(), os.Stdin, os.Stdout, h); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if mode == "bye" { // a line on stdout after the last answer
			fmt.Println("bye")
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startSelf starts the test binary as the reference adapter over stdio.
func startSelf(tb testing.TB) *adapter.Process {
	tb.Helper()
	self, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	p := &adapter.Process{Argv: []string{self}, Env: append(os.Environ(), serveEnv+"=1"), Timeout: 10 * time.Second}
	if err := p.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close() })
	return p
}

func connect(tb testing.TB, c adapter.Caller) *adapter.Client {
	tb.Helper()
	cl, err := adapter.Connect(context.Background(), c)
	if err != nil {
		tb.Fatal(err)
	}
	return cl
}

func doOK(t *testing.T, cl *adapter.Client, op string, args *wire.Object) protocol.Response {
	t.Helper()
	resp, err := cl.Do(context.Background(), op, args)
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	return resp
}

// cacheWorld has a title per session, one surface with a message and a session to delete.
func cacheWorld() *wire.Object {
	// Spare capacity in the events slice: an append mutation must not write into it.
	events := make([]any, 1, 8)
	events[0] = ev(1, "hello from a")
	src := wire.NewObject().Set("header", wire.NewObject().Set("id", "a").Set("createdAt", 1.0)).Set("title", "Alpha").
		Set("surface", wire.NewObject().Set("capturedThroughSeq", 1.0).Set("events", events))
	other := wire.NewObject().Set("header", wire.NewObject().Set("id", "b").Set("createdAt", 2.0)).Set("title", "Beta")
	return wire.NewObject().Set("sessions", []any{src, other})
}

func ev(seq float64, text string) *wire.Object {
	block := wire.NewObject().Set("type", "text").Set("text", text)
	data := wire.NewObject().Set("role", "user").Set("content", []any{block}).Set("source", wire.NewObject().Set("kind", "user"))
	return wire.NewObject().Set("type", "user/message").Set("seq", seq).Set("data", data)
}

func agent() *wire.Object { return wire.NewObject().Set("id", "me") }

// requests are the world-taking requests of the round trip, built around a world argument.
func requests(world any, host bool) map[string]func() (string, *wire.Object) {
	aURI := "dsh-session:ImEi"
	m := map[string]func() (string, *wire.Object){
		"candidates": func() (string, *wire.Object) {
			return protocol.OpCandidates, wire.NewObject().Set("world", world).Set("agent", agent()).Set("query", "a")
		},
		"prepare": func() (string, *wire.Object) {
			return protocol.OpPrepare, wire.NewObject().Set("world", world).Set("agent", agent()).Set("content", "x").
				Set("references", []any{wire.NewObject().Set("sessionId", "a")})
		},
	}
	if host {
		m["host.send"] = func() (string, *wire.Object) {
			mut := []any{
				wire.NewObject().Set("op", "append").Set("sessionId", "a").Set("events", []any{ev(2, "appended later")}),
				wire.NewObject().Set("op", "delete").Set("sessionId", "b"),
			}
			return protocol.OpHostSend, wire.NewObject().Set("world", world).Set("agent", agent()).
				Set("text", "see @[A]("+aURI+")").Set("mutations", mut)
		}
	}
	return m
}

// roundTrip checks that a request naming a defined world answers as the same request with
// the world inline, twice in a row (so reads are per request and mutations do not leak), and
// that undefined and malformed references are protocol errors.
func roundTrip(t *testing.T, cl *adapter.Client) {
	if !cl.Supports(protocol.FeatureWorldCache) {
		t.Fatalf("%s does not declare %s", cl.Hello.Name, protocol.FeatureWorldCache)
	}
	def := doOK(t, cl, protocol.OpWorldDefine, wire.NewObject().Set("key", "w").Set("world", cacheWorld()))
	if !def.OK {
		t.Fatalf("world.define: %v", def.Err)
	}
	if k, _ := def.Result.(*wire.Object).Get("key"); k != "w" {
		t.Errorf("world.define result key %v, want w", k)
	}
	inline := requests(cacheWorld(), cl.Supports(protocol.FeatureHost))
	byRef := requests(protocol.WorldRef("w"), cl.Supports(protocol.FeatureHost))
	for name := range inline {
		op, args := inline[name]()
		want := doOK(t, cl, op, args)
		if !want.OK {
			t.Fatalf("%s inline: %v", name, want.Err)
		}
		for i := range 2 {
			op, args := byRef[name]()
			got := doOK(t, cl, op, args)
			if d := compare.Diff(want, got); d != "" {
				t.Errorf("%s by reference, call %d (-inline +ref):\n%s", name, i+1, d)
			}
		}
	}
	for _, bad := range []any{protocol.WorldRef("undefined"), wire.NewObject().Set("$ref", 1.0), protocol.WorldRef("w").Set("sessions", []any{})} {
		resp := doOK(t, cl, protocol.OpCandidates, wire.NewObject().Set("world", bad).Set("agent", agent()))
		if resp.OK || resp.Err.Code != protocol.CodeProtocol {
			t.Errorf("candidates with world %v: %+v, want %s", bad, resp, protocol.CodeProtocol)
		}
	}
	resp := doOK(t, cl, protocol.OpWorldDefine, wire.NewObject().Set("key", "x").Set("world", protocol.WorldRef("w")))
	if resp.OK || resp.Err.Code != protocol.CodeProtocol {
		t.Errorf("world.define of a reference: %+v, want %s", resp, protocol.CodeProtocol)
	}
}

func TestWorldCacheInProcess(t *testing.T) {
	roundTrip(t, connect(t, adapter.InProcess{H: &refadapter.Reference{}}))
}

func TestWorldCacheStdio(t *testing.T) {
	p := startSelf(t)
	cl := connect(t, p)
	roundTrip(t, cl)
	// Serve reports the handler's time on every response.
	resp := doOK(t, cl, protocol.OpURIEncode, wire.NewObject().Set("sessionId", "a"))
	if resp.Elapsed <= 0 {
		t.Errorf("stdio response without elapsedNs: %+v", resp)
	}
}

func TestWorldCacheNodeUpstream(t *testing.T) {
	dir, _ := filepath.Abs("../adapters/node-upstream")
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		t.Skip("node-upstream adapter not installed (npm ci in conformance/adapters/node-upstream)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not on PATH")
	}
	p, err := adapter.StartProcess([]string{"node", "adapter.js"}, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cl := connect(t, p)
	roundTrip(t, cl)
	resp := doOK(t, cl, protocol.OpURIEncode, wire.NewObject().Set("sessionId", "a"))
	if resp.Elapsed <= 0 {
		t.Errorf("node response without elapsedNs: %+v", resp)
	}
}

// TestPipelined sends a batch before reading any answer, larger than the pipes' buffers, so
// a client that wrote everything before reading would deadlock.
func TestPipelined(t *testing.T) {
	p := startSelf(t)
	cl := connect(t, p)
	if !cl.Supports(protocol.FeaturePipelining) {
		t.Fatal("reference does not declare pipelining")
	}
	reqs := make([]protocol.Request, 5000)
	for i := range reqs {
		reqs[i] = protocol.Request{ID: int64(100 + i), Op: protocol.OpURIEncode, Args: wire.NewObject().Set("sessionId", fmt.Sprintf("session-%d-%040d", i, i))}
	}
	resps, err := p.CallPipelined(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(resps) != len(reqs) {
		t.Fatalf("%d responses to %d requests", len(resps), len(reqs))
	}
	for i, r := range resps {
		want, _ := cl.Do(context.Background(), protocol.OpURIEncode, reqs[i].Args)
		if r.ID != reqs[i].ID || !r.OK || r.Result != want.Result {
			t.Fatalf("response %d: %+v, want %v", i, r, want.Result)
		}
		if i > 20 {
			break // the rest were checked for id and count; one round trip each is slow
		}
	}
	// The process still answers one request at a time afterwards.
	if resp := doOK(t, cl, protocol.OpURIDecode, wire.NewObject().Set("uri", "dsh-session:ImEi")); resp.Result != "a" {
		t.Errorf("after the batch: %+v", resp)
	}
}

// BenchmarkProcessSmallOps measures the process path: small requests over stdio to the
// reference adapter (this test binary), one round trip each, and pipelined in batches of 64.
// ops/s is the figure to watch: the kit's target is at least 20,000 one at a time.
func BenchmarkProcessSmallOps(b *testing.B) {
	p := startSelf(b)
	cl := connect(b, p)
	args := []struct {
		op   string
		args *wire.Object
	}{
		{protocol.OpURIEncode, wire.NewObject().Set("sessionId", "session-0123456789")},
		{protocol.OpURIDecode, wire.NewObject().Set("uri", "dsh-session:InNlc3Npb24tMDEyMzQ1Njc4OSI")},
		{protocol.OpMentionParse, wire.NewObject().Set("text", "compare @[A](dsh-session:ImEi) with @[B](dsh-session:ImIi) please")},
	}
	ctx := context.Background()
	b.Run("round-trip", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			a := args[i%len(args)]
			if resp, err := cl.Do(ctx, a.op, a.args); err != nil || !resp.OK {
				b.Fatal(err, resp.Err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	})
	b.Run("pipelined-64", func(b *testing.B) {
		const batch = 64
		reqs := make([]protocol.Request, batch)
		for i := range reqs {
			a := args[i%len(args)]
			reqs[i] = protocol.Request{ID: int64(1_000_000 + i), Op: a.op, Args: a.args}
		}
		n := 0
		for b.Loop() {
			if _, err := p.CallPipelined(ctx, reqs); err != nil {
				b.Fatal(err)
			}
			n += batch
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "ops/s")
	})
}
