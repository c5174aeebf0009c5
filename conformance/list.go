package conformance

import (
	"context"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// List returns the checks a run with r's selection (parts, tags, Match, shard, profile)
// would make, in run order, without an adapter: each with its part, area, name,
// requirements, traps and source. Checks r.Skip matches are listed too, with the message
// Skipped. r's Command, Handler and Checks are ignored.
func List(ctx context.Context, r Runner) ([]result.Case, error) {
	r.Command, r.Handler = nil, nil
	r.Progress, r.PartDone, r.Take = nil, nil, nil
	runner, err := NewRunner(r)
	if err != nil {
		return nil, err
	}
	var out []result.Case
	for _, part := range Parts {
		if !runner.selects(part) {
			continue
		}
		for _, c := range runner.notRun(part, "", "", nil) {
			l := result.Case{Part: c.Part, Area: c.Area, Name: c.Name, Requirements: c.Requirements, Traps: c.Traps, Source: c.Source}
			if c.Message == suite.Skipped {
				l.Message = c.Message
			}
			out = append(out, l)
		}
	}
	return out, nil
}

// checks returns the checks part makes in this run's selection and shard, in run order.
func (r Runner) checks(part string) ([]suite.Check, error) {
	return r.part(part, 0).List(r.sel)
}

// notRun returns the checks part would make that done does not report, as cases with status
// st and message msg: those Skip matches not covered with the message Skipped, and a kit bug
// when the part's data do not load, as a run reports them (when the run stops mid-part, the
// rest of its selection). With Take set, it asks Take for each and passes those taken to
// Progress, as a run does.
func (r Runner) notRun(part string, st result.Status, msg string, done []result.Case) []result.Case {
	checks, err := r.checks(part)
	if err != nil {
		return []result.Case{suite.KitBug(part, err)}
	}
	seen := map[string]bool{}
	for _, c := range done {
		seen[c.Name] = true
	}
	var out []result.Case
	for _, c := range checks {
		if seen[c.Name] || (r.Take != nil && !r.Take(c.Part, c.Name)) {
			continue
		}
		rc := c.Case(st, msg)
		if r.sel.Skips(c.Part, c.Name) {
			rc = c.Case(result.NotCovered, suite.Skipped)
		}
		if r.Take != nil && r.Progress != nil {
			r.Progress(rc)
		}
		out = append(out, rc)
	}
	return out
}
