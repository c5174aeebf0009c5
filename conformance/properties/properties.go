// Package properties checks an adapter against the contract's invariants with rapid
// property-based tests: round-trips, rejection of non-canonical input, tag safety, byte caps,
// dedup order, candidate ranking, and, for every op, agreement with the embedded reference on
// the same generated request.
//
// Run works outside `go test`: it drives rapid through a testing-free rapid.TB that records
// each property's outcome as a result.Case, the shrunk failing request included.
package properties

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"strconv"
	"time"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// DefaultChecks is the number of generated inputs per property when Options.Checks is 0 and
// rapid's own -rapid.checks flag was left at its default.
const DefaultChecks = 100

// Property is one named invariant.
type Property struct {
	// Name is "area/what", e.g. "uri/round-trip"; it is the case name in reports.
	Name string
	// Area groups results in reports: uri, mention, config, candidates, prepare, host.
	Area string
	// Requirements are the spec ids the property checks.
	Requirements []string
	// Feature, when set, is a hello feature the adapter must declare; without it the
	// property is not covered.
	Feature string
	// Tags are extra selection tags (without "@"), besides the area, name and requirements.
	Tags  []string
	check func(e *env, t *rapid.T)
}

// tags returns every tag a tag expression can select the property by.
func (p Property) tags() []string {
	out := append([]string{"property", p.Area, p.Name}, p.Requirements...)
	return append(out, p.Tags...)
}

// Options select and configure a run of the properties.
type Options struct {
	// Selection selects the properties: its Tags over each property's name, area,
	// requirement ids and tags ("@uri && ~@agreement"), its Run and Skip over "properties/"
	// and the property's name, its Units over the names; its profile is the one the
	// reference behaves as.
	Selection suite.Selection
	// Checks is the number of inputs per property; 0 means DefaultChecks, unless rapid's
	// -rapid.checks flag was set on the command line, which then wins.
	Checks int
	// Seed is rapid's base seed; 0 picks one (or takes -rapid.seed when set). The seed used
	// is reported in every case, so a failure reproduces.
	Seed uint64
	// ShrinkTime bounds the minimisation of one failure; 0 keeps rapid's default (30 s).
	ShrinkTime time.Duration
	// Progress, when set, is called with each property's result as it finishes.
	Progress func(result.Case)
	// Oracle answers as the contract does, in the selection's profile: the embedded
	// reference, which the wiring (conformance.Runner, a test) supplies. The agreement
	// properties compare the adapter with it, and the invariants ask it what only the
	// contract's own algorithms decide (which URIs decode, which sessions a query matches).
	// Without it every selected property is an error, not a pass.
	Oracle adapter.Handler
}

// All returns every property, in a stable order.
func All() []Property {
	var out []Property
	out = append(out, uriProperties()...)
	out = append(out, mentionProperties()...)
	out = append(out, configProperties()...)
	out = append(out, candidateProperties()...)
	out = append(out, prepareProperties()...)
	out = append(out, agreementProperties()...)
	return out
}

// Selected returns the properties sel selects (its Tags, Run and Units), in run order; Skip
// and Stop are asked as each comes to run.
func Selected(sel suite.Selection) []Property {
	var out []Property
	for _, p := range All() {
		if sel.TakesUnit(p.Name) && sel.Selects(part, p.Name, p.tags()) {
			out = append(out, p)
		}
	}
	return out
}

// part is the part of a run the properties are.
const part = "properties"

// skipped returns the case of a selected property that sel keeps from running, or false.
func skipped(sel suite.Selection, p Property, seed uint64) (result.Case, bool) {
	why := sel.SkipReason(part, p.Name)
	if why == "" {
		return result.Case{}, false
	}
	return suite.NotCovered(result.Case{Part: part, Area: p.Area, Name: p.Name, Requirements: p.Requirements, Seed: seed}, why), true
}

