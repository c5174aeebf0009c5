package gen

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
)

// The replay of the bisection that BisectionNotBestFit and the not-best-fit budgets rest on
// is the reference's truncation (refadapter.Semantics, the wiring of the embedded reference),
// and the best fit never keeps less.
func TestHeadTailFitsIsTheReferenceBisection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var text string
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			text = widthText(t, Options{LoneSurrogates: true})
		case 1:
			text = bomText(t, Options{})
		default:
			text = bestFitText(t)
		}
		maxBytes := rapid.IntRange(0, len(text)+2).Draw(t, "maxBytes")
		want := refadapter.Semantics{}.Truncate(text, maxBytes)
		if got := bisectTruncate(text, maxBytes); got != want {
			t.Fatalf("bisection replay %q, the reference's truncation %q", got, want)
		}
		if bf := bestFitTruncate(text, maxBytes); len(bf) < len(want) || len(bf) > max(maxBytes, len(text)) {
			t.Fatalf("best fit %q shorter than the bisection's %q or over the budget", bf, want)
		}
		if BisectionNotBestFit(text, maxBytes) && bestFitTruncate(text, maxBytes) == want {
			t.Fatalf("BisectionNotBestFit, yet the best fit is the bisection's %q", want)
		}
	})
}

// Every known not-best-fit text has a budget where the two searches part ways.
func TestNotBestFitTexts(t *testing.T) {
	for _, s := range notBestFitTexts {
		found := false
		for target := 1; target < len(s) && !found; target++ {
			found = BisectionNotBestFit(s, target)
		}
		if !found {
			t.Errorf("%q: the bisection finds the best fit at every budget", s)
		}
	}
}

// Traps are non-empty and distinct.
func TestTraps(t *testing.T) {
	seen := map[string]bool{}
	for _, tr := range Traps() {
		if tr.S == "" || tr.Why == "" {
			t.Errorf("empty trap %+v", tr)
		}
		if seen[tr.S] {
			t.Errorf("duplicate trap %q", tr.S)
		}
		seen[tr.S] = true
	}
}
