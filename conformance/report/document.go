package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// FormatVersion is the version of the JSON report, spec/schema/report.schema.json. It grows
// when a field changes meaning or goes away; new optional fields keep it.
const FormatVersion = 1

// SchemaID is the $id of the JSON report's schema.
const SchemaID = "https://sessionref-kit.dev/schema/report/1/report.schema.json"

// Document is the JSON report (spec/schema/report.schema.json): a Report with every request
// and answer nested as a JSON value rather than a string, each check's definition (file, line,
// steps) and, for a failure, a language-neutral Difference.
type Document struct {
	Schema      string         `json:"$schema"`
	Version     int            `json:"version"`
	Kit         string         `json:"kit"`
	Spec        string         `json:"spec"`
	Adapter     string         `json:"adapter"`
	Command     []string       `json:"command,omitempty"`
	Dir         string         `json:"dir,omitempty"`
	Hello       *adapter.Hello `json:"hello,omitempty"`
	FixtureHash string         `json:"fixtureHash,omitempty"`
	Seed        uint64         `json:"seed"`
	Checks      int            `json:"checks"`
	Tags        string         `json:"tags,omitempty"`
	Match       string         `json:"run,omitempty"`
	Skip        string         `json:"skip,omitempty"`
	Shard       string         `json:"shard,omitempty"`
	Unusable    string         `json:"unusable,omitempty"`
	Interrupted string         `json:"interrupted,omitempty"`
	RequireAll  bool           `json:"requireAll,omitempty"`
	Restarts    int            `json:"restarts"`
	// The run's bounds on time and what it used of them (Report.Timeout …), and the
	// processes the adapter left running (Report.Orphans).
	TimeoutNs   int64    `json:"timeoutNs,omitempty"`
	MaxTimeouts int      `json:"maxTimeouts,omitempty"`
	MaxRestarts int      `json:"maxRestarts,omitempty"`
	DeadlineNs  int64    `json:"deadlineNs,omitempty"`
	Timeouts    int      `json:"timeouts"`
	Orphans     []string `json:"orphans,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
	// GivenUp says, once each, why the kit stopped sending checks to the adapter; the checks
	// it did not send keep their status (error) and a short message naming the entry.
	GivenUp      []GivenUp      `json:"givenUp,omitempty"`
	Started      time.Time      `json:"started"`
	ElapsedNs    int64          `json:"elapsedNs"`
	Verdict      VerdictSummary `json:"verdict"`
	Totals       Counts         `json:"totals"`
	Parts        []DocPart      `json:"parts"`
	Areas        []Area         `json:"areas"`
	Requirements []Requirement  `json:"requirements"`
	Cases        []DocCase      `json:"cases"`
}

// GivenUp is one reason the kit gave up on the adapter (a timeout budget spent, calls failed
// in a row, stray stdout, the deadline, an adapter unusable before a part) and how many
// checks it left unsent. The message of each such check is its kind, "adapter OP: not sent"
// or "not run: adapter unusable", then "the adapter was given up on (givenUp[I] says why)":
// a reason is stated once, not repeated for the hundreds of checks it stopped.
type GivenUp struct {
	Reason string `json:"reason"`
	Checks int    `json:"checks"`
}

// DocPart is a Part with its elapsed time in nanoseconds.
type DocPart struct {
	Name string `json:"name"`
	Counts
	ElapsedNs int64  `json:"elapsedNs"`
	Note      string `json:"note,omitempty"`
}

// DocCase is one check of a Document.
type DocCase struct {
	Part         string   `json:"part"`
	Area         string   `json:"area"`
	Name         string   `json:"name"`
	Requirements []string `json:"requirements,omitempty"`
	// Traps are the porting traps (spec/porting-traps.md) the check is built to catch;
	// TrapHints, on a failure, explain each in one line ("looks like …: TRAP-…") and
	// Diagnosis names the first of its inputs that differs.
	Traps     []string      `json:"traps,omitempty"`
	TrapHints []string      `json:"trapHints,omitempty"`
	Diagnosis string        `json:"diagnosis,omitempty"`
	Status    result.Status `json:"status"`
	Message   string        `json:"message,omitempty"`
	// Rerun is the --run expression that selects this check alone.
	Rerun string `json:"rerun"`
	// File, Line and Steps say where the check is defined (features and fixtures), as the
	// kit's embedded features and fixtures have it (Report.Document).
	File  string   `json:"file,omitempty"`
	Line  int      `json:"line,omitempty"`
	Steps []string `json:"steps,omitempty"`
	// Input, Want and Got are JSON values: the last request sent (with the id sent), the
	// expected answer and the adapter's answer. An answer that is not JSON is in GotText.
	Input     json.RawMessage `json:"input,omitempty"`
	InputText string          `json:"inputText,omitempty"`
	Want      json.RawMessage `json:"want,omitempty"`
	WantText  string          `json:"wantText,omitempty"`
	Got       json.RawMessage `json:"got,omitempty"`
	GotText   string          `json:"gotText,omitempty"`
	// Diff is how Want and Got differ, for a failure that has both.
	Diff       *compare.Difference `json:"diff,omitempty"`
	Seed       uint64              `json:"seed,omitempty"`
	DurationNs int64               `json:"durationNs"`
}

// Document converts the report to its JSON form; each check's definition (file, line,
// steps) is the source its case carries, from whichever features and fixtures the run read.
func (r *Report) Document() *Document {
	d := &Document{
		Schema: SchemaID, Version: FormatVersion,
		Kit: r.Kit, Spec: r.Spec, Adapter: r.Adapter, Command: r.Command, Dir: r.Dir, Hello: r.Hello, FixtureHash: r.FixtureHash,
		Seed: r.Seed, Checks: r.Checks, Tags: r.Tags, Match: r.Match, Skip: r.Skip, Shard: r.Shard,
		Unusable: r.Unusable, Interrupted: r.Interrupted, RequireAll: r.RequireAll, Restarts: r.Restarts, Warnings: r.Warnings,
		TimeoutNs: int64(r.Timeout), MaxTimeouts: r.MaxTimeouts, MaxRestarts: r.MaxRestarts, DeadlineNs: int64(r.Deadline), Timeouts: r.Timeouts, Orphans: r.Orphans,
		Started: r.Started, ElapsedNs: int64(r.Elapsed), Verdict: r.Verdict, Totals: r.Totals,
		Areas: r.Areas(), Requirements: r.Requirements,
		Parts: []DocPart{}, Cases: make([]DocCase, 0, len(r.Cases)),
	}
	if d.Requirements == nil {
		d.Requirements = []Requirement{}
	}
	for _, p := range r.Parts {
		d.Parts = append(d.Parts, DocPart{Name: p.Name, Counts: p.Counts, ElapsedNs: int64(p.Elapsed), Note: p.Note})
	}
	at := map[string]int{}
	for _, cs := range r.Cases {
		dc := docCase(cs)
		if loc := notSent.FindStringIndex(dc.Message); cs.Status == result.Error && loc != nil {
			reason := dc.Message[loc[1]:]
			i, ok := at[reason]
			if !ok {
				i = len(d.GivenUp)
				at[reason] = i
				d.GivenUp = append(d.GivenUp, GivenUp{Reason: reason})
			}
			d.GivenUp[i].Checks++
			dc.Message = fmt.Sprintf("%sthe adapter was given up on (givenUp[%d] says why)", dc.Message[:loc[1]], i)
		}
		d.Cases = append(d.Cases, dc)
	}
	return d
}

func docCase(cs result.Case) DocCase {
	dc := DocCase{
		Part: cs.Part, Area: cs.Area, Name: cs.Name, Requirements: cs.Requirements, Status: cs.Status,
		Traps: cs.Traps, TrapHints: cs.TrapHints, Diagnosis: strings.ToValidUTF8(cs.Diagnosis, "\uFFFD"),
		Message: strings.ToValidUTF8(cs.Message, "\uFFFD"), Rerun: RerunRegexp(cs), Seed: cs.Seed, DurationNs: int64(cs.Duration),
	}
	if s := cs.Source; s.File != "" {
		dc.File, dc.Line, dc.Steps = s.File, s.Line, s.Steps
	}
	dc.Input, dc.InputText = nested(cs.Input)
	dc.Want, dc.WantText = nested(cs.Want)
	dc.Got, dc.GotText = nested(cs.Got)
	if cs.Status == result.Fail || cs.Status == result.Error || cs.Status == result.FixtureBug {
		dc.Diff = cs.Diff
	}
	return dc
}

// nested is a value as the JSON report nests it: its JSON, or its text, made valid UTF-8.
func nested(v result.Value) (json.RawMessage, string) {
	return v.JSON, strings.ToValidUTF8(v.Text, "\uFFFD")
}

// WriteJSON writes the report as its JSON Document, indented.
func (r *Report) WriteJSON(w io.Writer) error { return r.Document().Write(w) }

// Write writes d as indented JSON.
func (d *Document) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// MaxDocumentBytes bounds a JSON report that ReadDocument accepts.
const MaxDocumentBytes = 256 << 20

// ErrNotReport is returned (wrapped) by ReadDocument for input that is not a JSON report of a
// version this kit reads.
var ErrNotReport = errors.New("not a sessionref-kit JSON report")

// ReadDocument reads one JSON report and validates it against its schema.
func ReadDocument(r io.Reader) (*Document, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxDocumentBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxDocumentBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrNotReport, MaxDocumentBytes)
	}
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotReport, err)
	}
	if head.Version == nil {
		return nil, fmt.Errorf("%w: no version (a report of a kit older than format 1?)", ErrNotReport)
	}
	if *head.Version != FormatVersion {
		return nil, fmt.Errorf("%w: format version %d, this kit reads %d", ErrNotReport, *head.Version, FormatVersion)
	}
	if err := ValidateJSON(data); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotReport, err)
	}
	var d Document
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotReport, err)
	}
	return &d, nil
}

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// ValidateJSON checks a JSON report's text against spec/schema/report.schema.json.
func ValidateJSON(data []byte) error {
	schemaOnce.Do(func() {
		raw, err := spec.Schemas.ReadFile("schema/report.schema.json")
		if err != nil {
			schemaErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if schemaErr = c.AddResource(SchemaID, doc); schemaErr != nil {
			return
		}
		schema, schemaErr = c.Compile(SchemaID)
	})
	if schemaErr != nil {
		return fmt.Errorf("report schema: %w", schemaErr)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return schema.Validate(v)
}
