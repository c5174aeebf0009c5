// Package result holds the outcome of one conformance check, shared by every part of a run
// (features, fixtures, properties) and by the reports.
package result

import "time"

// Status is a check's verdict.
type Status string

// The verdicts. Only Fail makes an implementation non-conformant; Error means the adapter
// was unusable for the check (crash, hang, protocol breach); NotCovered means the adapter
// declared the op or feature unsupported; FixtureBug is a defect of the kit's own data.
const (
	Pass       Status = "pass"
	Fail       Status = "fail"
	NotCovered Status = "not-covered"
	Error      Status = "error"
	FixtureBug Status = "fixture-bug"
)

// Case is one check's outcome.
type Case struct {
	Part         string   `json:"part"` // "features", "fixtures" or "properties"
	Area         string   `json:"area"` // uri, mention, config, candidates, prepare, host, …
	Name         string   `json:"name"`
	Requirements []string `json:"requirements,omitempty"` // spec ids, e.g. SR-URI-3
	// Traps are the porting traps (spec/porting-traps.md) the check is built to catch; a
	// failing check names them so a port author sees which language default to look at.
	Traps []string `json:"traps,omitempty"`
	// TrapHints explain a failing check's traps in one line each, "looks like …: TRAP-…".
	TrapHints []string `json:"trapHints,omitempty"`
	// Diagnosis names, for a failing check made of many inputs, the first input that the
	// implementation answers differently from the contract.
	Diagnosis string        `json:"diagnosis,omitempty"`
	Status    Status        `json:"status"`
	Message   string        `json:"message,omitempty"` // one line: why it failed
	Input     string        `json:"input,omitempty"`   // the request, as a protocol line
	Want      string        `json:"want,omitempty"`
	Got       string        `json:"got,omitempty"`
	Diff      string        `json:"diff,omitempty"` // go-cmp diff (-want +got), for Go tests; reports use report.Diff
	Seed      uint64        `json:"seed,omitempty"` // rapid seed, for properties
	Duration  time.Duration `json:"durationNs"`
}
