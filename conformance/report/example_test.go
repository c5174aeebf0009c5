package report_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// A port that answers only the URI ops: every covered check passed, so the run exits 0, but
// its verdict is partial, says how much was covered, and takes neither ✅ nor green.
func ExampleOutcome() {
	r := &report.Report{}
	for i := 0; i < 1306; i++ {
		st := result.NotCovered
		if i < 123 {
			st = result.Pass
		}
		r.Cases = append(r.Cases, result.Case{Part: "fixtures", Name: fmt.Sprint(i), Status: st})
	}
	r.Finish()
	v := r.Verdict
	fmt.Println(v.Code, v.Outcome, v.Outcome.Label(), v.Outcome.Tone())
	fmt.Println(v.Headline)
	// Output:
	// 0 partial PARTIAL partial
	// partial: 123 of 1306 checks covered, all passed; 1183 not covered
}

// What an adapter sends is printed through Terminal: it cannot move the cursor, start a new
// line or hide characters.
func ExampleTerminal() {
	fmt.Println(report.Terminal("my-port\r\x1b[2K\nOK in 1.31s (exit 0)\u2028"))
	// Output:
	// my-port\r\u001b[2K\nOK in 1.31s (exit 0)\u2028
}

// A report path is checked before the run: a missing folder is found in a second, not after
// the whole run.
func ExampleCheckPath() {
	err := report.CheckPath("/no/such/folder/report.json")
	fmt.Println(err)
	// Output:
	// report /no/such/folder/report.json: folder /no/such/folder: no such file or directory
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
		// exchange records the request and both answers, and compare.Explain's diff.
		rep.Cases = append(rep.Cases, exchange(result.Case{Part: "fixtures", Area: "uri", Name: fmt.Sprint("case-", i), Status: result.Fail},
			`{"id":1,"op":"uri.decode","args":{"uri":"`+id+`"}}`,
			`{"id":1,"ok":false,"error":{"code":"SESSION_REFERENCE_INVALID_REFERENCE","message":""}}`,
			`{"id":1,"ok":true,"result":"`+id+`"}`))
	}
	for _, g := range rep.Groups() {
		fmt.Printf("%d checks, smallest %s: %s\n", len(g.Cases), g.Example.Name, g.Cause)
	}
	// Output:
	// 3 checks, smallest case-1: $.error: want {"code":"SESSION_REFERENCE_INVALID_REFERENCE"}, got nothing
}

// An adapter given up on after its timeouts: the JSON report says why once, in givenUp, and
// each check not sent keeps its status with a short message naming the entry.
func ExampleGivenUp() {
	r := &report.Report{Unusable: "2 calls timed out, the budget of the run"}
	for _, op := range []string{"uri.decode", "prepare", "prepare"} {
		r.Cases = append(r.Cases, result.Case{Part: "fixtures", Name: op, Status: result.Error,
			Message: "adapter " + op + ": not sent: 2 calls timed out, the budget of the run"})
	}
	r.Finish()
	d := r.Document()
	fmt.Printf("%+v\n", d.GivenUp)
	fmt.Println(d.Cases[1].Status, d.Cases[1].Message)
	// Output:
	// [{Reason:2 calls timed out, the budget of the run Checks:3}]
	// error adapter prepare: not sent: the adapter was given up on (givenUp[0] says why)
}
