package report

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// The exit codes of a run (see Report.Verdict and Outcome).
const (
	ExitConformant    = 0 // every selected check passed, or every covered one (partial)
	ExitNotConformant = 1 // a check failed, or nothing was covered
	ExitUsage         = 2 // bad flags, a selection that matched no check, a report not written
	ExitUnusable      = 3 // the adapter did not start, broke the protocol, crashed or hung
	// ExitIncomplete is a run the kit itself could not finish: a check or a whole part could
	// not run for the kit's own reasons (a broken fixture file, a kit bug), never the
	// adapter's. Nothing is certified; the adapter is not blamed.
	ExitIncomplete = 4
	// ExitInterrupted and ExitTerminated end a run stopped by SIGINT or SIGTERM (128 plus the
	// signal's number, as a shell reports it); the reports hold what finished.
	ExitInterrupted = 130
	ExitTerminated  = 143
)

// Outcome is the kind of a run's verdict. It alone decides the verdict's word, mark and
// colour in every report (text, Markdown, JUnit, JSON, HTML) and the Go API, so no report
// can call a run conformant that another calls partial.
type Outcome string

// The outcomes. Only OutcomeConformant takes the success mark and colour.
const (
	OutcomeConformant    Outcome = "conformant"     // every selected check passed (0)
	OutcomePartial       Outcome = "partial"        // every covered check passed, some not covered (0)
	OutcomeNotConformant Outcome = "not-conformant" // a check failed, or none was covered (1)
	OutcomeNothingRun    Outcome = "nothing-run"    // the selection matched no check, or the run could not start (2)
	OutcomeNotWritten    Outcome = "not-written"    // the run ended, but a report could not be written (2)
	OutcomeUnusable      Outcome = "unusable"       // the adapter could not be certified at all (3)
	OutcomeUndecided     Outcome = "undecided"      // some checks could not run for the adapter's reasons (3)
	OutcomeIncomplete    Outcome = "incomplete"     // some checks could not run for the kit's reasons (4)
	OutcomeInterrupted   Outcome = "interrupted"    // a signal or the caller stopped the run (130, 143)
)

// Tone is how an outcome is coloured: a CSS class in HTML, a badge colour, a Markdown mark.
type Tone string

// The tones. Only TonePass is green.
const (
	TonePass    Tone = "pass"
	TonePartial Tone = "partial"
	ToneFail    Tone = "fail"
	ToneError   Tone = "error"
	ToneNeutral Tone = "neutral"
)

type outcomeStyle struct {
	label string // the text report's first word, upper case
	mark  string // the Markdown summary's mark
	tone  Tone
}

var outcomeStyles = map[Outcome]outcomeStyle{
	OutcomeConformant:    {"OK", "✅", TonePass},
	OutcomePartial:       {"PARTIAL", "🔷", TonePartial},
	OutcomeNotConformant: {"FAIL", "❌", ToneFail},
	OutcomeNothingRun:    {"NOTHING RUN", "⚠️", ToneNeutral},
	OutcomeNotWritten:    {"REPORT NOT WRITTEN", "⚠️", ToneError},
	OutcomeUnusable:      {"UNUSABLE", "💥", ToneError},
	OutcomeUndecided:     {"ERROR", "💥", ToneError},
	OutcomeIncomplete:    {"INCOMPLETE", "🚧", ToneError},
	OutcomeInterrupted:   {"INTERRUPTED", "⏹️", ToneNeutral},
}

// Label is the outcome's word in the text report's last line: "OK", "PARTIAL", "FAIL" …
func (o Outcome) Label() string {
	if s, ok := outcomeStyles[o]; ok {
		return s.label
	}
	return strings.ToUpper(string(o))
}

// Mark is the outcome's mark in a Markdown summary: ✅ for OutcomeConformant only.
func (o Outcome) Mark() string {
	if s, ok := outcomeStyles[o]; ok {
		return s.mark
	}
	return "❔"
}

// Tone is the outcome's colour: green (TonePass) for OutcomeConformant only.
func (o Outcome) Tone() Tone {
	if s, ok := outcomeStyles[o]; ok {
		return s.tone
	}
	return ToneNeutral
}

// Color is the tone as a colour for a badge.
func (t Tone) Color() string {
	switch t {
	case TonePass:
		return "#2b7a2b"
	case TonePartial:
		return "#2b5f8a"
	case ToneFail:
		return "#b3261e"
	case ToneError:
		return "#8a5300"
	}
	return "#6b6b6b"
}

// VerdictSummary is the run's conclusion and the process exit code that goes with it.
type VerdictSummary struct {
	Code int `json:"code"`
	// Outcome is the verdict's kind; empty in a report written before it existed (see Kind).
	Outcome Outcome `json:"outcome,omitempty"`
	// Headline is the verdict in a few words, for a table cell or a badge's title:
	// "partial: 123 of 1306 checks covered".
	Headline string `json:"headline,omitempty"`
	Summary  string `json:"summary"` // one line: the headline and the first failure's cause
}

// Kind returns v's Outcome, deriving it from the exit code for a report written before
// outcomes were recorded.
func (v VerdictSummary) Kind() Outcome {
	if v.Outcome != "" {
		return v.Outcome
	}
	switch v.Code {
	case ExitConformant:
		if strings.HasPrefix(v.Summary, "partial") {
			return OutcomePartial
		}
		return OutcomeConformant
	case ExitNotConformant:
		return OutcomeNotConformant
	case ExitUsage:
		return OutcomeNothingRun
	case ExitIncomplete:
		return OutcomeIncomplete
	case ExitInterrupted, ExitTerminated:
		return OutcomeInterrupted
	}
	return OutcomeUndecided
}

