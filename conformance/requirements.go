package conformance

import (
	"slices"

	"github.com/sessionref-kit/sessionref-kit/conformance/partitions"
	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// TraceProperties returns the registered properties as the traceability check sees them.
func TraceProperties() []trace.Property {
	var out []trace.Property
	for _, p := range properties.All() {
		out = append(out, trace.Property{Name: p.Name, Requirements: p.Requirements})
	}
	return out
}

// Coverage builds the coverage matrix of the run's features and fixtures and the registered
// properties over the spec's requirements.
func (r Runner) Coverage() (*trace.Matrix, error) {
	return trace.Build(spec.FS, r.Features, r.Fixtures, TraceProperties())
}

// requirementRows groups the run's results by requirement, in spec order, beside how many
// checks of each kind the kit defines for it.
func requirementRows(m *trace.Matrix, cases []result.Case) []report.Requirement {
	// The partitions are embedded data, checked by their own test: an unreadable list only
	// leaves the column at 0.
	parts := map[string]int{}
	if all, err := partitions.All(); err == nil {
		for _, p := range all {
			parts[p.Requirement]++
		}
	}
	rows := make([]report.Requirement, 0, len(m.Requirements))
	for _, req := range m.Requirements {
		row := report.Requirement{
			ID:         req.ID,
			Scenarios:  m.Count(req.ID, "scenario"),
			Fixtures:   m.Count(req.ID, "fixture"),
			Properties: m.Count(req.ID, "property"),
			Partitions: parts[req.ID],
		}
		for _, cs := range cases {
			if slices.Contains(cs.Requirements, req.ID) {
				row.Counts.Add(cs.Status)
			}
		}
		rows = append(rows, row)
	}
	return rows
}
