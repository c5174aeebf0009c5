// Package result holds the outcome of one conformance check, shared by every part of a run
// (features, fixtures, properties) and by the reports.
package result

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
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
	Diagnosis string `json:"diagnosis,omitempty"`
	Status    Status `json:"status"`
	Message   string `json:"message,omitempty"` // one line: why it failed
	// Input is the request, as a protocol line with the id it was sent with; Want the
	// expected answer (with the same id) or value; Got the adapter's answer or value.
	Input Value `json:"input,omitzero"`
	Want  Value `json:"want,omitzero"`
	Got   Value `json:"got,omitzero"`
	// Diff is how Got differs from Want, as compare explains it, for a failed check that
	// compared two answers or values.
	Diff     *compare.Difference `json:"diff,omitempty"`
	Seed     uint64              `json:"seed,omitempty"` // rapid seed, for properties
	Duration time.Duration       `json:"durationNs"`
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

// Value is a request, an answer or a compared value as a case keeps it: JSON, its compact
// JSON text as the kit's codec (conformance/wire) writes it, valid UTF-8, numbers digit for
// digit as sent or received; or, for what is not such a text (an answer that is not JSON,
// one clipped to MaxField), Text. The reports show it as it is: none parses it again.
type Value struct {
	JSON json.RawMessage
	Text string
}

// JSONOf returns v, a JSON value (conformance/wire), as a Value.
func JSONOf(v any) Value {
	b, err := wire.Marshal(v)
	if err != nil {
		return Value{Text: fmt.Sprintf("%+v", v)} // not a JSON value: shown as Go prints it
	}
	return Value{JSON: b}
}

// Line returns a protocol line as a Value: JSON when it is valid UTF-8, as the lines the
// kit writes are (a line received as written may hold a lone surrogate's raw bytes).
func Line(b []byte) Value {
	if len(b) == 0 {
		return Value{}
	}
	if utf8.Valid(b) {
		return Value{JSON: b}
	}
	return Value{Text: string(b)}
}

// Request returns req's line as a Value, with the id of got when there is one: the client
// numbers a request as it sends it, and checks that the answer echoes that id.
func Request(req protocol.Request, got *protocol.Response) Value {
	if got != nil {
		req.ID = got.ID
	}
	return Line(req.Line())
}

// Answer returns r's line as a report shows it (protocol.Response.Shown), with the id of got
// when there is one (an expected answer is shown beside the answer it is compared with).
func Answer(r protocol.Response, got *protocol.Response) Value {
	if got != nil {
		r.ID = got.ID
	}
	b, err := r.Shown()
	if err != nil {
		return Value{Text: fmt.Sprintf("%+v", r)}
	}
	return Line(b)
}

// MarshalJSON writes v as its JSON value, or its Text as a JSON string.
func (v Value) MarshalJSON() ([]byte, error) {
	if len(v.JSON) > 0 {
		return v.JSON, nil
	}
	return json.Marshal(v.Text)
}

// IsZero reports whether v holds nothing.
func (v Value) IsZero() bool { return len(v.JSON) == 0 && v.Text == "" }

// String is v's JSON text, or its Text.
func (v Value) String() string {
	if len(v.JSON) > 0 {
		return string(v.JSON)
	}
	return v.Text
}

// Len is len(v.String()).
func (v Value) Len() int { return len(v.JSON) + len(v.Text) }

// clipped is v bounded to n bytes: a longer JSON text becomes Text, clipped (Clip).
func (v Value) clipped(n int) Value {
	if v.Len() <= n {
		return v
	}
	return Value{Text: Clip(v.String(), n)}
}

// The bounds on what a Case keeps of an adapter's answer, in bytes: a response line may be
// 64 MiB, and a run keeps every case, so each field is clipped when the case is made. A
// run's memory is then bounded by the number of checks, whatever the adapter answers.
const (
	MaxField   = 4 << 10  // Input, Want, Got
	MaxDiff    = 16 << 10 // each text of Diff, canonical JSON being longer than compact
	MaxMessage = 1 << 10
)

// Clipped returns c with Input, Want, Got, Diff and Message clipped to their bounds (see
// Clip); the strings it keeps are copies, so the originals can be freed.
func (c Case) Clipped() Case {
	c.Input, c.Want, c.Got = c.Input.clipped(MaxField), c.Want.clipped(MaxField), c.Got.clipped(MaxField)
	if d := c.Diff; d != nil {
		c.Diff = &compare.Difference{Want: Clip(d.Want, MaxDiff), Got: Clip(d.Got, MaxDiff), Lines: Clip(d.Lines, MaxDiff), First: Clip(d.First, MaxMessage)}
	}
	c.Message = Clip(c.Message, MaxMessage)
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
