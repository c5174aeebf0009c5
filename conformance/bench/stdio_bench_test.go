package bench

import (
	"bytes"
	"context"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
)

// BenchmarkServePrepare measures the reference's over-stdio path without the pipe: one
// prepare request line, its world inline (as to an adapter that does not cache worlds),
// read, decoded, answered and encoded by adapter.Serve. Issue 29 asks that 3x20k cost at
// most ten times 3x2k: compare the two sub-benchmarks' ns/op, or their cpu-ns/op (the
// process's CPU time per request, garbage collection included), which a loaded machine
// disturbs less.
func BenchmarkServePrepare(b *testing.B) {
	for _, name := range []string{"prepare/3x2k", "prepare/3x20k"} {
		ws, err := Select(name)
		if err != nil {
			b.Fatal(err)
		}
		inst := ws[0].Build(1, 0)
		calls := inst.Calls(inst.World)
		line := append(protocol.Request{ID: 1, Op: calls[0].Op, Args: calls[0].Args}.Line(), '\n')
		b.Run(name[len("prepare/"):], func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			var out bytes.Buffer
			cpu0, cpuOK := processCPU()
			for b.Loop() {
				out.Reset()
				if err := adapter.Serve(context.Background(), bytes.NewReader(line), &out, &refadapter.Reference{}); err != nil {
					b.Fatal(err)
				}
				resp, err := protocol.ParseResponse(string(bytes.TrimSuffix(out.Bytes(), []byte("\n"))))
				if err != nil || !resp.OK {
					b.Fatalf("%v %+v", err, resp.Err)
				}
			}
			if cpu1, ok := processCPU(); ok && cpuOK {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
