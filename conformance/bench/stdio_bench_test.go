package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
)

// BenchmarkServePrepare measures the reference's over-stdio path without the pipe, as a
// bench run with --no-world-cache takes it: the runner encodes a prepare request, its world
// inline; one adapter.Serve (a long-lived adapter) reads, decodes, answers and encodes it;
// the runner decodes the answer. Issue 29 asks that 3x20k cost at most ten times 3x2k:
// compare the two sub-benchmarks' ns/op, or their cpu-ns/op (the process's CPU time per
// request, garbage collection included), which a loaded machine disturbs far less.
func BenchmarkServePrepare(b *testing.B) {
	for _, name := range []string{"prepare/3x2k", "prepare/3x20k"} {
		ws, err := Select(name)
		if err != nil {
			b.Fatal(err)
		}
		inst := ws[0].Build(1, 0)
		calls := inst.Calls(inst.World)
		req := protocol.Request{ID: 1, Op: calls[0].Op, Args: calls[0].Args}
		b.Run(name[len("prepare/"):], func(b *testing.B) {
			b.SetBytes(int64(len(req.Line()) + 1))
			in := &requestLines{req: req, n: b.N}
			out := &answerLines{}
			cpu0, cpuOK := processCPU()
			b.ResetTimer()
			if err := adapter.Serve(context.Background(), in, out, &refadapter.Reference{}); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if cpu1, ok := processCPU(); ok && cpuOK {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
			if out.err != nil || out.n != b.N {
				b.Fatalf("%d answers of %d: %v", out.n, b.N, out.err)
			}
		})
	}
}

// requestLines reads as the runner writes: n lines of req, each encoded as it is sent
// (adapter.Process encodes into a buffer it reuses).
type requestLines struct {
	req  protocol.Request
	n    int
	line []byte
	off  int
}

func (r *requestLines) Read(p []byte) (int, error) {
	if r.off == len(r.line) {
		if r.n == 0 {
			return 0, io.EOF
		}
		r.n--
		r.line, r.off = append(r.req.AppendLine(r.line[:0]), '\n'), 0
	}
	n := copy(p, r.line[r.off:])
	r.off += n
	return n, nil
}

// answerLines decodes the answers as the runner does, and counts the successful ones.
type answerLines struct {
	pending []byte
	n       int
	err     error
}

func (a *answerLines) Write(p []byte) (int, error) {
	a.pending = append(a.pending, p...)
	for {
		i := bytes.IndexByte(a.pending, '\n')
		if i < 0 {
			return len(p), nil
		}
		resp, err := protocol.ParseResponse(string(a.pending[:i]))
		if err == nil && !resp.OK {
			err = fmt.Errorf("answer %d: %v", a.n, resp.Err)
		}
		if err != nil && a.err == nil {
			a.err = err
		}
		a.n++
		a.pending = append(a.pending[:0], a.pending[i+1:]...)
	}
}
