package conformance_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/partitions"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// The partitions of package partitions are checked here, against the runner's own list of
// checks: a test of their own would link this package, and all it links, into one more test
// binary for one test.

// seedIndependent are the parts whose verdict no seed decides: a partition's check is one of
// theirs, never a property.
var seedIndependent = []string{conformance.PartFeatures, conformance.PartFixtures}

// TestEveryPartitionHasACheck: every requirement of the spec lists its inputs' partitions,
// every partition names at least one check, and every check named exists (in one profile or
// the other) and checks that requirement.
func TestEveryPartitionHasACheck(t *testing.T) {
	parts, err := partitions.All()
	if err != nil {
		t.Fatal(err)
	}
	reqs, err := trace.Requirements(spec.FS)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string][]string{} // part/name -> requirement ids
	for _, profile := range []string{cases.Profile001, cases.Profile010} {
		list, err := conformance.List(context.Background(), conformance.Runner{Profile: protocol.Profile(profile), Parts: seedIndependent, Features: features.FS, Fixtures: fixtures.FS})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range list {
			checks[c.Part+"/"+c.Name] = c.Requirements
		}
	}
	known := map[string]bool{}
	for _, r := range reqs {
		known[r.ID] = true
	}
	listed := map[string]bool{}
	seen := map[string]bool{}
	for _, p := range parts {
		where := p.Requirement + " " + p.Input + " " + p.Name
		if seen[where] {
			t.Errorf("%s: listed twice", where)
		}
		seen[where] = true
		if !known[p.Requirement] {
			t.Errorf("%s: no such requirement in the spec", where)
		}
		listed[p.Requirement] = true
		if len(p.Checks) == 0 {
			t.Errorf("%s: no check covers this partition", where)
		}
		for _, c := range p.Checks {
			ids, ok := checks[c]
			switch {
			case !ok:
				t.Errorf("%s: no check named %q (conformance-runner list)", where, c)
			case !slices.Contains(ids, p.Requirement):
				t.Errorf("%s: check %q does not check %s (it checks %v)", where, c, p.Requirement, ids)
			}
		}
	}
	for _, r := range reqs {
		if !listed[r.ID] {
			t.Errorf("%s: no partitions listed for this requirement", r.ID)
		}
	}
}
