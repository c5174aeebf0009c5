package properties

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// drawn runs a body that draws one request per op (and, with skip, marks some inputs
// invalid, and with fail, fails on some) and records every input it sees, in order.
type drawn struct {
	light      bool
	skip, fail func(string) bool
	errorf     bool // fail with t.Errorf, which fails the iteration at its end, not t.Fatalf
	mu         sync.Mutex
	inputs     []string
}

func (d *drawn) body(t *rapid.T) {
	var parts []string
	ops := []string{protocol.OpURIEncode, protocol.OpMentionParse, protocol.OpCandidates, protocol.OpPrepare}
	if d.light {
		ops = ops[:2]
	}
	for _, op := range ops {
		parts = append(parts, line(op, gen.Request(t, op, gen.Options{LoneSurrogates: true}).Args))
	}
	in := strings.Join(parts, "\n")
	d.mu.Lock()
	d.inputs = append(d.inputs, in)
	d.mu.Unlock()
	if d.skip != nil && d.skip(in) {
		t.Skip("skipped")
	}
	switch {
	case d.fail == nil || !d.fail(in):
	case d.errorf:
		t.Errorf("failed on %d bytes", len(in))
	default:
		t.Fatalf("failed on %d bytes", len(in))
	}
}

var (
	durations = regexp.MustCompile(`\([0-9.]+[µnm]?s\)`)
	afterN    = regexp.MustCompile(`\[rapid\] failed after (\d+) tests`)
)

// The request lines of an empty session id and an empty mention text, which the failing
// cases fail and skip on.
var (
	emptyID   = line(protocol.OpURIEncode, wire.NewObject().Set("sessionId", ""))
	emptyText = line(protocol.OpMentionParse, wire.NewObject().Set("text", ""))
)

// request returns the i-th request line of a drawn input.
func request(s string, i int) string { return strings.Split(s, "\n")[i] }

// TestSearchDrawsAsRapidCheck: check draws the inputs rapid.Check draws with the same flags,
// in the same order, and ends with the same verdict, minimal failing input and log, for
// passing, skipping, failing and always-invalid bodies.
func TestSearchDrawsAsRapidCheck(t *testing.T) {
	for _, tc := range []struct {
		name       string
		skip, fail func(string) bool
		wantFail   bool
		errorf     bool // fail with t.Errorf
		n          int  // checks; 0 means 15
		light      bool // draw no candidates or prepare request: shrinking reruns the body
	}{
		{name: "passes"},
		{name: "skips some", skip: func(s string) bool { return len(s)%3 == 0 }},
		// Failures that come after some passing inputs and then shrink, on an empty session
		// id: its minimal input draws zeros, which rapid's shrinker reaches in a few hundred
		// runs of the body. A failure that needs a large draw to hold (a string longer than
		// 70 bytes, any integer above 1: its 53-bit bias block) costs hundreds of runs per
		// such block in the shrinker's bit sorting: failing on a uri.encode line longer than
		// 70 bytes took up to 17,000 runs a shrink.
		{name: "fails", fail: func(s string) bool { return request(s, 0) == emptyID }, wantFail: true, light: true},
		// The skips come before the failure (so the search counts them in the failing
		// iteration's seed and not in the passed tests) and during shrinking, whose minimal
		// input then keeps a mention. It fails by t.Errorf, the other by t.Fatalf.
		{name: "skips and fails", skip: func(s string) bool { return request(s, 1) == emptyText }, fail: func(s string) bool { return request(s, 0) == emptyID }, errorf: true, wantFail: true, light: true},
		{name: "always invalid", skip: func(string) bool { return true }, wantFail: true, n: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Each failing case must, for some seed, fail after passing inputs (whose count
			// check corrects in the log) and, when it skips, skip before failing.
			laterFailure, skipBeforeFailure := false, false
			// The second seed needs all 64 bits: the search draws from it and the failing
			// iteration's seed, handed to rapid.Check to shrink and printed in the log, keeps them.
			for _, seed := range []uint64{0x5eed0001, 1<<63 + 12345} {
				u := readUserFlags()
				n := cmp.Or(tc.n, 15)
				if u.short {
					n *= 5 // rapid.Check runs a fifth under -short; the same inputs either way
				}
				old, now := &drawn{light: tc.light, skip: tc.skip, fail: tc.fail, errorf: tc.errorf}, &drawn{light: tc.light, skip: tc.skip, fail: tc.fail, errorf: tc.errorf}
				oldTB, nowTB := &recordingTB{name: "p"}, &recordingTB{name: "p"}
				checkLocked(oldTB, u.checksFor(Options{Checks: n}), u.short, seed, 0, old.body) // what Run did before
				check(nowTB, Options{Checks: n}, seed, now.body)
				if oldTB.failed != nowTB.failed || oldTB.failed != tc.wantFail {
					t.Fatalf("seed %d: failed %v by rapid.Check, %v by check; want %v", seed, oldTB.failed, nowTB.failed, tc.wantFail)
				}
				want := old.inputs
				if tc.fail != nil {
					// rapid.Check searches, fails at input k, reproduces it and shrinks it;
					// check searches to k and hands k to rapid.Check, which runs it once
					// more before the same reproduction and shrinking, so the same minimal input.
					k := slices.IndexFunc(old.inputs, func(in string) bool { return !(tc.skip != nil && tc.skip(in)) && tc.fail(in) })
					if k < 0 {
						t.Fatalf("seed %d: rapid.Check failed on no failing input", seed)
					}
					want = slices.Insert(slices.Clone(old.inputs), k, old.inputs[k])
					if old.inputs[len(old.inputs)-1] == old.inputs[k] {
						t.Errorf("seed %d: the failing input did not shrink: the shrinking is not exercised", seed)
					}
					skipBeforeFailure = skipBeforeFailure || tc.skip != nil && slices.ContainsFunc(old.inputs[:k], tc.skip)
				}
				if !slices.Equal(want, now.inputs) {
					t.Errorf("seed %d: check drew %d inputs, rapid.Check %d (and the failing one once more); first differences:\n%s", seed, len(now.inputs), len(old.inputs), firstDiff(want, now.inputs))
				}
				if m := afterN.FindStringSubmatch(nowTB.log.String()); m != nil && m[1] != "0" {
					laterFailure = true
				}
				if o, w := durations.ReplaceAllString(oldTB.log.String(), "(…)"), durations.ReplaceAllString(nowTB.log.String(), "(…)"); o != w {
					t.Errorf("seed %d: logs differ:\nrapid.Check:\n%s\ncheck:\n%s", seed, o, w)
				}
			}
			if tc.fail != nil && !laterFailure {
				t.Error("no seed failed after a passing input: the count of passed tests is not exercised")
			}
			if tc.fail != nil && tc.skip != nil && !skipBeforeFailure {
				t.Error("no seed skipped an input before failing: skips in the failing seed and the count are not exercised")
			}
		})
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("#%d: %s\nvs\n%s", i, a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}

// line renders a request as the protocol line the adapter receives (id 0).
func line(op string, args *wire.Object) string {
	return string(protocol.Request{Op: op, Args: args}.Line())
}
