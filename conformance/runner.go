// Package conformance certifies implementations of the session-reference contract: a Runner
// drives an adapter (the embedded reference, a Go Handler, or any command speaking the
// protocol of spec/protocol.md) through the Gherkin features, the fixtures and the rapid
// properties, and returns a report.Report whose verdict is the process exit code.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/connect"
	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/steps"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// The parts of a run, in the order they run.
const (
	PartFeatures   = "features"
	PartFixtures   = "fixtures"
	PartProperties = "properties"
)

// Parts lists every part.
var Parts = []string{PartFeatures, PartFixtures, PartProperties}

// DefaultMaxConsecutiveErrors is how many calls in a row may fail at the transport level
// before the adapter is declared unusable and the rest of the run is skipped.
const DefaultMaxConsecutiveErrors = 5

// DefaultMaxTimeouts is how many calls of a whole run may time out before the adapter is
// declared unusable: each costs a full timeout, so at the default 10 s an adapter that hangs
// now and then (and answers a few calls after each restart) ends a run in about a minute.
const DefaultMaxTimeouts = 5

// DefaultMaxRestarts is how many times a run may restart the adapter (after a crash, a
// timeout or a protocol break) before it is declared unusable: the kit's own full runs of
// the node-upstream adapter (both profiles) and of its example ports restart none, and the
// timeout and stray-stdout budgets stop at 5 and 3, so only an adapter that crashes or
// breaks the protocol on a hundred checks, answering others between them, reaches it.
const DefaultMaxRestarts = 100

// DefaultDeadline bounds a whole run: a full run of the reference over the protocol takes a
// few seconds, so ten minutes leave a slow port two orders of magnitude.
const DefaultDeadline = 10 * time.Minute

// Runner configures one conformance run. NewRunner checks and normalises it, and Run does the
// same to a Runner built as a literal; the zero value certifies the embedded reference
// in-process with every default.
type Runner struct {
	// Command is an adapter command line (program and arguments). When empty the run
	// certifies Handler, or the embedded reference when Handler is nil too.
	Command []string
	// Dir is the adapter command's working directory; empty means the runner's.
	Dir string
	// Handler is an in-process implementation to certify when Command is empty.
	Handler adapter.Handler
	// Timeout bounds each call; 0 means adapter.DefaultTimeout (10 s). A call past it is an
	// error, and the adapter process is killed and restarted.
	Timeout time.Duration
	// Parts selects parts by name (PartFeatures …); empty runs them all.
	Parts []string
	// Tags is a tag expression (package tagexpr: Cucumber's syntax, or godog's older one)
	// selecting features, fixture cases and properties.
	Tags string
	// Match is a regular expression selecting checks by "part/name", as the report names
	// them ("fixtures/prepare/self-reference", "properties/uri.encode/…"); unanchored, like
	// go test -run. Empty selects every check.
	Match string
	// Skip is a regular expression over the same names: the selected checks it matches are
	// reported as not covered without being run (so the verdict is PARTIAL, and a failure
	// under RequireAll), for a port that knows what it does not pass yet.
	Skip string
	// KnownFailures are checks a port knows it fails (--skip-file). They still run: one
	// that fails is reported not covered, with its reason; one that passes is reported as
	// fixed, and the run fails until the entry is removed, so the list only shrinks.
	KnownFailures []KnownFailure
	// MaxFail, when positive, stops running checks after that many failures: the rest are
	// reported not covered ("not run").
	MaxFail int
	// Checks is the number of rapid inputs per property; 0 means properties.DefaultChecks.
	Checks int
	// Seed is rapid's base seed; 0 picks a random one. The report always names it.
	Seed uint64
	// ShrinkTime bounds the minimisation of one property failure; 0 means 10 s.
	ShrinkTime time.Duration
	// Profile is the contract release certified; empty means protocol.DefaultProfile. Any
	// spelling protocol.ParseProfile reads is accepted ("0.1.0" is "0.1.0-rc.8").
	Profile protocol.Profile
	// Shard and Shards split a run deterministically: shard K of N (1-based) runs every Nth
	// check of the selection (as List gives them), so shards differ by one check at most
	// and the union of all shards is the whole run. Zero means unsharded.
	Shard, Shards int
	// Features and Fixtures are the data to run; nil means the embedded features.FS and
	// fixtures.FS.
	Features, Fixtures fs.FS
	// RequireAll makes every check that is not covered fail the run: for a port that claims
	// the whole contract, an op it answers ADAPTER_UNSUPPORTED is then non-conformance.
	RequireAll bool
	// MaxConsecutiveErrors overrides DefaultMaxConsecutiveErrors.
	MaxConsecutiveErrors int
	// MaxTimeouts is how many calls may time out over the whole run before the adapter is
	// declared unusable and the remaining checks are errors, not run; 0 means
	// DefaultMaxTimeouts.
	MaxTimeouts int
	// MaxRestarts is how many times the adapter may be restarted over the whole run before
	// it is declared unusable and the remaining checks are errors, not run; 0 means
	// DefaultMaxRestarts.
	MaxRestarts int
	// Deadline bounds the whole run: once it has passed, the call under way is cancelled,
	// the adapter is declared unusable and the remaining checks are errors, not run; 0
	// means DefaultDeadline.
	Deadline time.Duration
	// Progress, when set, is called with each case's result as it finishes.
	Progress func(result.Case)
	// Take, when set, is asked once per selected check, in run order, as the check comes to
	// run or to be reported not run: false leaves it out of the run and of the report. Every
	// check it takes is passed to Progress before Take is asked again or Run returns, unless
	// the run stops inside its part. A Go test's subtests answer it (go test -run).
	Take func(part, name string) bool
	// PartDone, when set, is called with each part's summary as it finishes.
	PartDone func(report.Part)
	// CucumberMessages, when set, receives the feature run as Cucumber Messages (NDJSON), for
	// Cucumber's own tools; written when the features part ends.
	CucumberMessages io.Writer

	// sel is the selection of the fields above, built by NewRunner.
	sel suite.Selection
}

