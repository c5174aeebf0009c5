package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// TestJSONReportOfRealRuns writes the JSON report of a conformant run and of a failing one
// (the 0.1.0-rc.8 reference certified as 0.0.1-rc.1, on the @host checks: every check
// where the releases differ, in each part) and checks both against
// spec/schema/report.schema.json, then what a reader needs of every failure: where the check
// is defined, the request with the id sent, and a language-neutral diff.
func TestJSONReportOfRealRuns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		handler adapter.Handler
		fails   bool
	}{
		{"reference", nil, false},
		{"other profile", &refadapter.Reference{Profile: "0.1.0-rc.8"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var rep *report.Report
			if tt.handler == nil {
				rep = referenceRun()
			} else {
				// Its property failures are shrunk for 10 ms, not up to 10 s: the report needs a
				// failure with its input and diff, not the smallest one.
				rep = mustRunner(t, conformance.Runner{Handler: tt.handler, Checks: 5, Seed: 1, Tags: "@host", ShrinkTime: 10 * time.Millisecond}).Run(context.Background())
			}
			var buf bytes.Buffer
			if err := rep.WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			doc, err := report.ReadDocument(&buf) // validates it against its schema first
			if err != nil {
				t.Fatalf("the JSON report does not read back: %v", err)
			}
			if doc.Totals != rep.Totals || len(doc.Cases) != len(rep.Cases) {
				t.Fatalf("document totals %+v, report %+v", doc.Totals, rep.Totals)
			}
			failures := 0
			files := map[string][]string{}
			for _, c := range doc.Cases {
				if c.Part != "properties" && (c.File == "" || c.Line == 0) {
					t.Errorf("%s %s: no file and line", c.Part, c.Name)
				}
				if c.File != "" {
					// The line is the check's own: its scenario (or example row), or its
					// fixture case's name.
					if files[c.File] == nil {
						data, err := os.ReadFile(filepath.Join("..", c.File))
						if err != nil {
							t.Fatal(err)
						}
						files[c.File] = strings.Split(string(data), "\n")
					}
					lines := files[c.File]
					line := ""
					if c.Line <= len(lines) {
						line = strings.TrimSpace(lines[c.Line-1])
					}
					_, caseName, _ := strings.Cut(c.Name, "/")
					_, title, _ := strings.Cut(line, ":")
					title, _, _ = strings.Cut(title, "<") // an outline's name up to its first <placeholder>
					ok := strings.HasPrefix(line, "Scenario") && strings.Contains(c.Name, strings.TrimSpace(title)) ||
						strings.HasPrefix(line, "|") || // an outline's example row
						c.Part == "fixtures" && strings.Contains(line, "name:") && strings.Contains(line, caseName)
					if !ok {
						t.Errorf("%s %s: %s:%d is %q", c.Part, c.Name, c.File, c.Line, line)
					}
				}
				if c.Part == "features" && len(c.Steps) == 0 {
					t.Errorf("%s: no steps", c.Name)
				}
				if c.Status != result.Fail {
					continue
				}
				failures++
				// A failure of a count or a condition says so in its message; one with both
				// answers must say how they differ.
				if c.Want != nil && c.Got != nil && (c.Diff == nil || c.Diff.First == "" || c.Diff.Lines == "") {
					t.Errorf("%s %s: failure without a diff", c.Part, c.Name)
				}
				var in, got struct {
					ID *int64 `json:"id"`
				}
				if json.Unmarshal(c.Input, &in) != nil || in.ID == nil || *in.ID == 0 {
					t.Errorf("%s %s: input %s does not carry the id sent", c.Part, c.Name, c.Input)
				}
				if json.Unmarshal(c.Got, &got) == nil && got.ID != nil && *got.ID != *in.ID {
					t.Errorf("%s %s: input id %d, answer id %d", c.Part, c.Name, *in.ID, *got.ID)
				}
			}
			if (failures > 0) != tt.fails {
				t.Errorf("%d failures", failures)
			}
		})
	}
}

// BenchmarkJSONReportOfARun: the JSON report of a whole run of the reference (1231 checks, most
// of them passed), as every run with --json writes it.
func BenchmarkJSONReportOfARun(b *testing.B) {
	rep := referenceRun()
	b.ReportAllocs()
	for b.Loop() {
		if err := rep.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
