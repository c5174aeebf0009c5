package conformance

import (
	"slices"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

func TestTrapHintsByLanguage(t *testing.T) {
	const (
		props   = "TRAP-CASE-FINAL-SIGMA-PROPERTIES"
		missing = "TRAP-CASE-FINAL-SIGMA-MISSING"
		escapes = "TRAP-JSON-ESCAPES"
	)
	failing := func(traps ...string) result.Case {
		return result.Case{Name: "c", Status: result.Fail, Traps: traps}
	}
	hints := func(lang string, cs ...result.Case) [][]string {
		t.Helper()
		if err := addTrapHints(cs, lang); err != nil {
			t.Fatal(err)
		}
		var out [][]string
		for _, c := range cs {
			out = append(out, c.TrapHints)
		}
		return out
	}
	ids := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			for _, f := range strings.Fields(strings.ReplaceAll(l, ":", " ")) {
				if strings.HasPrefix(f, "TRAP-") {
					out = append(out, strings.Trim(f, "(),"))
				}
			}
		}
		return out
	}
	for _, tc := range []struct {
		name, lang string
		cases      []result.Case
		want       []string // the trap ids of the first case's hints, in order
		about      bool     // each line says which languages it is about
	}{
		// Java decides final sigma, with other data: never "no final-sigma rule".
		{"java-sigma", "java", []result.Case{failing(props, missing)}, []string{props}, false},
		{"kotlin-sigma", "Kotlin", []result.Case{failing(missing, props)}, []string{props}, false},
		// Go has no rule at all: both can explain it, and both are measured rows.
		{"go-sigma", "golang", []result.Case{failing(props, missing)}, []string{props, missing}, false},
		// No language: every trap, each with the languages it is about.
		{"no-language", "", []result.Case{failing(props, missing)}, []string{props, missing}, true},
		{"unknown-language", "zig", []result.Case{failing(props, missing)}, []string{props, missing}, true},
		// The run's own checks of the missing rule passed: it is not the cause.
		{"ruled-out-by-the-run", "", []result.Case{failing(props, missing), {Name: "w", Status: result.Pass, Traps: []string{missing}}}, []string{props}, true},
		// ... unless one of them failed too; then it is ranked first, as the likelier cause.
		{"not-ruled-out", "", []result.Case{failing(props, missing), {Name: "w", Status: result.Pass, Traps: []string{missing}}, {Name: "x", Status: result.Fail, Traps: []string{missing}}}, []string{missing, props}, true},
		// Measured rows first: Java's JSON escapes row is documented (D, Gson and Jackson), its
		// sigma row measured (M).
		{"measured-first", "java", []result.Case{failing(escapes, props)}, []string{props, escapes}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := hints(tc.lang, tc.cases...)[0]
			if g := ids(got); !slices.Equal(g, tc.want) {
				t.Errorf("hints %q: traps %v, want %v", got, g, tc.want)
			}
			for _, l := range got {
				if strings.Contains(l, "(about ") != tc.about {
					t.Errorf("hint %q: says which languages %v, want %v", l, !tc.about, tc.about)
				}
			}
		})
	}
	// A language none of whose rows applies gets no trap's hint, and a line saying so.
	got := hints("typescript", failing(missing))[0]
	if len(got) != 1 || !strings.Contains(got[0], "no trap this check was built for is known in typescript") {
		t.Errorf("typescript: %q", got)
	}
	// Passing checks get no hints.
	if got := hints("java", result.Case{Status: result.Pass, Traps: []string{props}})[0]; got != nil {
		t.Errorf("a passing check got hints %q", got)
	}
}