// Seed returns the seed a run with opts uses: opts.Seed, else -rapid.seed when set, else a
// fresh random one.
func Seed(opts Options) uint64 {
	if opts.Seed != 0 {
		return opts.Seed
	}
	if s := readUserFlags().seed; s != 0 {
		return s
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	s := binary.LittleEndian.Uint64(b[:]) >> 1 // keep it short enough to read and retype
	if s == 0 {
		s = 1
	}
	return s
}

// Part is the properties part of a run (suite.Part): Checks, Seed, ShrinkTime and Oracle as
// in Options.
type Part struct {
	Checks     int
	Seed       uint64
	ShrinkTime time.Duration
	Oracle     adapter.Handler
}

var _ suite.Part = Part{}

// Name implements suite.Part.
func (Part) Name() string { return "properties" }

// Unit implements suite.Part.
func (Part) Unit() string { return "properties" }

// Run implements suite.Part; it never fails (a property that cannot run is an error case).
func (p Part) Run(ctx context.Context, c *adapter.Client, sel suite.Selection, progress func(result.Case)) ([]result.Case, error) {
	return Run(ctx, c, Options{Selection: sel, Checks: p.Checks, Seed: p.Seed, ShrinkTime: p.ShrinkTime, Progress: progress, Oracle: p.Oracle}), nil
}

// Run checks every selected property against c and returns one Case per property (Part
// "properties"). Runs may overlap, in one process as in many: rapid's global flags are set
// only to shrink a failure, one at a time (see check).
func Run(ctx context.Context, c *adapter.Client, opts Options) []result.Case {
	seed := Seed(opts)

	e := &env{
		ctx:  ctx,
		c:    c,
		ref:  adapter.InProcess{H: opts.Oracle},
		gen:  gen.Options{LoneSurrogates: c.Supports(protocol.FeatureLoneSurrogates)},
		seed: seed,
	}
	var out []result.Case
	for _, p := range Selected(opts.Selection) {
		cs, skip := skipped(opts.Selection, p, seed)
		switch {
		case skip && cs.Message == suite.NotTaken:
			continue
		case skip:
		case opts.Oracle == nil:
			cs = result.Case{Part: part, Area: p.Area, Name: p.Name, Requirements: p.Requirements, Seed: seed,
				Status: result.Error, Message: NoOracle}
		default:
			cs = e.run(p, opts)
		}
		if opts.Progress != nil {
			opts.Progress(cs)
		}
		out = append(out, cs)
	}
	return out
}

// NoOracle is the message of every property of a run given no Options.Oracle: a kit that
// cannot ask the contract certifies nothing, so the run is an error, never a pass.
const NoOracle = "properties: no oracle to ask the contract (Options.Oracle is nil; the embedded reference is the wiring's to supply)"

// Skipped is the message of a property that a skip list kept from running (--skip).
const Skipped = suite.Skipped

// setRapidFlags sets rapid's global flags for one rapid.Check (checks, base seed, shrink
// time when positive, no fail file) and returns a function restoring them. The caller holds
// flagsMu for writing.
func setRapidFlags(checks int, seed uint64, shrinkTime time.Duration) func() {
	set := map[string]string{"rapid.seed": strconv.FormatUint(seed, 10), "rapid.checks": strconv.Itoa(checks)}
	if shrinkTime > 0 {
		set["rapid.shrinktime"] = shrinkTime.String()
	}
	// The runner reports the seed instead; fail files would land in the caller's testdata.
	set["rapid.nofailfile"] = "true"
	old := map[string]string{}
	for k, v := range set {
		f := flag.Lookup(k)
		if f == nil {
			continue
		}
		old[k] = f.Value.String()
		_ = flag.Set(k, v)
	}
	return func() {
		for k, v := range old {
			_ = flag.Set(k, v)
		}
	}
}

func envSet(name string) bool {
	_, ok := lookupEnv(name)
	return ok
}

// run checks one property and turns rapid's verdict and the recorder's notes into a Case.
func (e *env) run(p Property, opts Options) result.Case {
	start := time.Now()
	cs := result.Case{Part: "properties", Area: p.Area, Name: p.Name, Requirements: p.Requirements, Seed: e.seed}
	if p.Feature != "" && !e.c.Supports(p.Feature) {
		cs.Status = result.NotCovered
		cs.Message = suite.MissingFeature(p.Feature)
		return cs.Clipped()
	}
	rec := &recorder{}
	e.rec = rec
	tb := &recordingTB{name: p.Name}
	check(tb, opts, e.seed, func(t *rapid.T) {
		if rec.stopped() {
			return
		}
		rec.iterations++
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stopIteration); ok {
					return
				}
				panic(r)
			}
		}()
		p.check(e, t)
		rec.covered++
	})
	cs.Duration = time.Since(start)
	switch {
	case rec.transport != "":
		cs.Status = result.Error
		cs.Message = rec.transport
		cs.Input = rec.transportInput
	case tb.failed:
		cs.Status = result.Fail
		if f := rec.last; f != nil {
			cs.Message, cs.Input, cs.Want, cs.Got, cs.Diff = f.message, f.input, f.want, f.got, f.diff
		} else {
			cs.Message = firstLine(tb.log.String())
		}
		cs.Message += fmt.Sprintf(" (reproduce with --seed %d)", e.seed)
	case rec.covered == 0 && rec.unsupported > 0:
		cs.Status = result.NotCovered
		cs.Message = rec.unsupportedMsg
	default:
		cs.Status = result.Pass
		cs.Message = fmt.Sprintf("%d inputs", rec.covered)
		if rec.unsupported > 0 {
			cs.Message += fmt.Sprintf("; %d more not covered (%s)", rec.unsupported, rec.unsupportedMsg)
		}
	}
	return cs
}

// List implements suite.Part: the properties Run would report for sel, in its order.
func (Part) List(sel suite.Selection) ([]suite.Check, error) {
	var out []suite.Check
	for _, p := range Selected(sel) {
		out = append(out, suite.Check{Part: part, Area: p.Area, Name: p.Name, Requirements: p.Requirements})
	}
	return out, nil
}
