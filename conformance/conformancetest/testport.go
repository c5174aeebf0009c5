package conformancetest

import (
	"cmp"
	"context"
	"fmt"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// Options configure TestPortWith and Certify. The zero value runs every check of profile
// protocol.Spec with the kit's defaults.
type Options struct {
	// RequireAll makes every check that is not covered a failure: for a port that claims the
	// whole contract Go's types can express.
	RequireAll bool
	// Profile is the contract release certified ("0.1.0" names 0.1.0-rc.8, see
	// protocol.ParseProfile); empty means protocol.DefaultProfile.
	Profile protocol.Profile
	// Match and Skip are regular expressions over "part/name" (the runner's --run and
	// --skip): Match selects checks, and the selected checks Skip matches are reported not
	// covered without running. go test -run selects further among the subtests.
	Match, Skip string
	// Tags is a tag expression (the runner's --tags).
	Tags string
	// Checks is the number of rapid inputs per property; 0 means the kit's default.
	Checks int
	// Seed is rapid's seed; 0 picks one (or takes -rapid.seed), named in the log.
	Seed uint64
	// Timeout bounds each call of the port; 0 means the runner's default (10 s).
	Timeout time.Duration
}

// TestPort certifies p from a Go test, as testing/fstest.TestFS checks a file system: every
// check of the kit (features, fixtures, properties) is a subtest named part/name, so
//
//	go test -run 'TestMyPort/fixtures/prepare/'
//
// runs only the prepare fixtures. A failing check is a failing subtest with the request,
// the expected and actual answers and their diff; a check p cannot take (a feature p does
// not declare, a request Go's types cannot express, an errors.ErrUnsupported) is skipped as
// not covered. A closing log line counts what passed, failed and was not covered, by reason.
// It returns the report of the checks run.
func TestPort(t *testing.T, p goport.Port) *report.Report {
	t.Helper()
	return TestPortWith(t, p, Options{})
}

// TestPortWith is TestPort with options.
func TestPortWith(t *testing.T, p goport.Port, opts Options) *report.Report {
	t.Helper()
	b, base, err := setup(p, opts)
	if err != nil {
		t.Fatalf("conformancetest: %v", err)
	}
	return check(t, b, base)
}

// check certifies r's implementation (b's port when b is set) on t, in one run of the runner
// on its own goroutine. The run asks, as each check comes (Runner.Take), whether to take it;
// check answers with a subtest part/name: go test -run decides whether it runs, and when it
// does it takes the check and reports the check's result, which the run passes to Progress
// before asking again. So a run costs what go test -run selects, and when check returns, t
// knows every failure.
func check(t *testing.T, b *bridge, r conformance.Runner) *report.Report {
	t.Helper()
	base, err := conformance.NewRunner(r)
	if err != nil {
		t.Fatalf("conformancetest: %v", err)
	}
	if base.Seed == 0 {
		base.Seed = properties.Seed(properties.Options{})
	}
	checks, err := conformance.List(context.Background(), base)
	if err != nil {
		t.Fatalf("conformancetest: %v", err)
	}
	if len(checks) == 0 {
		t.Fatalf("conformancetest: the selection (run %q, tags %q) matches no check", base.Match, base.Tags)
	}
	t.Logf("conformancetest: %d checks selected, profile %s, rapid seed %d (rerun with -rapid.seed=%d)",
		len(checks), base.Profile, base.Seed, base.Seed)

	// The run's events, one at a time: a check to take or not (ask), or a check's result.
	type event struct {
		id   string // ask: part/name
		take chan bool
		got  result.Case
	}
	events := make(chan event)
	var rep *report.Report // set before events is closed
	run := base
	run.Take = func(part, name string) bool {
		take := make(chan bool)
		events <- event{id: part + "/" + name, take: take}
		return <-take
	}
	run.Progress = func(c result.Case) { events <- event{got: c} }
	go func() {
		defer close(events)
		rep, err = runContext(context.Background(), b, run)
	}()
	// However t ends (a Goexit included), the run is answered to its end: nothing more taken.
	defer func() {
		for e := range events {
			if e.take != nil {
				e.take <- false
			}
		}
	}()

	var held *event // read ahead of the level that handles it
	// next returns the run's next event when it is of part (a result, or a check whose name
	// starts with part), else holds it for the caller's level.
	next := func(part string) (e event, ok bool) {
		if held != nil {
			e, ok, held = *held, true, nil
		} else {
			e, ok = <-events
		}
		if ok && e.take != nil && !strings.HasPrefix(e.id, part) {
			held, ok = &e, false
		}
		return e, ok
	}
	// unasked reports a result no subtest took: the kit's own data that failed to run.
	unasked := func(t *testing.T, c result.Case) {
		if c.Status == result.FixtureBug {
			t.Logf("fixture bug (the kit's fault, not the port's): %s: %s", c.Name, c.Message)
		} else {
			t.Errorf("conformancetest: unlisted check %s/%s: %s", c.Part, c.Name, detail(c))
		}
	}
	// one answers check e of part with its subtest on t, which takes it when go test -run
	// runs it and reports the result the run passes next.
	one := func(t *testing.T, part string, e event) {
		taken := false
		t.Run(strings.TrimPrefix(e.id, part), func(t *testing.T) {
			taken = true
			e.take <- true
			got, ok := next("\x00") // a result, not a check
			if !ok || got.got.Part+"/"+got.got.Name != e.id {
				if ok {
					held = &got
				}
				t.Errorf("conformancetest: the run did not report this check")
				return
			}
			reportCase(t, got.got, base.RequireAll, base.Seed)
		})
		if !taken {
			e.take <- false
		}
	}
	for e, ok := next(""); ok; e, ok = next("") {
		if e.take == nil {
			unasked(t, e.got)
			continue
		}
		part, entered := strings.SplitN(e.id, "/", 2)[0]+"/", false
		held = &e
		t.Run(strings.TrimSuffix(part, "/"), func(t *testing.T) {
			entered = true
			for e, ok := next(part); ok; e, ok = next(part) {
				if e.take == nil {
					unasked(t, e.got)
				} else {
					one(t, part, e)
				}
			}
		})
		if !entered { // go test -run left the part out: none of its checks is taken
			for e, ok := next(part); ok; e, ok = next(part) {
				if e.take == nil {
					unasked(t, e.got)
				} else {
					e.take <- false
				}
			}
		}
	}
	if err != nil {
		t.Fatalf("conformancetest: %v", err)
	}
	// The outcomes the subtests do not already fail on: the verdict's own word (report.Outcome),
	// as every report says it. Nothing run is go test -run's choice (the list is not empty).
	switch rep.Verdict.Kind() {
	case report.OutcomeUnusable, report.OutcomeIncomplete, report.OutcomeInterrupted:
		t.Errorf("conformancetest: %s (exit %d)", rep.Verdict.Summary, rep.Verdict.Code)
	}
	t.Log(closing(rep, len(checks)))
	if len(rep.Cases) > 0 {
		// On stdout, not in the log, which go test shows only with -v or on a failure: a
		// plain "ok" must not read as the whole contract certified.
		fmt.Printf("%s: %s\n", t.Name(), coverage(rep, len(checks)))
	}
	if c := rep.Totals; len(rep.Cases) > 0 && c.Pass == 0 {
		// Every check skipped (or none passing) is no verdict: go test must not print ok.
		t.Errorf("conformancetest: nothing of the contract would be certified: %s", coverage(rep, len(checks)))
	}
	return rep
}

// coverage is the line that says how much of the contract a go test run covered: "covered
// 97 of 1306 checks; 1209 not covered" (a check covered passed or failed; one not covered
// was skipped: a feature the port lacks, an errors.ErrUnsupported).
func coverage(rep *report.Report, listed int) string {
	c := rep.Totals
	s := fmt.Sprintf("conformancetest: covered %d of %d checks; %d not covered", c.Pass+c.Fail+c.Error, max(listed, len(rep.Cases)), c.NotCovered)
	if listed > len(rep.Cases) {
		s += fmt.Sprintf(", %d not run (go test -run chose)", listed-len(rep.Cases))
	}
	if c.Fail+c.Error > 0 {
		s += fmt.Sprintf("; %d failed", c.Fail+c.Error)
	}
	return s
}

// reportCase reports one check's result on its subtest. A failure is written without the
// kit's file and line (which Errorf would put first): it starts with where the check is
// defined (a fixture's or a feature's file and line) and ends with the go test line that
// runs it again with the same rapid seed.
func reportCase(t testing.TB, c result.Case, requireAll bool, seed uint64) {
	t.Helper()
	switch c.Status {
	case result.Fail, result.Error:
		var b strings.Builder
		if src := c.Source; src.File != "" {
			fmt.Fprintf(&b, "%s:%d: ", src.File, src.Line)
		}
		b.WriteString(detail(c))
		fmt.Fprintf(&b, "\nrerun: %s\n", goTestLine(t.Name(), cmp.Or(c.Seed, seed)))
		_, _ = io.WriteString(t.Output(), b.String())
		t.Fail()
	case result.NotCovered:
		if requireAll {
			t.Errorf("not covered (RequireAll): %s", c.Message)
			return
		}
		t.Skipf("not covered: %s", c.Message)
	case result.FixtureBug:
		t.Skipf("fixture bug (the kit's fault, not the port's): %s", c.Message)
	}
}

// goTestLine is the go test command that runs the subtest named name (t.Name()) alone, with
// rapid's seed.
func goTestLine(name string, seed uint64) string {
	elems := strings.Split(name, "/")
	for i, e := range elems {
		elems[i] = "^" + regexp.QuoteMeta(e) + "$"
	}
	return fmt.Sprintf("go test -run '%s' -rapid.seed=%d", strings.ReplaceAll(strings.Join(elems, "/"), "'", `'\''`), seed)
}

// Certify runs every check selected by opts against p in one run and returns the report,
// for a CLI or a comparison; TestPortWith is the form for a Go test.
func Certify(ctx context.Context, p goport.Port, opts Options) (*report.Report, error) {
	b, r, err := setup(p, opts)
	if err != nil {
		return nil, err
	}
	return runContext(ctx, b, r)
}

// Handler returns the protocol handler TestPort and Certify certify p through: the bridge
// that reads each request into p's Go types and writes p's answer, declaring p's features
// and profile (empty means protocol.DefaultProfile) in its hello. It is for a harness that
// drives conformance.Runner itself, with settings Options does not carry (the mutation
// suite's parts, feature files and shrink time). Its verdicts are Certify's; a check it
// cannot take is not covered with the runner's generic reason, which Certify replaces with
// what the Go types could not express.
func Handler(p goport.Port, profile protocol.Profile) (adapter.Handler, error) {
	b, _, err := newBridge(p, profile)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// newBridge checks p's features and builds its bridge for profile.
func newBridge(p goport.Port, profile protocol.Profile) (*bridge, protocol.Profile, error) {
	if p == nil {
		return nil, "", fmt.Errorf("the port is nil")
	}
	release, err := protocol.ParseProfile(string(profile))
	if err != nil {
		return nil, "", err
	}
	b := &bridge{port: p, profile: string(release)}
	for _, f := range p.Features() {
		switch f {
		case goport.FeatureLoneSurrogates:
			b.lone = true
		case goport.FeatureHost:
			h, ok := p.(goport.Host)
			if !ok {
				return nil, "", fmt.Errorf("the port declares goport.FeatureHost but does not implement goport.Host")
			}
			b.host = h
		default:
			return nil, "", fmt.Errorf("the port declares feature %q, which the Go API does not know (it knows %s, %s)", f, goport.FeatureLoneSurrogates, goport.FeatureHost)
		}
	}
	return b, release, nil
}

// setup checks p's features and builds the bridge and the runner configuration.
func setup(p goport.Port, opts Options) (*bridge, conformance.Runner, error) {
	b, release, err := newBridge(p, opts.Profile)
	if err != nil {
		return nil, conformance.Runner{}, err
	}
	r := conformance.Runner{
		Handler: b, Profile: release, Match: opts.Match, Skip: opts.Skip, Tags: opts.Tags,
		Checks: opts.Checks, Timeout: opts.Timeout, RequireAll: opts.RequireAll,
		Seed: properties.Seed(properties.Options{Seed: opts.Seed}),
	}
	r, err = conformance.NewRunner(r)
	if err != nil {
		return nil, r, err
	}
	return b, r, nil
}

// runContext runs r; with a bridge, it gives each not-covered check the reason the bridge
// answered ADAPTER_UNSUPPORTED with, which the runner does not keep.
func runContext(ctx context.Context, b *bridge, r conformance.Runner) (*report.Report, error) {
	r, err := conformance.NewRunner(r)
	if err != nil {
		return nil, err
	}
	if progress := r.Progress; progress != nil {
		// The runner gives a report's failures their porting-trap hints when the run ends; a
		// subtest reports its failure as it happens, so it gets them here: for Go's defaults
		// when the bridge (language "go" in its hello) serves a goport.Port, for every
		// language behind a bare Handler, whose hello this cannot see yet.
		language := ""
		if b != nil {
			language = "go"
		}
		r.Progress = func(c result.Case) {
			if c.Status == result.Fail && len(c.Traps) > 0 && len(c.TrapHints) == 0 {
				c.TrapHints = conformance.TrapHints(c.Traps, language)
			}
			progress(c)
		}
	}
	if b == nil {
		return r.Run(ctx), nil
	}
	var mu sync.Mutex
	reasons := map[string]string{}
	b.takeReason()
	progress := r.Progress
	r.Progress = func(c result.Case) {
		why := b.takeReason()
		if c.Status == result.NotCovered {
			if why != "" {
				mu.Lock()
				reasons[c.Part+"/"+c.Name] = why
				mu.Unlock()
				c.Message = why
			} else {
				c.Message = portReason(c.Message)
			}
		}
		if progress != nil {
			progress(c)
		}
	}
	rep := r.Run(ctx)
	for i, c := range rep.Cases {
		if c.Status != result.NotCovered {
			continue
		}
		if why, ok := reasons[c.Part+"/"+c.Name]; ok {
			rep.Cases[i].Message = why
		} else {
			rep.Cases[i].Message = portReason(c.Message)
		}
	}
	return rep, nil
}

// portReason says a runner's not-covered message in the Go API's words.
func portReason(msg string) string {
	switch {
	case strings.Contains(msg, "feature "+protocol.FeatureHost), strings.Contains(msg, `"`+protocol.FeatureHost+`" feature`):
		return "the port does not declare goport.FeatureHost"
	case strings.Contains(msg, "feature "+protocol.FeatureLoneSurrogates), strings.Contains(msg, `"`+protocol.FeatureLoneSurrogates+`" feature`):
		return "the port does not declare goport.FeatureLoneSurrogates"
	}
	return msg
}

var (
	indexRE   = regexp.MustCompile(`\[\d+\]`)
	surfaceRE = regexp.MustCompile(`^(not expressible in the Go API: )session ".*", surface event \d+: `)
	kindRE    = regexp.MustCompile(` is (?:null|NaN|an? [a-z]+), not (an? [a-z]+)$`)
)

// reasonGroup is a reason without the details that differ between checks (an index, a
// session id, the JavaScript type given), so the closing line groups alike reasons.
func reasonGroup(why string) string {
	why = surfaceRE.ReplaceAllString(why, "${1}a surface event: ")
	why = kindRE.ReplaceAllString(why, " is not ${1}")
	return indexRE.ReplaceAllString(why, "[i]")
}

// closing is the closing line: the counts of the checks run, then one line per not-covered
// reason, most frequent first.
func closing(rep *report.Report, listed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "conformancetest: %d checks run", len(rep.Cases))
	if listed > len(rep.Cases) {
		fmt.Fprintf(&b, " (of %d; go test -run chose)", listed)
	}
	t := report.CountCases(rep.Cases)
	fmt.Fprintf(&b, ": %d passed, %d failed, %d errors, %d not covered, %d fixture bugs",
		t.Pass, t.Fail, t.Error, t.NotCovered, t.FixtureBug)
	for _, r := range Reasons(rep) {
		fmt.Fprintf(&b, "\n  not covered %4d: %s", r.Checks, r.Reason)
	}
	return b.String()
}

// Reason is one reason checks were not covered, and how many.
type Reason struct {
	Reason string
	Checks int
}

// Reasons groups rep's not-covered checks by reason (without what differs between alike
// reasons: an index, a session id, the JavaScript type given), most frequent first.
func Reasons(rep *report.Report) []Reason {
	n := map[string]int{}
	for _, c := range rep.Cases {
		if c.Status == result.NotCovered {
			n[reasonGroup(c.Message)]++
		}
	}
	out := make([]Reason, 0, len(n))
	for why, k := range n {
		out = append(out, Reason{why, k})
	}
	slices.SortFunc(out, func(a, b Reason) int { return cmp.Or(b.Checks-a.Checks, strings.Compare(a.Reason, b.Reason)) })
	return out
}
