package properties

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Check runs one rapid check of body outside `go test`, configured like Run: opts.Checks
// inputs (DefaultChecks when 0, unless -rapid.checks was set), base seed seed (see Seed),
// opts.ShrinkTime, no fail file. It returns whether the check failed and rapid's log (its
// verdict and the failing, shrunk input's messages). Rapid replays the minimal failing input
// last, so a body that records its evidence on failure ends holding the shrunk one.
//
// Checks may run concurrently (see check); other fields of opts are ignored.
func Check(name string, opts Options, seed uint64, body func(t *rapid.T)) (failed bool, log string) {
	tb := &recordingTB{name: name}
	check(tb, opts, seed, body)
	return tb.failed, tb.log.String()
}

// How a property run uses rapid, and why.
//
// rapid v1.3.0 takes its configuration (number of checks, seed, shrink time, fail file) only
// from process-global flags, read by rapid.Check. Setting them around every run, as the kit
// did, forced one run at a time per process: the mutation suite certified its ports one after
// another. Setting them once per process cannot serve runs with different seeds and counts.
//
// So a check searches without rapid.Check: rapid.Check's search (findBug) runs iteration k
// on a random bit stream seeded with seed+0+1+…+k, and Generator.Example(s) draws from a
// stream built the same way, without reading any flag but the seed it then ignores. check
// runs body inside a rapid.Custom generator's Example with those seeds: the same inputs as
// rapid.Check, in the same order, with no global state changed, so checks of any number of
// runs overlap. The equivalence is tested (TestSearchDrawsAsRapidCheck).
//
// Only when the search finds a failure does check hand over to rapid.Check, with its flags
// set under flagsMu for the failing iteration's seed and one check: rapid then reproduces
// the same failure and shrinks it as before, and its log names the same failing seed. The
// verdict (pass, fail, too many invalid inputs), the minimal failing input and the log are
// those of rapid.Check on the whole run; the failing input is run once more than before.
var flagsMu sync.RWMutex

// userFlags is what the command line and environment asked of rapid, read once (after
// `go test` parsed its flags, before the kit sets any): later reads would race with the
// flags check sets for shrinking.
type userFlags struct {
	checks    int  // -rapid.checks or RAPID_CHECKS, when checksSet
	checksSet bool // rapid.checks was set explicitly
	seed      uint64
	short     bool // testing.Short: rapid.Check runs a fifth of the checks
}

var readUserFlags = sync.OnceValue(func() userFlags {
	flagsMu.Lock()
	defer flagsMu.Unlock()
	// testing.Short, called by rapid.Check, panics unless testing's flags are registered and
	// flag.CommandLine is parsed; outside `go test` neither is.
	testing.Init()
	if !flag.Parsed() {
		_ = flag.CommandLine.Parse(nil)
	}
	u := userFlags{short: testing.Short()}
	if f := flag.Lookup("rapid.checks"); f != nil {
		u.checks, _ = strconv.Atoi(f.Value.String())
	}
	flag.Visit(func(f *flag.Flag) { u.checksSet = u.checksSet || f.Name == "rapid.checks" })
	u.checksSet = u.checksSet || envSet("RAPID_CHECKS")
	if f := flag.Lookup("rapid.seed"); f != nil {
		u.seed, _ = strconv.ParseUint(f.Value.String(), 10, 64)
	}
	return u
})

// checks returns the number of checks a run with opts makes, as rapid.Check counts them.
func (u userFlags) checksFor(opts Options) int {
	n := DefaultChecks
	switch {
	case opts.Checks > 0:
		n = opts.Checks
	case u.checksSet:
		n = u.checks
	}
	if u.short {
		n /= 5
	}
	return n
}

// invalidChecksMult is rapid's: a search gives up after checks×10 invalid inputs (t.Skip).
const invalidChecksMult = 10

// outcome is how one iteration of a search ended.
type outcome int

const (
	passed outcome = iota
	invalid
	failedIteration
)

// found is the first failing iteration of a search.
type found struct {
	seed  uint64 // the iteration's stream seed
	valid int    // iterations passed before it
}

