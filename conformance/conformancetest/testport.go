package conformancetest

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance"
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
	// Profile is the contract release certified; empty means protocol.Spec.
	Profile string
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

// Summary counts the checks a TestPortWith run reported.
type Summary struct {
	// Listed is the number of checks Options select; go test -run may run fewer.
	Listed                                    int
	Pass, Fail, Error, NotCovered, FixtureBug int
	// Reasons counts the not-covered checks by reason.
	Reasons map[string]int
	// Cases are the checks run, in run order, with the reasons the bridge gave.
	Cases []result.Case
	// Seed is the rapid seed of the run.
	Seed uint64
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
func TestPort(t *testing.T, p Port) *Summary {
	t.Helper()
	return TestPortWith(t, p, Options{})
}

// TestPortWith is TestPort with options.
//
// The checks are listed first; each part is a subtest whose own subtests, one per check,
// first say they are selected (go test -run decides which are) and then wait, while the
// part runs exactly the selected checks once; then each reports its result. So a run costs
// what it selects.
func TestPortWith(t *testing.T, p Port, opts Options) *Summary {
	t.Helper()
	b, base, err := setup(p, opts)
	if err != nil {
		t.Fatalf("conformancetest: %v", err)
	}
	checks, err := conformance.List(context.Background(), base)
	if err != nil {
		t.Fatalf("conformancetest: %v", err)
	}
	if len(checks) == 0 {
		t.Fatalf("conformancetest: the selection (Run %q, Tags %q) matches no check", opts.Run, opts.Tags)
	}
	sum := &Summary{Listed: len(checks), Reasons: map[string]int{}, Seed: base.Seed}
	t.Logf("conformancetest: %d checks selected, profile %s, rapid seed %d (rerun with Options.Seed = %d or -rapid.seed=%d)",
		len(checks), base.Profile, base.Seed, base.Seed, base.Seed)
	for _, part := range conformance.Parts {
		var listed []result.Case
		for _, c := range checks {
			if c.Part == part {
				listed = append(listed, c)
			}
		}
		if len(listed) > 0 {
			t.Run(part, func(t *testing.T) { testPart(t, b, base, part, listed, opts.RequireAll, sum) })
		}
	}
	t.Log(sum.String())
	return sum
}

// testPart runs the selected checks of one part, each reported in its own subtest.
func testPart(t *testing.T, b *bridge, base conformance.Runner, part string, listed []result.Case, requireAll bool, sum *Summary) {
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
			reportCase(t, *s.got, requireAll)
		})
	}
	if len(selected) == 0 {
		return
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
	rep, err := run(b, r)
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
			sum.add(*s.got)
		}
	}
	// A check the listing did not name: the kit's own data failed to run (a fixture bug).
	for _, q := range byName {
		for _, c := range q {
			sum.add(c)
			if c.Status == result.FixtureBug {
				t.Logf("fixture bug (the kit's fault, not the port's): %s: %s", c.Name, c.Message)
			} else {
				t.Errorf("conformancetest: unlisted check %s: %s", c.Name, detail(c))
			}
		}
	}
	switch rep.Verdict.Code {
	case report.ExitUnusable, report.ExitUsage:
		t.Errorf("conformancetest: %s", rep.Verdict.Summary)
	}
}

// reportCase reports one check's result on its subtest.
func reportCase(t testing.TB, c result.Case, requireAll bool) {
	t.Helper()
	switch c.Status {
	case result.Fail, result.Error:
		t.Errorf("%s", detail(c))
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

// Certify runs every check selected by opts against p in one run and returns the report,
// for a CLI or a comparison; TestPortWith is the form for a Go test.
func Certify(ctx context.Context, p Port, opts Options) (*report.Report, error) {
	b, r, err := setup(p, opts)
	if err != nil {
		return nil, err
	}
	return runContext(ctx, b, r)
}

// setup checks p's features and builds the bridge and the runner configuration.
func setup(p Port, opts Options) (*bridge, conformance.Runner, error) {
	if p == nil {
		return nil, conformance.Runner{}, fmt.Errorf("the port is nil")
	}
	b := &bridge{port: p, profile: cmp.Or(opts.Profile, protocol.Spec)}
	for _, f := range p.Features() {
		switch f {
		case FeatureLoneSurrogates:
			b.lone = true
		default:
			return nil, conformance.Runner{}, fmt.Errorf("the port declares feature %q, which the Go API does not know (it knows %s)", f, FeatureLoneSurrogates)
		}
	}
	r := conformance.Runner{
		Handler: b, Profile: opts.Profile, Match: opts.Run, Skip: opts.Skip, Tags: opts.Tags,
		Checks: opts.Checks, Timeout: opts.Timeout, RequireAll: opts.RequireAll,
		Seed: properties.Seed(properties.Options{Seed: opts.Seed}),
	}
	r, err := conformance.NewRunner(r)
	if err != nil {
		return nil, r, err
	}
	return b, r, nil
}

func run(b *bridge, r conformance.Runner) (*report.Report, error) {
	return runContext(context.Background(), b, r)
}

// runContext runs r and gives each not-covered check the reason the bridge answered
// ADAPTER_UNSUPPORTED with, which the runner does not keep.
func runContext(ctx context.Context, b *bridge, r conformance.Runner) (*report.Report, error) {
	r, err := conformance.NewRunner(r)
	if err != nil {
		return nil, err
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
		return "the Go API has no host interface (feature host)"
	case strings.Contains(msg, "feature "+protocol.FeatureLoneSurrogates), strings.Contains(msg, `"`+protocol.FeatureLoneSurrogates+`" feature`):
		return "the port does not declare FeatureLoneSurrogates"
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

func (s *Summary) add(c result.Case) {
	s.Cases = append(s.Cases, c)
	switch c.Status {
	case result.Pass:
		s.Pass++
	case result.Fail:
		s.Fail++
	case result.Error:
		s.Error++
	case result.NotCovered:
		s.NotCovered++
		s.Reasons[reasonGroup(c.Message)]++
	case result.FixtureBug:
		s.FixtureBug++
	}
}

// String is the closing line: the counts, then one line per not-covered reason, most
// frequent first.
func (s *Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "conformancetest: %d checks run", len(s.Cases))
	if s.Listed > len(s.Cases) {
		fmt.Fprintf(&b, " (of %d; go test -run chose)", s.Listed)
	}
	fmt.Fprintf(&b, ": %d passed, %d failed, %d errors, %d not covered, %d fixture bugs",
		s.Pass, s.Fail, s.Error, s.NotCovered, s.FixtureBug)
	type kv struct {
		why string
		n   int
	}
	var rs []kv
	for why, n := range s.Reasons {
		rs = append(rs, kv{why, n})
	}
	slices.SortFunc(rs, func(a, b kv) int { return cmp.Or(b.n-a.n, strings.Compare(a.why, b.why)) })
	for _, r := range rs {
		fmt.Fprintf(&b, "\n  not covered %4d: %s", r.n, r.why)
	}
	return b.String()
}
