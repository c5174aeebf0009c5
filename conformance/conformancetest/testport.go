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
	// Run and Skip are regular expressions over "part/name" (the runner's --run and
	// --skip): Run selects checks, and the selected checks Skip matches are reported not
	// covered without running. go test -run selects further among the subtests.
	Run, Skip string
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

// check certifies r's implementation (b's port when b is set) on t.
//
// The checks are listed first. Each part is a subtest whose own subtests, one per check,
// note that they are selected (go test -run decides which are) and pause (t.Parallel);
// the part then runs exactly the selected checks, in one run of the runner, and returns,
// and each paused subtest reports its check. So a run costs what go test -run selects, and
// when check returns, t knows every failure.
func check(t *testing.T, b *bridge, r conformance.Runner) *report.Report {
	t.Helper()
	tb := t
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
	var reps []*report.Report
	for _, part := range conformance.Parts {
		var listed []result.Case
		for _, c := range checks {
			if c.Part == part {
				listed = append(listed, c)
			}
		}
		if len(listed) > 0 {
			t.Run(part, func(t *testing.T) {
				if rep := testPart(t, b, base, part, listed); rep != nil {
					reps = append(reps, rep)
				}
			})
		}
	}
	rep := merge(base, reps)
	t.Log(closing(rep, len(checks)))
	if len(rep.Cases) > 0 {
		// On stdout, not in the log, which go test shows only with -v or on a failure: a
		// plain "ok" must not read as the whole contract certified.
		fmt.Printf("%s: %s\n", t.Name(), coverage(rep, len(checks)))
	}
	if c := rep.Totals; len(rep.Cases) > 0 && c.Pass == 0 {
		// Every check skipped (or none passing) is no verdict: go test must not print ok.
		tb.Errorf("conformancetest: nothing of the contract would be certified: %s", coverage(rep, len(checks)))
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

// testPart runs the selected checks of one part, each reported in its own subtest, and
// returns the part's report (nil when go test -run selected none of its checks).
func testPart(t *testing.T, b *bridge, base conformance.Runner, part string, listed []result.Case) *report.Report {
	type slot struct {
		listed result.Case
		got    *result.Case
	}
	var selected []*slot
	for _, c := range listed {
		s := &slot{listed: c}
		t.Run(c.Name, func(t *testing.T) {
			selected = append(selected, s) // runs before t.Run returns: Parallel pauses here
			t.Parallel()
			if s.got == nil {
				t.Fatalf("conformancetest: the run did not report this check")
			}
			reportCase(t, *s.got, base.RequireAll, base.Seed)
		})
	}
	if len(selected) == 0 {
		return nil
	}
	r := base
	r.Parts = []string{part}
	if len(selected) < len(listed) {
		names := make([]string, len(selected))
		for i, s := range selected {
			names[i] = regexp.QuoteMeta(part + "/" + s.listed.Name)
		}
		r.Match = "^(?:" + strings.Join(names, "|") + ")$"
	}
	rep, err := runContext(context.Background(), b, r)
	if err != nil {
		t.Fatalf("conformancetest: %v", err)
	}
	byName := map[string][]result.Case{}
	for _, c := range rep.Cases {
		byName[c.Name] = append(byName[c.Name], c)
	}
	for _, s := range selected {
		if q := byName[s.listed.Name]; len(q) > 0 {
			s.got, byName[s.listed.Name] = &q[0], q[1:]
		}
	}
	// A check the listing did not name: the kit's own data failed to run (a fixture bug).
	for _, q := range byName {
		for _, c := range q {
			if c.Status == result.FixtureBug {
				t.Logf("fixture bug (the kit's fault, not the port's): %s: %s", c.Name, c.Message)
			} else {
				t.Errorf("conformancetest: unlisted check %s: %s", c.Name, detail(c))
			}
		}
	}
	// The outcomes the subtests do not already fail on: the verdict's own word (report.Outcome),
	// as every report says it.
	switch rep.Verdict.Kind() {
	case report.OutcomeUnusable, report.OutcomeNothingRun, report.OutcomeIncomplete, report.OutcomeInterrupted:
		t.Errorf("conformancetest: %s (exit %d)", rep.Verdict.Summary, rep.Verdict.Code)
	}
	return rep
}

// merge joins the reports of the parts run into one, as one run of them all would report.
func merge(base conformance.Runner, reps []*report.Report) *report.Report {
	if len(reps) == 0 {
		return &report.Report{Spec: string(base.Profile), Seed: base.Seed, Tags: base.Tags, Match: base.Match, Skip: base.Skip, RequireAll: base.RequireAll}
	}
	out := *reps[0]
	out.Match = base.Match
	out.Parts, out.Cases, out.Warnings, out.Requirements = nil, nil, nil, nil
	out.Restarts, out.Timeouts, out.Elapsed = 0, 0, 0
	rows := map[string]int{}
	for _, rep := range reps {
		for _, p := range rep.Parts {
			if p.Counts.Total > 0 || p.Note != "not selected" {
				out.Parts = append(out.Parts, p)
			}
		}
		out.Cases = append(out.Cases, rep.Cases...)
		for _, w := range rep.Warnings {
			if !slices.Contains(out.Warnings, w) {
				out.Warnings = append(out.Warnings, w)
			}
		}
		for _, req := range rep.Requirements {
			i, ok := rows[req.ID]
			if !ok {
				rows[req.ID] = len(out.Requirements)
				out.Requirements = append(out.Requirements, req)
				continue
			}
			c := &out.Requirements[i].Counts
			c.Total, c.Pass, c.Fail = c.Total+req.Total, c.Pass+req.Pass, c.Fail+req.Fail
			c.NotCovered, c.Error, c.FixtureBug = c.NotCovered+req.NotCovered, c.Error+req.Error, c.FixtureBug+req.FixtureBug
		}
		out.Restarts += rep.Restarts
		out.Timeouts += rep.Timeouts
		out.Elapsed += rep.Elapsed
		out.Orphans = append(out.Orphans, rep.Orphans...)
		if out.Unusable == "" {
			out.Unusable = rep.Unusable
		}
	}
	out.Finish()
	return &out
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
		Handler: b, Profile: release, Match: opts.Run, Skip: opts.Skip, Tags: opts.Tags,
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
	if b == nil {
		return r.Run(ctx), nil
	}
	var mu sync.Mutex
	reasons := map[string]string{}
	b.takeReason()
	r.Progress = func(c result.Case) {
		why := b.takeReason()
		if c.Status == result.NotCovered && why != "" {
			mu.Lock()
			reasons[c.Part+"/"+c.Name] = why
			mu.Unlock()
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
