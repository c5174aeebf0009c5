// Package conformancetest certifies a Go implementation of the session-reference contract
// from its own tests, as testing/fstest.TestFS checks a file system: one call runs the kit's
// features, fixtures and properties and reports every check as a subtest.
//
// A Go port implements Port, in this package's own types (port.go imports only the
// standard library), and calls TestPort from a test; a handler of the wire protocol
// (adapter.Handler) calls Run.
package conformancetest

import (
	"context"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// Run certifies h against the contract with every default (profile 0.0.1-rc.1, 100 rapid
// checks per property unless -rapid.checks says otherwise, a 10 s per-call timeout). Each
// check becomes a subtest named part/name; a not-covered check is skipped.
func Run(t *testing.T, h adapter.Handler) *report.Report {
	t.Helper()
	return RunWith(t, conformance.Runner{Handler: h})
}

// RunWith runs r (normalised by conformance.NewRunner) and reports it on t: a subtest per
// check, the seed in the log, and a failure of t itself when the adapter was unusable or the
// selection ran nothing. It returns the report for further assertions.
func RunWith(t *testing.T, r conformance.Runner) *report.Report {
	t.Helper()
	runner, err := conformance.NewRunner(r)
	if err != nil {
		t.Fatalf("conformancetest: %v", err)
	}
	rep := runner.Run(context.Background())
	t.Logf("%s; rapid seed %d (rerun with -rapid.seed=%d)", rep.HelloLine(), rep.Seed, rep.Seed)
	for _, cs := range rep.Cases {
		t.Run(cs.Part+"/"+cs.Name, func(t *testing.T) {
			switch cs.Status {
			case result.Fail, result.Error:
				t.Errorf("%s", detail(cs))
			case result.NotCovered:
				t.Skipf("not covered: %s", cs.Message)
			case result.FixtureBug:
				t.Skipf("fixture bug (not the implementation's fault): %s", cs.Message)
			}
		})
	}
	switch rep.Verdict.Code {
	case report.ExitUnusable, report.ExitUsage:
		t.Errorf("conformancetest: %s", rep.Verdict.Summary)
	}
	return rep
}

func detail(cs result.Case) string {
	var b strings.Builder
	b.WriteString(string(cs.Status) + ": " + cs.Message)
	for _, f := range []struct{ k, v string }{{"input", cs.Input}, {"want", cs.Want}, {"got", cs.Got}} {
		if f.v != "" {
			b.WriteString("\n" + f.k + ": " + f.v)
		}
	}
	if cs.Diagnosis != "" {
		b.WriteString("\nfirst differing input: " + cs.Diagnosis)
	}
	for _, h := range cs.TrapHints {
		b.WriteString("\nhint: " + h)
	}
	if cs.Diff != "" {
		b.WriteString("\ndiff (-want +got):\n" + cs.Diff)
	}
	return b.String()
}
