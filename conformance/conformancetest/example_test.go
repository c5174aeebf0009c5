package conformancetest_test

import (
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
)

// TestReference certifies the embedded reference the way a Go port certifies itself: pass
// the implementation behind adapter.Handler to conformancetest.Run from a test.
func TestReference(t *testing.T) {
	rep := conformancetest.Run(t, &refadapter.Reference{})
	if rep.Verdict.Code != report.ExitConformant {
		t.Errorf("verdict %d: %s", rep.Verdict.Code, rep.Verdict.Summary)
	}
	if rep.Totals.Pass == 0 {
		t.Error("no check passed")
	}
}
