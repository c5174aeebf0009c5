package report_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
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

// A rerun line runs one check again as the run ran it: the profile, the check alone, the
// rapid seed and inputs of a property, and the adapter command after "--", each word quoted
// for a POSIX shell when it needs it.
func ExampleReport_Rerun() {
	rep := &report.Report{Spec: "0.0.1-rc.1", Command: []string{"node", "my adapter.js"}, Checks: 100}
	fmt.Println(rep.Rerun(result.Case{Part: "fixtures", Name: "uri-decode/stray-bits"}))
	fmt.Println(rep.Rerun(result.Case{Part: "properties", Name: "uri/round-trip", Seed: 42}))
	// Output:
	// conformance-runner --profile 0.0.1-rc.1 --run '^fixtures/uri-decode/stray-bits$' -- node 'my adapter.js'
	// conformance-runner --profile 0.0.1-rc.1 --run '^properties/uri/round-trip$' --seed 42 --checks 100 -- node 'my adapter.js'
}

// Failures that differ the same way on different inputs are one group, shown by its
// smallest example.
func ExampleReport_Groups() {
	rep := &report.Report{}
	for i, id := range []string{"abc", "a", "ab"} {
		rep.Cases = append(rep.Cases, result.Case{Part: "fixtures", Area: "uri", Name: fmt.Sprint("case-", i), Status: result.Fail,
			Input: `{"id":1,"op":"uri.decode","args":{"uri":"` + id + `"}}`,
			Want:  `{"id":1,"ok":false,"error":{"code":"SESSION_REFERENCE_INVALID_REFERENCE","message":""}}`,
			Got:   `{"id":1,"ok":true,"result":"` + id + `"}`})
	}
	for _, g := range rep.Groups() {
		fmt.Printf("%d checks, smallest %s: %s\n", len(g.Cases), g.Example.Name, g.Cause)
	}
	// Output:
	// 3 checks, smallest case-1: $.error: want {"code":"SESSION_REFERENCE_INVALID_REFERENCE"}, got nothing
}
