// Package result holds the outcome of one conformance check, shared by every part of a run
// (features, fixtures, properties) and by the reports.
package result

import (
	"strconv"
	"strings"
	"time"
)

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
	// failing check names them so a port author sees which language default to look at. For
	// a failing check made of many inputs, only those that reach its first differing input
	// (cases.PartTraps).
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
	// Source is where the check the case came from is defined (suite.Check.Source), for the
	// reports' "at:" lines; zero for a property. The reports' JSON carries it as file, line
	// and steps.
	Source Source `json:"-"`
}

// Source is where a check is defined: a scenario (or an outline's example row) of a feature
// file, or a case of a fixture file, with the scenario's steps as written.
type Source struct {
	File  string   `json:"file"` // "features/uri.feature", "fixtures/uri-decode.yaml"
	Line  int      `json:"line"` // 1-based: the scenario, example row or "- name:" line
	Steps []string `json:"steps,omitempty"`
}

// The bounds on what a Case keeps of an adapter's answer, in bytes: a response line may be
// 64 MiB, and a run keeps every case, so each field is clipped when the case is made. A
// run's memory is then bounded by the number of checks, whatever the adapter answers.
const (
	MaxField   = 4 << 10 // Input, Want, Got
	MaxDiff    = 8 << 10
	MaxMessage = 1 << 10
)

// Clipped returns c with Input, Want, Got, Diff and Message clipped to their bounds (see
// Clip); the strings it keeps are copies, so the originals can be freed.
func (c Case) Clipped() Case {
	c.Input, c.Want, c.Got = Clip(c.Input, MaxField), Clip(c.Want, MaxField), Clip(c.Got, MaxField)
	c.Diff, c.Message = Clip(c.Diff, MaxDiff), Clip(c.Message, MaxMessage)
	return c
}

// Clip returns s when it is at most n bytes long, else a copy of its first n bytes at most
// (cut at a character boundary) followed by how much was dropped: "… 19.9 MB dropped".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for i := 0; i < 3 && cut > 0 && s[cut]&0xC0 == 0x80; i++ {
		cut-- // back to the first byte of a UTF-8 (or WTF-8) sequence
	}
	return strings.Clone(s[:cut]) + "… " + Size(len(s)-cut) + " dropped"
}

// Size formats a byte count for people, in decimal units: "512 B", "3.4 kB", "19.9 MB".
func Size(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n) + " B"
	case n < 1000*1000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " kB"
	case n < 1000*1000*1000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	}
	return strconv.FormatFloat(float64(n)/1e9, 'f', 1, 64) + " GB"
}
