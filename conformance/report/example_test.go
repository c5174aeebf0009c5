package report_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
)

// How the reports say that two answers differ, in terms any port author reads: the first
// difference by JSON path, and a line diff of both as canonical JSON. The id and an error's
// message are not compared, as the kit does not compare them.
func ExampleDiff() {
	want := `{"id":0,"ok":true,"result":{"label":"a","sessionId":"s"}}`
	got := `{"id":7,"ok":true,"result":{"sessionId":"s","label":"b"}}`
	d, differ := report.Diff(want, got)
	fmt.Println(differ)
	fmt.Println(d.First)
	fmt.Print(d.Lines)
	// Output:
	// true
	// $.result.label: want "a", got "b"
	//   {
	//     "ok": true,
	//     "result": {
	// -     "label": "a",
	// +     "label": "b",
	//       "sessionId": "s"
	//     }
	//   }
}