// UsageError is a Runner configuration that cannot run (exit code 2).
type UsageError struct{ Msg string }

// Error implements the error interface.
func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error { return &UsageError{Msg: fmt.Sprintf(format, args...)} }

// NewRunner checks r and fills in defaults. Its errors are *UsageError.
func NewRunner(r Runner) (Runner, error) {
	if r.Timeout < 0 {
		return r, usagef("timeout must be positive, not %v", r.Timeout)
	}
	if r.Timeout == 0 {
		r.Timeout = adapter.DefaultTimeout
	}
	if r.Checks < 0 {
		return r, usagef("checks must be positive, not %d", r.Checks)
	}
	if r.ShrinkTime == 0 {
		r.ShrinkTime = 10 * time.Second
	}
	for _, p := range r.Parts {
		if !slices.Contains(Parts, p) {
			return r, usagef("unknown part %q (want %s)", p, strings.Join(Parts, ", "))
		}
	}
	if len(r.Parts) == 0 {
		r.Parts = Parts
	}
	sel, err := suite.NewSelection(suite.Selection{Profile: r.Profile, Tags: r.Tags, Match: r.Match, Skip: r.Skip, Shard: r.Shard, Shards: r.Shards})
	if err != nil {
		return r, usagef("%v", err)
	}
	r.Profile, r.sel = sel.Profile, sel
	if r.MaxFail < 0 {
		return r, usagef("max-fail must be positive, not %d", r.MaxFail)
	}
	for _, k := range r.KnownFailures {
		if k.Pattern == "" {
			return r, usagef("%s: an empty known failure", k.Source)
		}
	}
	if r.Features == nil {
		r.Features = features.FS
	}
	if r.Fixtures == nil {
		r.Fixtures = fixtures.FS
	}
	if r.MaxConsecutiveErrors <= 0 {
		r.MaxConsecutiveErrors = DefaultMaxConsecutiveErrors
	}
	if r.MaxTimeouts < 0 {
		return r, usagef("max-timeouts must be positive, not %d", r.MaxTimeouts)
	}
	if r.MaxTimeouts == 0 {
		r.MaxTimeouts = DefaultMaxTimeouts
	}
	if r.MaxRestarts < 0 {
		return r, usagef("max-restarts must be positive, not %d", r.MaxRestarts)
	}
	if r.MaxRestarts == 0 {
		r.MaxRestarts = DefaultMaxRestarts
	}
	if r.Deadline < 0 {
		return r, usagef("deadline must be positive, not %v", r.Deadline)
	}
	if r.Deadline == 0 {
		r.Deadline = DefaultDeadline
	}
	if len(r.Command) == 0 && r.Handler == nil {
		r.Handler = &refadapter.Reference{Profile: r.Profile}
	}
	r.sel = r.shard(r.sel)
	r.sel.Take = r.Take
	return r, nil
}

