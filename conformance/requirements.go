package conformance

import (
	"embed"
	"slices"
	"sync"

	"github.com/sessionref-kit/sessionref-kit/conformance/partitions"
	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
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

// embeddedCoverage is Coverage of the embedded features and fixtures, which cannot change:
// built once per process, not at the end of every run.
var embeddedCoverage = sync.OnceValues(func() (*trace.Matrix, error) {
	return Runner{Features: features.FS, Fixtures: fixtures.FS}.Coverage()
})

// coverage is Coverage, shared between runs of the embedded data (read-only).
func (r Runner) coverage() (*trace.Matrix, error) {
	f, ok1 := r.Features.(embed.FS)
	x, ok2 := r.Fixtures.(embed.FS)
	if ok1 && ok2 && f == features.FS && x == fixtures.FS {
		return embeddedCoverage()
	}
	return r.Coverage()
}

// partitionCounts counts the partitions of each requirement. The partitions are embedded
// data, checked by their own test: an unreadable list only leaves the column at 0.
var partitionCounts = sync.OnceValue(func() map[string]int {
	parts := map[string]int{}
	if all, err := partitions.All(); err == nil {
		for _, p := range all {
			parts[p.Requirement]++
		}
	}
	return parts
})

// requirementRows groups the run's results by requirement, in spec order, beside how many
// checks of each kind the kit defines for it.
func requirementRows(m *trace.Matrix, cases []result.Case) []report.Requirement {
	parts := partitionCounts()
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
