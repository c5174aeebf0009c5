package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// The JSON report states why the adapter was given up on once, in givenUp; each check not
// sent keeps its status and says so in a short message that names the entry.
func TestDocumentGivenUpOnce(t *testing.T) {
	const why = "3 calls timed out, the budget of the run (raise it with --max-timeouts); the last: uri.decode: no response within 10s"
	r := &report.Report{Kit: "0.1.0", Spec: "0.0.1-rc.1", Adapter: "node adapter.js", Unusable: why}
	r.Cases = append(r.Cases, result.Case{Part: "fixtures", Area: "uri", Name: "uri-decode/a", Status: result.Pass})
	for i := range 40 {
		op := []string{"uri.decode", "prepare"}[i%2]
		r.Cases = append(r.Cases, result.Case{Part: "fixtures", Area: "uri", Name: fmt.Sprintf("uri-decode/n%d", i), Status: result.Error,
			Message: "adapter " + op + ": not sent: " + why})
	}
	for i := range 10 {
		r.Cases = append(r.Cases, result.Case{Part: "properties", Area: "uri", Name: fmt.Sprintf("uri/p%d", i), Status: result.Error,
			Message: "not run: adapter unusable: " + why})
	}
	// an error of another kind keeps its message
	r.Cases = append(r.Cases, result.Case{Part: "fixtures", Area: "uri", Name: "uri-decode/bad", Status: result.Error, Message: "adapter uri.decode: invalid response line"})
	r.Parts = []report.Part{{Name: "fixtures", Counts: report.CountCases(r.Cases)}}
	r.Finish()
	before := r.Verdict

	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if err := report.ValidateJSON(buf.Bytes()); err != nil {
		t.Fatalf("schema: %v", err)
	}
	d, err := report.ReadDocument(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.GivenUp) != 1 || d.GivenUp[0].Reason != why || d.GivenUp[0].Checks != 50 {
		t.Errorf("givenUp %+v, want the reason once for 50 checks", d.GivenUp)
	}
	errs := 0
	for _, c := range d.Cases {
		if strings.Contains(c.Message, "calls timed out") {
			t.Errorf("%s repeats the reason: %q", c.Name, c.Message)
		}
		if c.Status == result.Error {
			errs++
		}
		switch {
		case strings.HasPrefix(c.Name, "uri-decode/n"):
			if !strings.HasPrefix(c.Message, "adapter ") || !strings.HasSuffix(c.Message, ": not sent: the adapter was given up on (givenUp[0] says why)") {
				t.Errorf("%s: %q", c.Name, c.Message)
			}
		case strings.HasPrefix(c.Name, "uri/p"):
			if c.Message != "not run: adapter unusable: the adapter was given up on (givenUp[0] says why)" {
				t.Errorf("%s: %q", c.Name, c.Message)
			}
		case c.Name == "uri-decode/bad":
			if c.Message != "adapter uri.decode: invalid response line" {
				t.Errorf("%s: %q", c.Name, c.Message)
			}
		}
	}
	if errs != 51 {
		t.Errorf("%d checks with status error, want 51 (the per-check status stays)", errs)
	}
	if d.Verdict != before || d.Unusable != why {
		t.Errorf("verdict %+v, unusable %q changed", d.Verdict, d.Unusable)
	}

	// Two reasons (a report merged from two runs) are two entries, each named by its checks.
	r.Cases[1].Message = "adapter prepare: not sent: the run's deadline of 1m0s passed (raise it with --deadline)"
	d = r.Document()
	if len(d.GivenUp) != 2 || d.GivenUp[0].Checks != 1 || d.GivenUp[1].Checks != 49 ||
		d.Cases[1].Message != "adapter prepare: not sent: the adapter was given up on (givenUp[0] says why)" ||
		d.Cases[2].Message != "adapter prepare: not sent: the adapter was given up on (givenUp[1] says why)" {
		t.Errorf("givenUp %+v; messages %q, %q", d.GivenUp, d.Cases[1].Message, d.Cases[2].Message)
	}
}
