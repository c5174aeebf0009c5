package report_test

import (
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

func BenchmarkWriteJSON(b *testing.B) {
	r := sample()
	for range 2000 {
		r.Cases = append(r.Cases, result.Case{Part: "fixtures", Name: "c", Status: result.Fail, Got: result.Value{Text: string(make([]byte, result.MaxField))}, Diff: compare.ExplainValues("a", "b")})
	}
	r.Finish()
	b.ReportAllocs()
	for b.Loop() {
		if err := report.WriteFile(b.TempDir()+"/r.json", r.WriteJSON); err != nil {
			b.Fatal(err)
		}
	}
}
