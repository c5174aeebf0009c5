package conformancetest_test

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
)

// A Go port certifies itself through the kit's Go interface: the reference passes every
// check Go's types can express.
func TestReferenceImplementation(t *testing.T) {
	rep := conformancetest.RunImplementation(t, adapter.ReferenceImplementation{})
	if rep.Totals.Fail != 0 || rep.Totals.Error != 0 || rep.Verdict.Code != report.ExitConformant {
		t.Fatalf("verdict %+v, totals %+v", rep.Verdict, rep.Totals)
	}
	if rep.Totals.Pass < 300 {
		t.Errorf("only %d checks passed through the Go interface", rep.Totals.Pass)
	}
}

// lenientParse is a port whose parser forgets that a label escape cannot take a line
// terminator.
type lenientParse struct {
	adapter.ReferenceImplementation
}

func (lenientParse) ParseMentions(text string) (mention.Parsed, error) {
	return mention.Parse(strings.ReplaceAll(text, "\\\n", "\\n"))
}

// A wrong port fails through the Go interface: the kit is not lenient with typed ports.
func TestBrokenImplementationFails(t *testing.T) {
	r, err := conformance.NewRunner(conformance.Runner{Handler: &adapter.Typed{Impl: lenientParse{}}, Checks: 20})
	if err != nil {
		t.Fatal(err)
	}
	rep := r.Run(t.Context())
	if rep.Verdict.Code != report.ExitNotConformant || rep.Totals.Fail == 0 {
		t.Fatalf("a port with a wrong mention parser was not failed: %+v", rep.Verdict)
	}
}
