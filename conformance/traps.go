package conformance

import (
	"sync"

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

// addTrapHints gives every failing check that names porting traps one line per trap, the
// catalogue's hint and id ("looks like …: TRAP-…"), so a port author reads which language
// default to look at next to the input.
func addTrapHints(cs []result.Case) error {
	traps, err := trapCatalogue()
	for i := range cs {
		if cs[i].Status != result.Fail || len(cs[i].Traps) == 0 {
			continue
		}
		cs[i].TrapHints = nil
		for _, id := range cs[i].Traps {
			cs[i].TrapHints = append(cs[i].TrapHints, trapHint(traps, id))
		}
	}
	return err
}

// TrapHint is the one line a report gives a porting trap: "looks like …: TRAP-…" from the
// catalogue (spec/porting-traps.md), or "a porting trap: ID" for an id it does not hold.
func TrapHint(id string) string {
	traps, _ := trapCatalogue()
	return trapHint(traps, id)
}

func trapHint(traps map[string]trace.Trap, id string) string {
	hint := "a porting trap"
	if t, ok := traps[id]; ok {
		hint = t.Hint
	}
	return hint + ": " + id
}
