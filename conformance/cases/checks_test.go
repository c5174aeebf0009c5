package cases_test

import (
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// TestChecksNameTheirLine: every embedded fixture case is listed at its "- name:" line.
func TestChecksNameTheirLine(t *testing.T) {
	files, err := cases.Load(fixtures.FS)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string][]string{}
	for _, f := range files {
		data, err := fs.ReadFile(fixtures.FS, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n") // once per file: its cases share it
		for _, c := range f.Cases {
			byName[f.FullName(c)] = lines
		}
	}
	n := 0
	for _, p := range protocol.Profiles {
		checks, err := cases.Checks(fixtures.FS, suite.Selection{Profile: p})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range checks {
			n++
			lines := byName[c.Name]
			_, short, _ := strings.Cut(c.Name, "/")
			if c.Source.Line < 1 || c.Source.Line > len(lines) || !strings.HasPrefix(c.Source.File, "fixtures/") {
				t.Errorf("%s: listed at %+v", c.Name, c.Source)
				continue
			}
			if want := "  - name: " + strconv.Quote(short); lines[c.Source.Line-1] != want {
				t.Errorf("%s: line %d is %q, want %q", c.Name, c.Source.Line, lines[c.Source.Line-1], want)
			}
		}
	}
	if n < 400 {
		t.Errorf("only %d cases", n)
	}
}