// target is the implementation the run connects to.
func (r Runner) target() connect.Target {
	return connect.Target{Command: r.Command, Dir: r.Dir, Handler: r.Handler, Timeout: r.Timeout}
}

// Describe names the implementation under test for the report.
func (r Runner) Describe() string {
	if len(r.Command) == 0 {
		if r.Handler == nil {
			return "in-process"
		}
		if _, ok := r.Handler.(*refadapter.Reference); ok {
			return "embedded reference (in-process)"
		}
	}
	return r.target().Describe()
}

// Run certifies the adapter and returns the report; it never fails, because an adapter that
// cannot be used is itself a verdict (report.ExitUnusable). A Runner that NewRunner rejects
// runs no check: its report says why, with the verdict of a usage error (report.ExitUsage).
func (r Runner) Run(ctx context.Context) *report.Report {
	start := time.Now()
	n, err := NewRunner(r)
	if err != nil {
		rep := &report.Report{Kit: adapter.KitVersion, Spec: string(r.Profile), Adapter: r.Describe(), Tags: r.Tags, Match: r.Match, Skip: r.Skip, Started: start}
		rep.Warnings = append(rep.Warnings, "the run cannot start: "+err.Error())
		r.skipAll(rep, "not run: "+err.Error())
		rep.Finish() // no check: a usage error
		rep.Verdict.Headline = "the run cannot start: " + err.Error()
		rep.Verdict.Summary = rep.Verdict.Headline
		return rep
	}
	r = n
	rep := &report.Report{
		Kit: adapter.KitVersion, Spec: string(r.Profile), Adapter: r.Describe(), Command: r.Command, Dir: r.Dir, Tags: r.Tags, Match: r.Match, Skip: r.Skip,
		Seed: properties.Seed(properties.Options{Seed: r.Seed}), Checks: r.Checks, Started: start,
		RequireAll: r.RequireAll, Timeout: r.Timeout, MaxTimeouts: r.MaxTimeouts, MaxRestarts: r.MaxRestarts, Deadline: r.Deadline,
	}
	if rep.Checks == 0 {
		rep.Checks = properties.DefaultChecks
	}
	if r.Shards > 0 {
		rep.Shard = fmt.Sprintf("%d/%d", r.Shard, r.Shards)
	}
	st := newRunState(&r)
	parent := ctx
	defer func() {
		rep.Elapsed = time.Since(start)
		if why := interrupted(parent); why != "" {
			// Stopped by the caller (a signal): what finished stands, nothing is blamed.
			rep.Interrupted, rep.Unusable = why, ""
			markInterrupted(rep)
		}
		if m, err := r.coverage(); err != nil {
			rep.Warnings = append(rep.Warnings, "coverage matrix: "+err.Error())
		} else {
			rep.Requirements = requirementRows(m, rep.Cases)
		}
		language := ""
		if rep.Hello != nil {
			language = rep.Hello.Language
		}
		if err := addTrapHints(rep.Cases, language); err != nil {
			rep.Warnings = append(rep.Warnings, "trap catalogue: "+err.Error())
		}
		rep.Finish()
		st.finish(rep)
	}()
	if h, err := cases.Hash(r.Fixtures); err != nil {
		rep.Warnings = append(rep.Warnings, "fixture hash: "+err.Error())
	} else {
		rep.FixtureHash = h
	}

	// The run's deadline cancels the call under way; the adapter is closed and the reports
	// written after it, on their own bounded time.
	ctx, cancel := context.WithDeadlineCause(ctx, start.Add(r.Deadline), connect.ErrDeadline)
	defer cancel()
	conn, err := connect.Dial(r.target(), connect.Limits{MaxConsecutiveErrors: r.MaxConsecutiveErrors, MaxTimeouts: r.MaxTimeouts, MaxRestarts: r.MaxRestarts, Deadline: r.Deadline})
	if err != nil {
		rep.Unusable = oneLine(err.Error())
		rep.Warnings = append(rep.Warnings, r.argvWarning())
		r.skipAll(rep, "skipped: adapter unusable")
		return rep
	}
	defer func() {
		conn.Close()
		rep.Restarts = conn.Restarts()
		if rep.Hello != nil && !conn.InProcess() {
			// A crash, hang or protocol break mid-run: what the adapter said on stderr
			// before it, a few lines, escaped, one warning each.
			for _, l := range adapter.StderrTail(conn.FailureStderr(), 8) {
				rep.Warnings = append(rep.Warnings, "adapter stderr: "+l)
			}
		}
		if late := conn.LateStdout(); late != "" {
			rep.Warnings = append(rep.Warnings, late)
		}
		if o := conn.Orphans(); len(o) > 0 {
			rep.Orphans = o
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("the adapter left %d process(es) running outside its process group, holding its pipes (not killed): %s", len(o), strings.Join(o, "; ")))
		}
	}()
	defer func() { rep.Timeouts = conn.Timeouts() }()
	client, err := conn.Hello(ctx)
	if err != nil && interrupted(parent) != "" {
		// Stopped during hello: every selected check is listed, not run.
		for _, part := range Parts {
			p := report.Part{Name: part, Note: "not run: interrupted"}
			if r.selects(part) {
				cs := r.notRun(part, result.NotCovered, report.NotRunInterrupted, nil)
				p.Counts = report.CountCases(cs)
				rep.Cases = append(rep.Cases, cs...)
			}
			rep.Parts = append(rep.Parts, p)
		}
		return rep
	}
	if err != nil {
		rep.Unusable = "hello: " + oneLine(err.Error())
		if !conn.InProcess() {
			// What the adapter said before it gave up is usually the reason (a missing
			// module, a bad path): a few lines of it, one warning each.
			for _, l := range adapter.StderrTail(conn.Stderr(), 8) {
				rep.Warnings = append(rep.Warnings, "adapter stderr: "+l)
			}
			rep.Warnings = append(rep.Warnings, r.argvWarning())
		}
		r.skipAll(rep, "skipped: adapter unusable")
		return rep
	}
	rep.Hello = &client.Hello
	if client.Hello.Spec != string(r.Profile) {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the adapter declares spec %q; certifying %q", client.Hello.Spec, r.Profile))
	}

	for _, part := range Parts {
		p := report.Part{Name: part}
		switch {
		case !slices.Contains(r.Parts, part):
			p.Note = "not selected"
		case !r.selects(part):
			p.Note = "in another shard"
		case interrupted(parent) != "":
			p.Note = "not run: interrupted"
			cs := r.notRun(part, result.NotCovered, report.NotRunInterrupted, nil)
			p.Counts = report.CountCases(cs)
			rep.Cases = append(rep.Cases, cs...)
		case conn.Unusable() != "":
			// Every check the part would make is an error, not run: the report counts the
			// whole selection, and says why none of these ran.
			p.Note = "not run: adapter unusable"
			cs := r.notRun(part, result.Error, "not run: adapter unusable: "+oneLine(conn.Unusable()), nil)
			p.Counts = report.CountCases(cs)
			rep.Cases = append(rep.Cases, cs...)
		default:
			t0 := time.Now()
			cs, note := r.runPart(ctx, part, client, rep.Seed, st)
			if interrupted(parent) != "" {
				cs = append(cs, r.notRun(part, result.NotCovered, report.NotRunInterrupted, cs)...)
			}
			p.Elapsed = time.Since(t0)
			p.Note = note
			p.Counts = report.CountCases(cs)
			rep.Cases = append(rep.Cases, cs...)
		}
		rep.Parts = append(rep.Parts, p)
		if r.PartDone != nil {
			r.PartDone(p)
		}
	}
	if why := conn.Unusable(); why != "" {
		rep.Unusable = oneLine(why)
	}
	return rep
}

