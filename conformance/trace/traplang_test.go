package trace_test

import (
	"slices"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// The catalogue's tables say, per language, whether its default falls into each trap; the
// hints a report gives a named language rest on it, so a few known facts are pinned here
// (the Java port told "no final-sigma rule" was told something false: Java has one).
func TestTrapLanguages(t *testing.T) {
	traps, err := trace.Traps(spec.FS)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]trace.Trap{}
	for _, tr := range traps {
		byID[tr.ID] = tr
	}
	for _, tc := range []struct {
		trap, lang string
		applies    bool
	}{
		{"TRAP-CASE-FINAL-SIGMA-MISSING", "java", false},   // "see TRAP-CASE-FINAL-SIGMA-PROPERTIES"
		{"TRAP-CASE-FINAL-SIGMA-MISSING", "kotlin", false}, // the JVM row
		{"TRAP-CASE-FINAL-SIGMA-MISSING", "python", false}, // "none here"
		{"TRAP-CASE-FINAL-SIGMA-MISSING", "go", true},
		{"TRAP-CASE-FINAL-SIGMA-MISSING", "cpp", true}, // std is affected, ICU is not: either
		{"TRAP-CASE-FINAL-SIGMA-PROPERTIES", "java", true},
		{"TRAP-CASE-FINAL-SIGMA-PROPERTIES", "rust", false},  // none on 1.95
		{"TRAP-CASE-FINAL-SIGMA-PROPERTIES", "csharp", true}, // "as Go"
		{"TRAP-CASE-LOCALE", "java", true},
		{"TRAP-CASE-LOCALE", "go", false},
		{"TRAP-CASE-FOLDING", "cpp", true},          // ICU "as Python"
		{"TRAP-ASYNC-CANCEL-POINTS", "java", true},  // "as Go"
		{"TRAP-RE-REPLACEMENT", "typescript", true}, // "JavaScript itself"
		{"TRAP-RE-BACKTRACKING-DEPTH", "go", false}, // RE2
		{"TRAP-ORDER-SEQ", "swift", true},           // "all"
	} {
		tr, ok := byID[tc.trap]
		if !ok {
			t.Fatalf("no trap %s", tc.trap)
		}
		applies, known := tr.Applies(tc.lang)
		if !known || applies != tc.applies {
			t.Errorf("%s for %s: applies %v (row known %v), want %v", tc.trap, tc.lang, applies, known, tc.applies)
		}
	}
	// Every trap has a row for each language the checklist covers, and is about at least one.
	for _, tr := range traps {
		for _, lang := range []string{"python", "go", "rust", "java", "kotlin", "csharp", "swift", "ruby", "cpp"} {
			if _, known := tr.Applies(lang); !known {
				t.Errorf("%s has no row for %s", tr.ID, lang)
			}
		}
		if len(tr.About()) == 0 {
			t.Errorf("%s is about no language", tr.ID)
		}
	}
	if got := byID["TRAP-CASE-FINAL-SIGMA-MISSING"].About(); slices.Contains(got, "Java/Kotlin") || !slices.Contains(got, "Go") {
		t.Errorf("TRAP-CASE-FINAL-SIGMA-MISSING is about %v", got)
	}
}
