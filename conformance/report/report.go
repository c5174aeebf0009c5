// Package report holds a conformance run's outcome and writes it as text for people, JSON for
// tools (a versioned Document, spec/schema/report.schema.json), JUnit XML for CI test views
// and Markdown for CI step summaries; package html makes a page of one or more Documents.
// Every report says how a failure's answers differ the same way (Diff): canonical JSON and
// a line diff, stable from run to run and readable from any language.
package report

import (
	"sort"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// Report is the outcome of one run.
type Report struct {
	Kit     string `json:"kit"`     // the kit's version
	Spec    string `json:"spec"`    // the contract release certified
	Adapter string `json:"adapter"` // the command, or "in-process"
	// Command and Dir are the adapter command as run (its words unsplit) and its working
	// directory, for the rerun lines (Rerun); empty in-process.
	Command     []string       `json:"command,omitempty"`
	Dir         string         `json:"dir,omitempty"`
	Hello       *adapter.Hello `json:"hello,omitempty"`       // the adapter's hello; nil when it failed
	FixtureHash string         `json:"fixtureHash,omitempty"` // cases.Hash of the fixture set
	Seed        uint64         `json:"seed"`                  // rapid's base seed
	Checks      int            `json:"checks"`                // rapid inputs per property
	Tags        string         `json:"tags,omitempty"`        // the tag expression selecting checks
	Match       string         `json:"run,omitempty"`         // the --run expression selecting checks by name
	Skip        string         `json:"skip,omitempty"`        // the --skip expression: checks reported not covered
	Shard       string         `json:"shard,omitempty"`       // "K/N" when sharded
	// Unusable says, in one line, why the adapter could not be certified at all (did not
	// start, failed hello, or stopped answering); empty when it was usable.
	Unusable string `json:"unusable,omitempty"`
	// Interrupted names what stopped the run before it finished ("SIGINT", "SIGTERM",
	// "cancelled"); empty when it ran to the end. The cases hold what finished.
	Interrupted string `json:"interrupted,omitempty"`
	// RequireAll makes a check that is not covered fail the run (exit 1), for ports that
	// claim the whole contract.
	RequireAll bool `json:"requireAll,omitempty"`
	// Restarts counts how often a crashed or hung adapter process was started again.
	Restarts int `json:"restarts"`
	// The run's bounds (Runner.Timeout, MaxTimeouts, MaxRestarts, Deadline), and Timeouts,
	// how many calls timed out.
	Timeout     time.Duration `json:"timeoutNs,omitempty"`
	MaxTimeouts int           `json:"maxTimeouts,omitempty"`
	MaxRestarts int           `json:"maxRestarts,omitempty"`
	Deadline    time.Duration `json:"deadlineNs,omitempty"`
	Timeouts    int           `json:"timeouts"`
	// Orphans names the processes the adapter left running outside its process group,
	// holding its pipes, which the runner neither waited for nor killed ("pid 123 (sleep
	// 600)").
	Orphans  []string `json:"orphans,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	Parts    []Part   `json:"parts"`
	// Requirements groups the results by spec requirement, in spec order: the coverage
	// matrix of the kit's checks beside this run's outcome for each.
	Requirements []Requirement  `json:"requirements,omitempty"`
	Cases        []result.Case  `json:"cases"`
	Elapsed      time.Duration  `json:"elapsedNs"`
	Started      time.Time      `json:"started"`
	Totals       Counts         `json:"totals"`
	Verdict      VerdictSummary `json:"verdict"`
}

// Part is one part of a run (features, fixtures or properties).
type Part struct {
	Name    string        `json:"name"`
	Counts                // of the part's cases
	Elapsed time.Duration `json:"elapsedNs"`
	// Note says why a part has no cases (not selected, not in this shard, none defined) or
	// could not run.
	Note string `json:"note,omitempty"`
}

// Requirement is one spec requirement's row of the coverage matrix: how many scenarios,
// fixture cases and properties the kit defines for it, and the counts of this run's checks
// that named it.
type Requirement struct {
	ID         string `json:"id"`
	Scenarios  int    `json:"scenarios"`
	Fixtures   int    `json:"fixtures"`
	Properties int    `json:"properties"`
	// Partitions is how many input partitions conformance/partitions lists for it.
	Partitions int `json:"partitions"`
	Counts
}

// Counts are the number of cases per status.
type Counts struct {
	Total      int `json:"total"`
	Pass       int `json:"pass"`
	Fail       int `json:"fail"`
	NotCovered int `json:"notCovered"`
	Error      int `json:"error"`
	FixtureBug int `json:"fixtureBug"`
}

// Add counts one case.
func (c *Counts) Add(s result.Status) {
	c.Total++
	switch s {
	case result.Pass:
		c.Pass++
	case result.Fail:
		c.Fail++
	case result.NotCovered:
		c.NotCovered++
	case result.Error:
		c.Error++
	case result.FixtureBug:
		c.FixtureBug++
	}
}

// CountCases counts cases by status.
func CountCases(cases []result.Case) Counts {
	var c Counts
	for _, cs := range cases {
		c.Add(cs.Status)
	}
	return c
}

// Area is the counts of one area (uri, mention, …) across parts.
type Area struct {
	Name string `json:"name"`
	Counts
}

// Areas returns per-area counts, areas in name order.
func (r *Report) Areas() []Area {
	m := map[string]*Counts{}
	for _, cs := range r.Cases {
		a := cs.Area
		if a == "" {
			a = "(none)"
		}
		if m[a] == nil {
			m[a] = &Counts{}
		}
		m[a].Add(cs.Status)
	}
	out := make([]Area, 0, len(m))
	for name, c := range m {
		out = append(out, Area{Name: name, Counts: *c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Finish computes Totals and Verdict from the parts and cases.
func (r *Report) Finish() {
	r.Totals = CountCases(r.Cases)
	r.Verdict = r.verdict()
}

// first describes the first case with status s in one line.
func (r *Report) first(s result.Status) string {
	for _, cs := range r.Cases {
		if cs.Status == s {
			return cs.Part + " " + cs.Name + ": " + cs.Message
		}
	}
	return ""
}
