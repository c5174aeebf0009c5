package conformance_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/internal/readmetest"
)

// TestREADMEReport: the report the READMEs show under "Reading the report" is what a run of
// the embedded reference prints: its counts per part and its verdict line.
func TestREADMEReport(t *testing.T) {
	rep := conformance.Runner{}.Run(context.Background())
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../README.md", "../README.zh.md"} {
		block, err := readmetest.Block(name, "conformance run, spec")
		if err != nil {
			t.Fatal(err)
		}
		if err := readmetest.Match(block, out.String()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
