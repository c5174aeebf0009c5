package cases_test

import (
	"slices"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
)

func TestPartTraps(t *testing.T) {
	lower := []string{"TRAP-CASE-UNICODE-VERSION", "TRAP-CASE-ASCII-ONLY", "TRAP-CASE-CODE-UNIT"}
	sigma := []string{"TRAP-CASE-FINAL-SIGMA-PROPERTIES", "TRAP-CASE-FINAL-SIGMA-MISSING"}
	for _, tc := range []struct {
		name         string
		traps        []string
		query, title string
		want         []string
	}{
		// ASCII: nothing narrows to a trap that reaches it, so all are kept.
		{"ascii", lower, "A", "a", lower},
		{"bmp", lower, "Ꭰ", "ꭰ", []string{"TRAP-CASE-UNICODE-VERSION", "TRAP-CASE-ASCII-ONLY"}},
		{"astral", lower, "𐐀", "𐐨", lower},
		{"lone-surrogate", lower, "A\xed\xa0\x80", "a\xed\xa0\x80", lower},
		// The contract writes σ: a port with no rule writes σ too, so only the properties can
		// explain a difference (what a Java port that failed here was once told otherwise).
		{"medial-sigma", sigma, "A0Σ", "a0σ", []string{"TRAP-CASE-FINAL-SIGMA-PROPERTIES"}},
		{"final-sigma", sigma, "AΣ", "aς", sigma},
		{"other-traps-kept", []string{"TRAP-RE-DOT"}, "x", "x", []string{"TRAP-RE-DOT"}},
	} {
		got := cases.PartTraps(tc.traps, cases.ChunkPart{Query: tc.query, Title: tc.title})
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: PartTraps = %v, want %v", tc.name, got, tc.want)
		}
	}
}