func (r Runner) skipAll(rep *report.Report, note string) {
	for _, part := range Parts {
		rep.Parts = append(rep.Parts, report.Part{Name: part, Note: note})
	}
}

// part returns the suite.Part named name, configured from r.
func (r Runner) part(name string, seed uint64) suite.Part {
	switch name {
	case PartFeatures:
		return steps.Part{FS: r.Features, Messages: r.CucumberMessages}
	case PartFixtures:
		return cases.Part{FS: r.Fixtures, Oracle: &refadapter.Reference{Profile: r.Profile}}
	}
	return properties.Part{Checks: r.Checks, Seed: seed, ShrinkTime: r.ShrinkTime, Oracle: &refadapter.Reference{Profile: r.Profile}}
}

// runPart runs one part and returns its cases and a note for the report.
func (r Runner) runPart(ctx context.Context, part string, c *adapter.Client, seed uint64, st *runState) ([]result.Case, string) {
	var cs []result.Case
	var err error
	// Every case passes through st: it counts failures for MaxFail, and known failures are
	// reported as such, in progress and results alike.
	userProgress := r.Progress
	r.Progress = func(c result.Case) {
		st.record(c)
		if userProgress != nil {
			userProgress(st.classify(c))
		}
	}
	sel := r.sel
	sel.Stop = st.stopReason
	pt := r.part(part, seed)
	cs, err = pt.Run(ctx, c, sel, r.Progress)
	if err != nil {
		// The kit's own data could not be run: a defect of the kit, never of the adapter.
		bug := suite.KitBug(part, err)
		if r.Progress != nil {
			r.Progress(bug)
		}
		return append(cs, bug), fmt.Sprintf("could not run: %v", oneLine(err.Error()))
	}
	if len(cs) == 0 {
		return nil, "0 " + pt.Unit()
	}
	for i := range cs {
		cs[i] = st.classify(cs[i])
	}
	return cs, ""
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// argvWarning shows the adapter command as the runner split it, so a quoting mistake (a
// lost backslash, a path split at a space) is visible at once.
func (r Runner) argvWarning() string { return "adapter command as run: " + r.target().Argv() }

// Interrupt is the cause to give the context of Run (context.WithCancelCause) when a signal
// stops a run: the report is then interrupted, names the signal, and its verdict's exit code
// is report.ExitInterrupted (130) for SIGINT, report.ExitTerminated (143) for SIGTERM.
type Interrupt struct{ Signal os.Signal }

// Error implements the error interface.
func (i Interrupt) Error() string { return "interrupted by " + signalName(i.Signal) }

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// interrupted names what stopped ctx, the caller's context of Run, or returns "" while it
// runs: a signal (Interrupt) by its name, any other cancellation as "cancelled". The run's
// own deadline is not an interruption: it is the adapter's slowness, reported as such.
func interrupted(ctx context.Context) string {
	if ctx.Err() == nil {
		return ""
	}
	var in Interrupt
	if errors.As(context.Cause(ctx), &in) {
		return signalName(in.Signal)
	}
	return "cancelled"
}

// markInterrupted makes the checks that failed to run because the run was stopped (errors
// once the context ended: a cancelled call) not covered, "not run: interrupted": they say
// nothing of the adapter.
func markInterrupted(rep *report.Report) {
	for i, c := range rep.Cases {
		if c.Status == result.Error {
			rep.Cases[i].Status, rep.Cases[i].Message = result.NotCovered, report.NotRunInterrupted+" ("+oneLine(c.Message)+")"
		}
	}
	for i := range rep.Parts {
		rep.Parts[i].Counts = report.Counts{}
		for _, c := range rep.Cases {
			if c.Part == rep.Parts[i].Name {
				rep.Parts[i].Counts.Add(c.Status)
			}
		}
	}
}

// IsUsage reports whether err is a *UsageError.
func IsUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}
