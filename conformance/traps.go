package conformance

import (
	"slices"
	"strings"
	"sync"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

var trapCatalogue = sync.OnceValues(func() (map[string]trace.Trap, error) {
	traps, err := trace.Traps(spec.FS)
	m := make(map[string]trace.Trap, len(traps))
	for _, t := range traps {
		m[t.ID] = t
	}
	return m, err
})

// addTrapHints gives every failing check that names porting traps one line per trap that
// can explain it, the catalogue's hint and id ("looks like …: TRAP-…"), so a port author
// reads which language default to look at next to the input. language is the hello's
// (optional): when the catalogue knows it, only the traps its defaults fall into are
// given; otherwise each line says which languages the trap is about. Traps that the run
// itself rules out are dropped first (passedAlone); the rest are ranked, those whose own
// checks failed first, then measured rows.
func addTrapHints(cs []result.Case, language string) error {
	traps, err := trapCatalogue()
	lang, known := protocol.ParseLanguage(language)
	if !known {
		lang = ""
	}
	cleared, failed := passedAlone(cs)
	for i := range cs {
		if cs[i].Status != result.Fail || len(cs[i].Traps) == 0 {
			continue
		}
		ids := cs[i].Traps
		if len(ids) > 1 {
			kept := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return cleared[id] })
			if len(kept) > 0 {
				ids = kept
			}
		}
		cs[i].TrapHints = trapHints(traps, ids, lang, failed)
	}
	return err
}

// passedAlone returns the traps that this run's own checks rule out: every check that
// names the trap alone ran and passed (at least one did). A failing check that names several
// traps is then not explained by those: a port whose final sigma rule passes every check of
// TRAP-CASE-FINAL-SIGMA-MISSING has a rule. It also returns the traps a check naming them
// alone failed: the likeliest causes, ranked first.
func passedAlone(cs []result.Case) (cleared, failed map[string]bool) {
	cleared, failed = map[string]bool{}, map[string]bool{}
	for _, c := range cs {
		if len(c.Traps) != 1 {
			continue
		}
		switch c.Status {
		case result.Pass:
			cleared[c.Traps[0]] = true
		case result.Fail:
			failed[c.Traps[0]] = true
		}
	}
	for id := range failed {
		delete(cleared, id)
	}
	return cleared, failed
}

// trapHints is the hint lines for the traps ids of one failing check, for the language
// lang ("" when not known), ranked: first the traps a check naming them alone failed in this
// run (failed), then, for a language, those whose row was measured.
func trapHints(traps map[string]trace.Trap, ids []string, lang string, failed map[string]bool) []string {
	type ranked struct {
		line             string
		failed, measured bool
	}
	var kept []ranked
	for _, id := range ids {
		t, ok := traps[id]
		if !ok || lang == "" {
			kept = append(kept, ranked{line: trapHint(traps, id), failed: failed[id]})
			continue
		}
		applies, rowKnown := t.Applies(lang)
		switch {
		case !rowKnown:
			kept = append(kept, ranked{line: trapHint(traps, id), failed: failed[id]})
		case applies:
			kept = append(kept, ranked{line: t.Hint + ": " + id, failed: failed[id], measured: t.Measured(lang)})
		}
	}
	if len(kept) == 0 {
		return []string{"no trap this check was built for is known in " + lang + "'s defaults (" +
			strings.Join(ids, ", ") + " are about other languages): compare the input with the contract"}
	}
	first := func(a, b bool) int {
		switch {
		case a == b:
			return 0
		case a:
			return -1
		}
		return 1
	}
	slices.SortStableFunc(kept, func(a, b ranked) int {
		if c := first(a.failed, b.failed); c != 0 {
			return c
		}
		return first(a.measured, b.measured)
	})
	out := make([]string, len(kept))
	for i, k := range kept {
		out[i] = k.line
	}
	return out
}

// TrapHints are the hint lines for a difference that the traps ids can explain, for a port
// whose hello names language ("" for none): as a report gives them (addTrapHints), without
// the evidence of a run.
func TrapHints(ids []string, language string) []string {
	traps, _ := trapCatalogue()
	lang, known := protocol.ParseLanguage(language)
	if !known {
		lang = ""
	}
	return trapHints(traps, ids, lang, nil)
}

// TrapHint is the one line a report gives a porting trap for a port of no named language:
// "looks like …: TRAP-… (about Go, C#/.NET, …)" from the catalogue (spec/porting-traps.md),
// or "a porting trap: ID" for an id it does not hold.
func TrapHint(id string) string {
	traps, _ := trapCatalogue()
	return trapHint(traps, id)
}

func trapHint(traps map[string]trace.Trap, id string) string {
	t, ok := traps[id]
	if !ok {
		return "a porting trap: " + id
	}
	line := t.Hint + ": " + id
	if about := t.About(); len(about) > 0 {
		line += " (about " + strings.Join(about, ", ") + ")"
	}
	return line
}
