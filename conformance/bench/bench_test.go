package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// tiny are the real workload builders at sizes a unit test can afford.
func tiny() []Workload {
	return []Workload{
		{Name: "small/uri.encode", Build: smallOps(protocol.OpURIEncode)},
		{Name: "small/uri.decode", Build: smallOps(protocol.OpURIDecode)},
		{Name: "small/mention.parse", Build: smallOps(protocol.OpMentionParse)},
		{Name: "prepare/3x40", Build: prepareN(3, 40)},
		{Name: "prepare/1x2000", Build: prepareN(1, 2000)}, // over the 64 KiB budget: drops messages
	}
}

func reference() Side {
	return Side{Name: "reference", Caller: adapter.InProcess{H: &refadapter.Reference{}}}
}

func TestRunInProcess(t *testing.T) {
	for _, noCache := range []bool{false, true} {
		rep, err := Run(context.Background(), Config{Workloads: tiny(), Repeat: 3, Ops: 20, NoWorldCache: noCache}, reference(), reference())
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		for _, w := range tiny() {
			if !strings.Contains(text.String(), w.Name) {
				t.Errorf("table has no row for %s:\n%s", w.Name, text.String())
			}
		}
		for _, res := range rep.Results {
			for _, m := range []Measure{res.A, res.B} {
				if m.Status != OK || len(m.Runs) != 3 || m.Median <= 0 || m.OwnMedian <= 0 {
					t.Errorf("%s: %+v", res.Workload, m)
				}
				if isWorld := res.Workload[:7] == "prepare"; m.Cached != (isWorld && !noCache) {
					t.Errorf("%s: cached %v with NoWorldCache %v", res.Workload, m.Cached, noCache)
				}
			}
			for _, r := range []float64{res.Ratio, res.OwnRatio} {
				if r <= 0 || math.IsInf(r, 0) || math.IsNaN(r) {
					t.Errorf("%s: ratio %v", res.Workload, r)
				}
			}
			if res.Same == nil || !*res.Same {
				t.Errorf("%s: the reference disagrees with itself: %s", res.Workload, res.Diff)
			}
		}
		var js bytes.Buffer
		if err := rep.WriteJSON(&js); err != nil || !json.Valid(js.Bytes()) {
			t.Errorf("WriteJSON: %v\n%s", err, js.String())
		}
	}
}

// wrong answers uri.encode differently from the reference: the bench must say so.
type wrong struct{ refadapter.Reference }

func (w *wrong) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpURIEncode {
		return protocol.Response{ID: req.ID, OK: true, Result: "dsh-session:x"}
	}
	if req.Op == protocol.OpWorldDefine {
		return protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: "no cache"}}
	}
	return w.Reference.Handle(ctx, req)
}

func TestRunReportsDisagreementAndFailures(t *testing.T) {
	ws := tiny()[:1]
	ws = append(ws, tiny()[3])
	rep, err := Run(context.Background(), Config{Workloads: ws, Repeat: 1, Ops: 5}, Side{Name: "wrong", Caller: adapter.InProcess{H: &wrong{}}}, reference())
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.Same == nil || *r.Same || !strings.Contains(r.Diff, "dsh-session:x") {
		t.Errorf("disagreement not reported: %+v", r)
	}
	// As JSON, for a port in any language, not Go syntax.
	if d := rep.Results[0].Diff; !strings.Contains(d, `first difference: $.result: want "dsh-session:`) || !strings.Contains(d, `+   "result": "dsh-session:x"`) || strings.Contains(d, "compare.Outcome") {
		t.Errorf("the difference is not shown as JSON:\n%s", d)
	}
	// A side that declares world-cache but cannot define is a failure, not a measurement.
	if r := rep.Results[1]; r.A.Status != Unsupported && r.A.Status != Failed {
		t.Errorf("world.define failure: %+v", r.A)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "A and B disagree on small/uri.encode") {
		t.Errorf("table does not note the disagreement:\n%s", text.String())
	}
}

func TestSelect(t *testing.T) {
	def, err := Select("")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range def {
		if w.Large {
			t.Errorf("default selection has large %s", w.Name)
		}
	}
	all, _ := Select("all")
	if len(all) != len(Workloads()) || len(all) <= len(def) {
		t.Errorf("all: %d of %d, default %d", len(all), len(Workloads()), len(def))
	}
	some, err := Select("small/*, prepare/1x100k")
	if err != nil || len(some) != 4 || some[3].Name != "prepare/1x100k" {
		t.Errorf("Select(small/*, prepare/1x100k) = %v, %v", names(some), err)
	}
	if _, err := Select("nothing/*"); err == nil {
		t.Error("a pattern matching nothing was accepted")
	}
}

func names(ws []Workload) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Name)
	}
	return out
}

// TestWorkloadsDeterministic: the same seed makes the same requests, byte for byte.
func TestWorkloadsDeterministic(t *testing.T) {
	line := func(seed uint64) string {
		inst := prepareN(1, 30)(seed, 0)
		b, _ := wire.Marshal(inst.World)
		return string(b)
	}
	if line(7) != line(7) || line(7) == line(8) {
		t.Error("workloads are not a function of the seed")
	}
	// The 10 MB workload is what its name says.
	inst := prepare10MB(1, 0)
	b, _ := wire.Marshal(inst.World)
	if len(b) < 10<<20 {
		t.Errorf("prepare/1x10MB world is %d bytes", len(b))
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[int64]string{999: "999ns", 1500: "1.50µs", 812_000: "812µs", 1_234_000: "1.23ms", 45_600_000_000: "45.6s", 192_400_000_000: "3m12s"} {
		if got := FormatDuration(timeNs(d)); got != want {
			t.Errorf("FormatDuration(%d) = %q, want %q", d, got, want)
		}
	}
}

func timeNs(n int64) time.Duration { return time.Duration(n) }

// none supports nothing but hello.
type none struct{}

func (none) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpHello {
		return (&refadapter.Reference{}).Handle(ctx, req)
	}
	return protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: "not implemented"}}
}

// An op a side does not support is n/a: not measured, not compared, no disagreement.
func TestUnsupportedIsNotADisagreement(t *testing.T) {
	rep, err := Run(context.Background(), Config{Workloads: tiny()[:1], Repeat: 1, Ops: 3}, Side{Name: "none", Caller: adapter.InProcess{H: none{}}}, reference())
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.A.Status != Unsupported || r.Same != nil {
		t.Errorf("A %s, same %v: want unsupported and not compared", r.A.Status, r.Same)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "A on small/uri.encode: n/a, the op is not supported") || strings.Contains(text.String(), "disagree") || strings.Contains(text.String(), "NO") {
		t.Errorf("text:\n%s", text.String())
	}
}
