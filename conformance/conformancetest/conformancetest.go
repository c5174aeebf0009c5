// Package conformancetest certifies a Go implementation of the session-reference contract
// from its own tests, as testing/fstest.TestFS checks a file system: one call runs the kit's
// features, fixtures and properties and reports every check as a subtest.
//
// A Go port implements goport.Port, in that package's types (it imports only the standard
// library, so the port's own package needs nothing of the kit), and calls TestPort from a
// test; a handler of the wire protocol (adapter.Handler) calls Run.
package conformancetest

import (
	"regexp"
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

// detail is a failing check as a subtest reports it: the status and message, then the
// request, the expected and actual answers (with the id got has, so that only what differs
// differs) and the diff. Every line is escaped (adapter.Escape): an invisible character
// (U+2028, U+200B, a no-break space) or a control character shows as what it is, not as a
// space or an effect on the terminal. A property's message names -rapid.seed, go test's
// flag, not the runner's --seed.
func detail(cs result.Case) string {
	var b strings.Builder
	b.WriteString(string(cs.Status) + ": " + adapter.Escape(seedFlag.ReplaceAllString(cs.Message, "-rapid.seed=")))
	for _, f := range []struct{ k, v string }{{"input", cs.Input.String()}, {"want", cs.Want.String()}, {"got", cs.Got.String()}} {
		if f.v != "" {
			b.WriteString("\n" + f.k + ": " + adapter.Escape(f.v))
		}
	}
	if cs.Diagnosis != "" {
		b.WriteString("\nfirst differing input: " + adapter.Escape(cs.Diagnosis))
	}
	for _, h := range cs.TrapHints {
		b.WriteString("\nhint: " + h)
	}
	if cs.Diff != nil {
		b.WriteString("\ndiff (-want +got):\n" + escapeLines(cs.Diff.String()))
	}
	return b.String()
}

// seedFlag is how a property's message names the runner's flag.
var seedFlag = regexp.MustCompile(`--seed `)

// escapeLines escapes each line of s, keeping its line breaks.
func escapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = adapter.Escape(l)
	}
	return strings.Join(lines, "\n")
}