// check runs body as rapid.Check with rapid's flags set for opts and seed would, leaving the
// verdict and rapid's log in tb (see flagsMu).
func check(tb *recordingTB, opts Options, seed uint64, body func(*rapid.T)) {
	u := readUserFlags()
	n := u.checksFor(opts)
	if strconv.IntSize < 64 { // Example takes an int seed: it cannot carry every uint64
		checkLocked(tb, n, u.short, seed, opts.ShrinkTime, body)
		return
	}
	start := time.Now()
	g := iteration(body)
	valid, invalids := 0, 0
	s := seed
	for valid < n && invalids < n*invalidChecksMult {
		// findBug's early exit before a deadline 24 h away cannot happen here.
		s += uint64(valid + invalids)
		flagsMu.RLock() // Example reads rapid.seed; check's shrinking writes it
		o := g.Example(int(s))
		flagsMu.RUnlock()
		switch o {
		case passed:
			valid++
		case invalid:
			invalids++
		default:
			shrink(tb, found{seed: s, valid: valid}, u.short, opts.ShrinkTime, body)
			return
		}
	}
	if valid == n {
		tb.Logf("[rapid] OK, passed %v tests (%v)", valid, time.Since(start))
	} else {
		tb.Errorf("[rapid] only generated %v valid tests from %v total (%v)", valid, valid+invalids, time.Since(start))
	}
}

// iteration makes body a generator: its Example(seed) runs body once on the inputs rapid's
// search draws at that stream seed and says how it ended.
func iteration(body func(*rapid.T)) *rapid.Generator[outcome] {
	return rapid.Custom(func(t *rapid.T) outcome {
		o := func() (o outcome) {
			defer func() {
				if r := recover(); r != nil {
					o = failedIteration
					// t.Skip panics with rapid's invalidData; a failure marks t failed first.
					if !t.Failed() && fmt.Sprintf("%T", r) == "rapid.invalidData" {
						o = invalid
					}
				}
			}()
			body(t)
			if t.Failed() { // t.Error without t.FailNow: rapid fails the iteration at its end
				return failedIteration
			}
			return passed
		}()
		// A Custom generator must draw something; a body may not (an aborted property's
		// remaining iterations). Drawn after the body, it changes none of the body's inputs.
		rapid.Bool().Draw(t, "end")
		return o
	})
}

// shrink lets rapid.Check reproduce and minimise the failure the search found: with its
// seed at the failing iteration's and one check, rapid's first iteration is that one.
func shrink(tb *recordingTB, f found, short bool, shrinkTime time.Duration, body func(*rapid.T)) {
	checkLocked(tb, 1, short, f.seed, shrinkTime, body)
	if !tb.failed {
		// The failing input passed on its second run: rapid.Check reports such a body as
		// flaky (a failure) too.
		tb.Errorf("[rapid] flaky test, can not reproduce a failure\nTo try to reproduce, specify -rapid.seed=%d", f.seed)
		return
	}
	// rapid counts the passed iterations before the failure from its own start.
	s := tb.log.String()
	for _, what := range []string{"failed", "panic"} {
		s = strings.Replace(s, "[rapid] "+what+" after 0 tests:", fmt.Sprintf("[rapid] %s after %d tests:", what, f.valid), 1)
	}
	tb.log.Reset()
	tb.log.WriteString(s)
}

// checkLocked runs rapid.Check with rapid's flags set to n checks (after any -short
// division when short), base seed seed, shrinkTime and no fail file, under flagsMu.
func checkLocked(tb *recordingTB, n int, short bool, seed uint64, shrinkTime time.Duration, body func(*rapid.T)) {
	if short {
		n *= 5 // n was already divided; rapid.Check divides again
	}
	flagsMu.Lock()
	defer flagsMu.Unlock()
	restore := setRapidFlags(n, seed, shrinkTime)
	defer restore()
	defer func() {
		if r := recover(); r != nil && r != errFailNow {
			panic(r)
		}
	}()
	rapid.Check(tb, body)
}
