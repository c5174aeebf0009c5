// Package nodeupstream holds the checks of the node-upstream adapter's committed
// measurements: the StrykerJS summaries (stryker.sh) and the branch coverage allowlist
// (coverage.sh). The measurements themselves need Node.js and run outside go test.
package nodeupstream

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type summary struct {
	Profile    string         `json:"profile"`
	Sampled    bool           `json:"sampled"`
	Regions    string         `json:"regions"`
	Mutants    int            `json:"mutants"`
	Statuses   map[string]int `json:"statuses"`
	Killed     int            `json:"killed"`
	Equivalent int            `json:"equivalent"`
	Undetected int            `json:"undetected"`
	List       []string       `json:"list"`
}

type equivalent struct {
	File        string   `json:"file"`
	Mutator     string   `json:"mutator"`
	Original    string   `json:"original"`
	Replacement string   `json:"replacement"`
	Line        string   `json:"line"`
	Profiles    []string `json:"profiles"`
	Reason      string   `json:"reason"`
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestStrykerSummaries: the committed StrykerJS summary of each profile accounts for every
// mutant as killed or listed equivalent, and every listed equivalent gives its reason. The
// summaries are what `./stryker.sh --update-summary` wrote; check.mjs made the same checks
// against the run's own report.
func TestStrykerSummaries(t *testing.T) {
	var eq struct {
		Mutants []equivalent `json:"mutants"`
	}
	readJSON(t, "stryker-equivalent.json", &eq)
	for _, e := range eq.Mutants {
		if strings.TrimSpace(e.Reason) == "" {
			t.Errorf("stryker-equivalent.json: %s %s %q -> %q: no reason", e.File, e.Mutator, e.Original, e.Replacement)
		}
	}
	// 0.0.1-rc.1 is measured whole. 0.1.0-rc.8 keeps every other region byte for byte
	// (config, serialization, projection, retention, URI and mentions, and the collaborator
	// files), so its run mutates the region where it differs, the service.
	want := map[string]string{"0.0.1-rc.1": "all", "0.1.0-rc.8": "service"}
	for profile, regions := range want {
		t.Run(profile, func(t *testing.T) {
			var s summary
			readJSON(t, filepath.Join("stryker-summary", profile+".json"), &s)
			if s.Profile != profile {
				t.Errorf("profile %q, want %q", s.Profile, profile)
			}
			if s.Regions != regions && s.Regions != "all" {
				t.Errorf("regions %q, want %q or all", s.Regions, regions)
			}
			if s.Mutants == 0 || len(s.List) != s.Mutants {
				t.Errorf("%d mutants, %d listed", s.Mutants, len(s.List))
			}
			if s.Killed+s.Equivalent != s.Mutants || s.Undetected != 0 {
				t.Errorf("killed %d + equivalent %d != %d mutants (%d undetected)", s.Killed, s.Equivalent, s.Mutants, s.Undetected)
			}
			counts := map[string]int{}
			for _, line := range s.List {
				verdict, _, _ := strings.Cut(line, " ")
				counts[verdict]++
				if verdict != "killed" && verdict != "equivalent" {
					t.Errorf("mutant neither killed nor listed equivalent: %s", line)
				}
			}
			if counts["killed"] != s.Killed || counts["equivalent"] != s.Equivalent {
				t.Errorf("list has %v, summary says killed %d, equivalent %d", counts, s.Killed, s.Equivalent)
			}
		})
	}
}

// TestCoverageAllowlist: every span of the contract's code the certification leaves
// unreached (coverage.sh) is listed with the reason the public API cannot reach it.
func TestCoverageAllowlist(t *testing.T) {
	var list struct {
		Unreached []struct {
			File   string `json:"file"`
			Text   string `json:"text"`
			Reason string `json:"reason"`
		} `json:"unreached"`
	}
	readJSON(t, "coverage-unreached.json", &list)
	if len(list.Unreached) == 0 {
		t.Fatal("coverage-unreached.json lists nothing")
	}
	for _, u := range list.Unreached {
		if u.File == "" || u.Text == "" || strings.TrimSpace(u.Reason) == "" {
			t.Errorf("coverage-unreached.json: incomplete entry %+v", u)
		}
	}
}
