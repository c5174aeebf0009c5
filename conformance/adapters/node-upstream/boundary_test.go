package nodeupstream

import (
	"path/filepath"
	"strings"
	"testing"
)

// boundarySummary is what boundary/run.mjs writes for one profile (boundary.sh
// --update-summary copies it to boundary-summary/PROFILE.json).
type boundarySummary struct {
	Profile    string                    `json:"profile"`
	Sampled    bool                      `json:"sampled"`
	Regions    string                    `json:"regions"`
	Generated  int                       `json:"generated"`
	Mutants    int                       `json:"mutants"`
	Killed     int                       `json:"killed"`
	Timeout    int                       `json:"timeout"`
	Equivalent int                       `json:"equivalent"`
	Survived   int                       `json:"survived"`
	Error      int                       `json:"error"`
	Operators  map[string]map[string]int `json:"operators"`
	List       []string                  `json:"list"`
}

// TestBoundarySummaries: the committed summary of the boundary mutation pass of each profile is
// a full pass (every generated mutant run) over the regions it must cover, accounts for every
// mutant as killed by a fixed check, detected by a hang, or listed equivalent with a reason in
// boundary-equivalent.json, covers every operator, and agrees with its own list.
func TestBoundarySummaries(t *testing.T) {
	var eq struct {
		Mutants []struct {
			Key      string   `json:"key"`
			Profiles []string `json:"profiles"`
			Reason   string   `json:"reason"`
		} `json:"mutants"`
	}
	readJSON(t, "boundary-equivalent.json", &eq)
	listed := map[string]map[string]bool{}
	for _, e := range eq.Mutants {
		if strings.TrimSpace(e.Reason) == "" || e.Key == "" || len(e.Profiles) == 0 {
			t.Errorf("boundary-equivalent.json: incomplete entry %+v", e)
		}
		for _, p := range e.Profiles {
			if listed[p] == nil {
				listed[p] = map[string]bool{}
			}
			listed[p][e.Key] = true
		}
	}
	// 0.0.1-rc.1 is mutated whole; 0.1.0-rc.8 keeps every other region byte for byte, so its
	// pass mutates the region where it differs, as the Stryker run does.
	want := map[string]string{
		"0.0.1-rc.1": "config-serialization,projection-retention,uri-mention,service",
		"0.1.0-rc.8": "service",
	}
	for profile, regions := range want {
		t.Run(profile, func(t *testing.T) {
			var s boundarySummary
			readJSON(t, filepath.Join("boundary-summary", profile+".json"), &s)
			if s.Profile != profile || s.Regions != regions {
				t.Errorf("profile %q regions %q, want %q over %q", s.Profile, s.Regions, profile, regions)
			}
			if s.Sampled || s.Mutants != s.Generated || s.Mutants == 0 || len(s.List) != s.Mutants {
				t.Errorf("not a full pass: sampled %v, %d of %d generated mutants, %d listed", s.Sampled, s.Mutants, s.Generated, len(s.List))
			}
			if s.Survived != 0 || s.Error != 0 || s.Killed+s.Timeout+s.Equivalent != s.Mutants {
				t.Errorf("killed %d + timeout %d + equivalent %d != %d mutants (%d survived, %d errors)", s.Killed, s.Timeout, s.Equivalent, s.Mutants, s.Survived, s.Error)
			}
			counts := map[string]int{}
			for _, line := range s.List {
				verdict, key, _ := strings.Cut(line, " ")
				counts[verdict]++
				switch verdict {
				case "killed", "timeout":
					if listed[profile][key] {
						t.Errorf("listed equivalent, but %s: %s", verdict, key)
					}
				case "equivalent":
					if !listed[profile][key] {
						t.Errorf("equivalent, but not listed in boundary-equivalent.json: %s", key)
					}
				default:
					t.Errorf("mutant neither killed nor listed equivalent: %s", line)
				}
			}
			if counts["killed"] != s.Killed || counts["timeout"] != s.Timeout || counts["equivalent"] != s.Equivalent {
				t.Errorf("list has %v, summary says killed %d, timeout %d, equivalent %d", counts, s.Killed, s.Timeout, s.Equivalent)
			}
			total := 0
			for op, c := range s.Operators {
				total += c["mutants"]
				if c["mutants"] != c["killed"]+c["timeout"]+c["equivalent"] {
					t.Errorf("operator %s: %v", op, c)
				}
			}
			if total != s.Mutants {
				t.Errorf("operators count %d mutants, summary %d", total, s.Mutants)
			}
			// Every operator made mutants where the region has its kind of code: rc.8's service
			// region has no projection (no union), no Math and no search.
			ops := []string{"number", "bound", "argument", "initializer"}
			if profile == "0.0.1-rc.1" {
				ops = append(ops, "index", "math", "search", "union")
			}
			for _, op := range ops {
				if s.Operators[op]["mutants"] == 0 {
					t.Errorf("operator %s made no mutant", op)
				}
			}
		})
	}
}
