package report_test

import (
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// TestFixtureSourcesNameTheirLine: every embedded fixture case is located at its
// "- name:" line.
func TestFixtureSourcesNameTheirLine(t *testing.T) {
	files, err := cases.Load(fixtures.FS)
	if err != nil {
		t.Fatal(err)
	}
	src := report.EmbeddedSources()
	n := 0
	for _, f := range files {
		data, err := fs.ReadFile(fixtures.FS, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for _, c := range f.Cases {
			n++
			s, ok := src.Lookup("fixtures", cases.Area(f.Op), f.FullName(c))
			if !ok || s.File != "fixtures/"+f.Name || s.Line < 1 || s.Line > len(lines) {
				t.Errorf("%s: located at %+v, %v", f.FullName(c), s, ok)
				continue
			}
			if want := "  - name: " + strconv.Quote(c.Name); lines[s.Line-1] != want {
				t.Errorf("%s: line %d is %q, want %q", f.FullName(c), s.Line, lines[s.Line-1], want)
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d cases", n)
	}
}
