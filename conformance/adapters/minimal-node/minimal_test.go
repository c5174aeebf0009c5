// Package minimalnode_test keeps the README's minimal adapter honest: the README shows this
// folder's adapter.mjs verbatim, and the runner certifies it as the README says.
package minimalnode_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/internal/readmetest"
)

func TestREADMEShowsThisAdapter(t *testing.T) {
	src, err := os.ReadFile("adapter.mjs")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../../../README.md", "../../../README.zh.md"} {
		readme, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(readme), "```js\n"+string(src)+"```\n") {
			t.Errorf("%s does not show adapter.mjs verbatim in a ```js block", name)
		}
	}
}

func TestMinimalAdapterCertification(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	r, err := conformance.NewRunner(conformance.Runner{Command: []string{"node", "adapter.mjs"}, Checks: 20})
	if err != nil {
		t.Fatal(err)
	}
	rep := r.Run(context.Background())
	if rep.Verdict.Code != report.ExitConformant || rep.Totals.Fail != 0 || rep.Totals.Error != 0 {
		t.Fatalf("verdict %+v, totals %+v", rep.Verdict, rep.Totals)
	}
	for _, a := range rep.Areas() {
		switch a.Name {
		case "uri":
			if a.Pass == 0 || a.Pass != a.Total {
				t.Errorf("uri area: %+v, want every check passed", a.Counts)
			}
		case "prepare", "candidates", "mention":
			if a.NotCovered != a.Total {
				t.Errorf("%s area: %+v, want every check not covered", a.Name, a.Counts)
			}
		}
	}
	if rep.Verdict.Outcome != report.OutcomePartial || !strings.HasPrefix(rep.Verdict.Summary, fmt.Sprintf("partial: %d of %d checks covered", rep.Totals.Pass, rep.Totals.Total)) {
		t.Errorf("verdict %q does not say partial, with how much was covered", rep.Verdict.Summary)
	}
	// The READMEs quote this run's report: its counts and verdict line stay true.
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../../../README.md", "../../../README.zh.md"} {
		block, err := readmetest.Block(name, "PARTIAL in")
		if err != nil {
			t.Fatal(err)
		}
		if err := readmetest.Match(block, out.String()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
