package report_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// WriteJSON streams the cases, and writes the very bytes json.Encoder would: with no case,
// one case, and many, with strings that need escaping (a "cases" key among them).
func TestWriteJSONIsTheEncodersDocument(t *testing.T) {
	for _, n := range []int{0, 1, 7} {
		r := sample()
		r.Warnings = []string{`"cases": null,`, "<&>"}
		r.Orphans = []string{"pid 1 (x)"}
		r.Deadline, r.Timeouts = time.Minute, 2
		for i := range n {
			r.Cases = append(r.Cases, result.Case{Part: "fixtures", Name: "c\n  \"cases\": null,", Status: result.Fail,
				Got: "\xed\xa0\x80 <b>", Diff: "-a\n+b\n", Duration: time.Duration(i)})
		}
		r.Finish()
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := r.WriteJSON(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d cases: WriteJSON\n%s\nwant\n%s", n, got.Bytes(), want.Bytes())
		}
	}
}

// BenchmarkWriteJSON: the allocations of writing a report grow with one case, not with
// the report (compare -benchmem across sizes).
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
