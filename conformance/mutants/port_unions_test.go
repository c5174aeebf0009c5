package mutants

import "github.com/sessionref-kit/sessionref-kit/reference/jsjson"

// unionMutants are the two mistakes of issue 26 that passed every fixed check: no StrykerJS
// operator makes them (a member of a closed union the code never names; a constant offset on
// a bound). The boundary pass over the package (conformance/adapters/node-upstream/boundary)
// makes their kind of mutant of the package itself; these are their Go ports.
func unionMutants() []mutant {
	return []mutant{
		knob("retention/skip-assistant-chunks", "assistant/chunk events skipped as tool results are (the README: \"unfinished assistant chunks are excluded\"), where the package fails", knobs{skipChunks: true}),
		knob("retention/bisection-high-below", "the truncation bisection's upper bound starts one byte below the target", knobs{bisectHighBelow: true}),
	}
}

// withoutChunks drops every assistant/chunk event, as a port that reads the README's "unfinished
// assistant chunks are excluded" as a rule of projection does; the package's event union is
// closed, and it fails on one.
func withoutChunks(events []any) []any {
	out := make([]any, 0, len(events))
	for _, ev := range events {
		if o, ok := ev.(*jsjson.Object); ok {
			if typ, _ := o.Get("type"); typ == "assistant/chunk" {
				continue
			}
		}
		out = append(out, ev)
	}
	return out
}
