package conformance_test

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// TestBrokenFixtureFileIsIncomplete: a fixture file the kit cannot read leaves the run
// incomplete (exit 4): never OK, and never the adapter's fault.
func TestBrokenFixtureFileIsIncomplete(t *testing.T) {
	broken := fstest.MapFS{"uri-encode.yaml": {Data: []byte("cases: [this is: not: yaml\n")}}
	rep := conformance.Runner{Fixtures: broken, Parts: []string{conformance.PartFixtures, conformance.PartFeatures}, Checks: 1}.Run(context.Background())
	if rep.Verdict.Code != report.ExitIncomplete || rep.Verdict.Outcome != report.OutcomeIncomplete {
		t.Fatalf("verdict %+v, want incomplete (%d)", rep.Verdict, report.ExitIncomplete)
	}
	if rep.Totals.Pass == 0 || rep.Totals.FixtureBug == 0 {
		t.Errorf("totals %+v: the features ran, the fixtures are one fixture bug", rep.Totals)
	}
}

// TestCancelledRunIsInterrupted: a run whose context is cancelled with an Interrupt ends
// interrupted, 130 for SIGINT and 143 for SIGTERM, not "adapter unusable"; what finished is
// kept.
func TestCancelledRunIsInterrupted(t *testing.T) {
	full := len(referenceRun().Cases) // a whole run's count (the checks per property do not change it)
	for _, tc := range []struct {
		cause error
		name  string
		code  int
	}{
		{conformance.Interrupt{Signal: os.Interrupt}, "SIGINT", 130},
		{conformance.Interrupt{Signal: syscall.SIGTERM}, "SIGTERM", 143},
		{errors.New("the caller gave up"), "cancelled", 130},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		n := 0
		r := conformance.Runner{Checks: 1, Progress: func(result.Case) {
			if n++; n == 20 {
				cancel(tc.cause)
			}
		}}
		rep := r.Run(ctx)
		cancel(nil)
		v := rep.Verdict
		if v.Code != tc.code || v.Outcome != report.OutcomeInterrupted || rep.Interrupted != tc.name || rep.Unusable != "" {
			t.Errorf("%s: verdict %+v, interrupted %q, unusable %q", tc.name, v, rep.Interrupted, rep.Unusable)
		}
		if rep.Totals.Pass < 19 || rep.Totals.Error != 0 || rep.Totals.NotCovered == 0 || rep.Totals.Total != full {
			t.Errorf("%s: totals %+v: want what finished as passed, the rest of the %d checks not run", tc.name, rep.Totals, full)
		}
	}
}
