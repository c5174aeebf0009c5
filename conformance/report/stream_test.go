package report_test

import (
	"context"
	"io"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

func BenchmarkWriteJSON(b *testing.B) {
	r := sample()
	for range 2000 {
		r.Cases = append(r.Cases, result.Case{Part: "fixtures", Name: "c", Status: result.Fail, Got: string(make([]byte, result.MaxField)), Diff: "d"})
	}
	r.Finish()
	b.ReportAllocs()
	for b.Loop() {
		if err := report.WriteFile(b.TempDir()+"/r.json", r.WriteJSON); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDocumentOfARun: the JSON report of a whole run of the reference (1231 checks, most
// of them passed), as every run with --json writes it.
func BenchmarkDocumentOfARun(b *testing.B) {
	r, err := conformance.NewRunner(conformance.Runner{Checks: 5, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	rep := r.Run(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		if err := rep.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
