// Package conformancetest certifies a Go implementation of the session-reference contract
// from its own tests, as testing/fstest.TestFS checks a file system: one call runs the kit's
// features, fixtures and properties and reports every check as a subtest.
//
// A Go port implements goport.Port, in that package's types (it imports only the standard
// library, so the port's own package needs nothing of the kit), and calls TestPort from a
// test; a handler of the wire protocol (adapter.Handler) calls Run.
package conformancetest

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// Run certifies h against the contract with every default (profile 0.0.1-rc.1, 100 rapid
// checks per property unless -rapid.checks says otherwise, a 10 s per-call timeout). Each
// check becomes a subtest named part/name; a not-covered check is skipped. A Go port that
// is not a protocol handler calls TestPort instead.
func Run(t *testing.T, h adapter.Handler) *report.Report {
	t.Helper()
	return RunWith(t, conformance.Runner{Handler: h})
}

// RunWith runs r (normalised by conformance.NewRunner) and reports it on t, as TestPortWith
// does: a subtest per check that go test -run selects before anything runs, the rapid seed
// and a closing line in the log, and a failure of t itself when the adapter was unusable or
// the selection matched nothing. It returns the report of the checks run.
func RunWith(t *testing.T, r conformance.Runner) *report.Report {
	t.Helper()
	return check(t, nil, r)
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
