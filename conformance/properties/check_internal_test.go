package properties

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// drawn runs a body that draws one request per op (and, with skip, marks some inputs
// invalid, and with fail, fails on some) and records every input it sees, in order.
type drawn struct {
	light      bool
	skip, fail func(string) bool
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
	if d.fail != nil && d.fail(in) {
		t.Fatalf("failed on %d bytes", len(in))
	}
}

var (
	durations = regexp.MustCompile(`\([0-9.]+[µnm]?s\)`)
	afterN    = regexp.MustCompile(`\[rapid\] failed after (\d+) tests`)
)

// TestSearchDrawsAsRapidCheck: check draws the inputs rapid.Check draws with the same flags,
// in the same order, and ends with the same verdict, minimal failing input and log, for
// passing, skipping, failing and always-invalid bodies.
func TestSearchDrawsAsRapidCheck(t *testing.T) {
	for _, tc := range []struct {
		name       string
		skip, fail func(string) bool
		wantFail   bool
		n          int  // checks; 0 means 15
		light      bool // draw no prepare request: shrinking reruns the body many times
	}{
		{name: "passes"},
		{name: "skips some", skip: func(s string) bool { return len(s)%3 == 0 }},
		// Failures that come after some passing inputs, and then shrink.
		// (on the first request alone: the others shrink away at once).
		{name: "fails", fail: func(s string) bool { return len(first(s)) > 70 }, wantFail: true, light: true},
		{name: "skips and fails", skip: func(s string) bool { return len(first(s))%2 == 0 }, fail: func(s string) bool { return len(first(s)) > 68 }, wantFail: true, light: true},
		{name: "always invalid", skip: func(string) bool { return true }, wantFail: true, n: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			laterFailure := false                                      // a failure after passing inputs, whose count check corrects
			for _, seed := range []uint64{0x5eed0001, 1<<63 + 12345} { // the second needs all 64 bits
				u := readUserFlags()
				n := cmp.Or(tc.n, 15)
				if u.short {
					n *= 5 // rapid.Check runs a fifth under -short; the same inputs either way
				}
				old, now := &drawn{light: tc.light, skip: tc.skip, fail: tc.fail}, &drawn{light: tc.light, skip: tc.skip, fail: tc.fail}
				oldTB, nowTB := &recordingTB{name: "p"}, &recordingTB{name: "p"}
				checkLocked(oldTB, u.checksFor(Options{Checks: n}), u.short, seed, 0, old.body) // what Run did before
				check(nowTB, Options{Checks: n}, seed, now.body)
				if oldTB.failed != nowTB.failed || oldTB.failed != tc.wantFail {
					t.Fatalf("seed %d: failed %v by rapid.Check, %v by check; want %v", seed, oldTB.failed, nowTB.failed, tc.wantFail)
				}
				if !tc.wantFail && !slices.Equal(old.inputs, now.inputs) {
					t.Fatalf("seed %d: check drew %d inputs, rapid.Check %d; first differences:\n%s", seed, len(now.inputs), len(old.inputs), firstDiff(old.inputs, now.inputs))
				}
				if tc.wantFail {
					// The failing search's inputs are rapid.Check's up to the failure; then both
					// reproduce and shrink it, ending on the same minimal input.
					if old.inputs[len(old.inputs)-1] != now.inputs[len(now.inputs)-1] {
						t.Errorf("seed %d: minimal inputs differ:\nrapid.Check %s\ncheck       %s", seed, old.inputs[len(old.inputs)-1], now.inputs[len(now.inputs)-1])
					}
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
		})
	}
}

func first(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return "#" + string(rune('0'+i%10)) + ": " + a[i] + "\nvs\n" + b[i]
		}
	}
	return "one is a prefix of the other"
}
