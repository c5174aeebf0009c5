package conformance_test

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/differential"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
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

// TestREADMECorpusCount: the size of diff's fixture corpus the READMEs quote is the
// corpus's (every op, lone surrogates included, the default release).
func TestREADMECorpusCount(t *testing.T) {
	n := 0
	for _, op := range differential.Ops {
		n += len(gen.Corpus(op, gen.Options{LoneSurrogates: true}, "0.0.1-rc.1"))
	}
	count := thousands(n)
	for name, want := range map[string]string{
		"../README.md":    "(" + count + " in all for 0.0.1-rc.1, host.send included)",
		"../README.zh.md": "0.0.1-rc.1 共 " + count + " 个，包括 host.send",
	} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not say %q: the corpus has %d requests", name, want, n)
		}
	}
}

// thousands writes n with a comma between thousands, as the READMEs do: 1,143.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
