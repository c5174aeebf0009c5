package conformance

import (
	"slices"

	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// shard returns sel restricted to shard K of N: the checks of the whole selection (every
// selected part, in run order) dealt in turn, check i to shard i mod N, so shards differ by
// one check at most and their union is the whole run. A name met twice goes where it was
// first dealt, so no check runs in two shards.
func (r Runner) shard(sel suite.Selection) suite.Selection {
	if sel.Shards == 0 {
		return sel
	}
	only, seen, i := map[string]bool{}, map[string]bool{}, 0
	for _, part := range Parts {
		if !slices.Contains(r.Parts, part) {
			continue
		}
		checks, _ := r.part(part, 0).List(sel) // an error is the run's to report, unsharded
		for _, c := range checks {
			if seen[c.ID()] {
				continue
			}
			seen[c.ID()] = true
			if sel.InShard(i) {
				only[c.ID()] = true
			}
			i++
		}
	}
	sel.Only = only
	return sel
}

// selects reports whether this run makes part: it is one of Parts and, sharded, this shard
// holds some of its checks (or the whole selection none, so the part says "0 …").
func (r Runner) selects(part string) bool {
	if !slices.Contains(r.Parts, part) {
		return false
	}
	if r.Shards == 0 {
		return true
	}
	if cs, err := r.checks(part); err != nil || len(cs) > 0 {
		return true
	}
	all := r.sel
	all.Only = nil
	cs, _ := r.part(part, 0).List(all)
	return len(cs) == 0
}
