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
// given, measured rows first; otherwise each line says which languages the trap is about.
// Traps that the run itself rules out are dropped first (passedAlone).
func addTrapHints(cs []result.Case, language string) error {
	traps, err := trapCatalogue()
	lang, known := protocol.ParseLanguage(language)
	if !known {
		lang = ""
	}
	cleared := passedAlone(cs)
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
		cs[i].TrapHints = trapHints(traps, ids, lang)
	}
	return err
}

// passedAlone returns the traps that this run's own checks rule out: every check that
// names the trap alone ran and passed (at least one did). A failing check that names several
// traps is then not explained by those: a port whose final sigma rule passes every check of
// TRAP-CASE-FINAL-SIGMA-MISSING has a rule.
func passedAlone(cs []result.Case) map[string]bool {
	cleared := map[string]bool{}
	failed := map[string]bool{}
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
	return cleared
}

// trapHints is the hint lines for the traps ids of one failing check, for the language
// lang ("" when not known).
func trapHints(traps map[string]trace.Trap, ids []string, lang string) []string {
	if lang == "" {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = trapHint(traps, id)
		}
		return out
	}
	type ranked struct {
		line     string
		measured bool
	}
	var kept []ranked
	for _, id := range ids {
		t, ok := traps[id]
		if !ok {
			kept = append(kept, ranked{line: trapHint(traps, id)})
			continue
		}
		applies, rowKnown := t.Applies(lang)
		switch {
		case !rowKnown:
			kept = append(kept, ranked{line: trapHint(traps, id)})
		case applies:
			kept = append(kept, ranked{line: t.Hint + ": " + id, measured: t.Measured(lang)})
		}
	}
	if len(kept) == 0 {
		return []string{"no trap this check was built for is known in " + lang + "'s defaults (" +
			strings.Join(ids, ", ") + " are about other languages): compare the input with the contract"}
	}
	slices.SortStableFunc(kept, func(a, b ranked) int {
		switch {
		case a.measured == b.measured:
			return 0
		case a.measured:
			return -1
		}
		return 1
	})
	out := make([]string, len(kept))
	for i, k := range kept {
		out[i] = k.line
	}
	return out
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