// Short is the verdict's headline; for a report written before headlines, its summary up to
// the first failure's cause ("; first: …"), which may quote a whole response.
func (v VerdictSummary) Short() string {
	if v.Headline != "" {
		return v.Headline
	}
	s, _, _ := strings.Cut(v.Summary, "; first:")
	return s
}

// Certified reports whether the verdict certifies what it covered: conformant or partial.
func (v VerdictSummary) Certified() bool {
	k := v.Kind()
	return k == OutcomeConformant || k == OutcomePartial
}

func newVerdict(code int, o Outcome, headline, detail string) VerdictSummary {
	v := VerdictSummary{Code: code, Outcome: o, Headline: headline, Summary: headline}
	if detail != "" {
		v.Summary += "; " + detail
	}
	return v
}

// NotRunInterrupted begins the message of a check an interrupted run did not run.
const NotRunInterrupted = "not run: interrupted"

// InterruptCode is the exit code of a run stopped by the named signal: 143 for SIGTERM,
// 130 otherwise (SIGINT, or a caller's cancellation).
func InterruptCode(signal string) int {
	if signal == "SIGTERM" {
		return ExitTerminated
	}
	return ExitInterrupted
}

// verdict decides the outcome and exit code, in this order: a run stopped by a signal is
// interrupted, whatever it had found; a failed check proves non-conformance (1) even if the
// adapter became unusable later in the run; an unusable adapter is 3 otherwise, and so are
// errors alone (crash, hang, protocol breach on some checks): conformance undecided; a check
// the kit could not run (a fixture bug) leaves the run incomplete (4), never OK, and never
// blames the adapter. A run that covered nothing is not a certification: no check selected
// is a usage error (2), every check not covered is 1. Partial (0) says how much was covered
// and takes neither the success mark nor its colour.
func (r *Report) verdict() VerdictSummary {
	t := r.Totals
	run := t.Pass + t.Fail + t.Error // the checks that ran, or were meant to, on the adapter
	switch {
	case r.Interrupted != "":
		ran := 0
		for _, c := range r.Cases {
			if !strings.HasPrefix(c.Message, NotRunInterrupted) {
				ran++
			}
		}
		h := fmt.Sprintf("interrupted by %s after %d of %s", r.Interrupted, ran, plural(t.Total, "check"))
		d := ""
		if t.Fail > 0 {
			h += fmt.Sprintf(" (%d failed)", t.Fail)
			d = "first failure: " + r.first(result.Fail)
		}
		return newVerdict(InterruptCode(r.Interrupted), OutcomeInterrupted, h, d)
	case r.Unusable != "" && t.Fail == 0:
		return newVerdict(ExitUnusable, OutcomeUnusable, "adapter unusable: "+r.Unusable, "")
	case t.Fail > 0:
		return newVerdict(ExitNotConformant, OutcomeNotConformant, fmt.Sprintf("not conformant: %d of %s failed", t.Fail, plural(run, "check")), "first: "+r.first(result.Fail))
	case t.Error > 0:
		return newVerdict(ExitUnusable, OutcomeUndecided, plural(t.Error, "check")+" could not run, conformance undecided", "first: "+r.first(result.Error))
	case t.FixtureBug > 0:
		return newVerdict(ExitIncomplete, OutcomeIncomplete,
			fmt.Sprintf("incomplete: %s could not run for the kit's own reasons (fixture bug); %d of %s passed, nothing certified", plural(t.FixtureBug, "check"), t.Pass, plural(t.Total, "check")),
			"first: "+r.first(result.FixtureBug))
	case t.Total == 0:
		return newVerdict(ExitUsage, OutcomeNothingRun, "no check was run: the selection matched nothing", "")
	case t.Pass == 0:
		return newVerdict(ExitNotConformant, OutcomeNotConformant, "not conformant: no check was covered, the adapter supports none of the selected ops", "")
	case t.NotCovered > 0 && r.RequireAll:
		return newVerdict(ExitNotConformant, OutcomeNotConformant, fmt.Sprintf("not conformant: %s not covered, and every check is required", plural(t.NotCovered, "check")), "first: "+r.first(result.NotCovered))
	case t.NotCovered > 0:
		return newVerdict(ExitConformant, OutcomePartial, fmt.Sprintf("partial: %d of %s covered, all passed; %d not covered", t.Pass, plural(t.Total, "check"), t.NotCovered), "")
	}
	return newVerdict(ExitConformant, OutcomeConformant, "conformant: "+plural(t.Pass, "check")+" passed", "")
}

// NotWritten records that a report the run was asked for could not be written: the process
// does not exit as if it had been. A run that would have exited 0 exits 2 (ExitUsage) with
// OutcomeNotWritten; any other verdict keeps its code, and its summary says it too.
func (r *Report) NotWritten(err error) {
	msg := oneLineText(err.Error())
	r.Warnings = append(r.Warnings, "report not written: "+msg)
	if r.Verdict.Code == ExitConformant {
		r.Verdict = newVerdict(ExitUsage, OutcomeNotWritten, "report not written: "+msg, "the run itself: "+r.Verdict.Summary)
		return
	}
	r.Verdict.Summary += "; and a report was not written: " + msg
}

func oneLineText(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
