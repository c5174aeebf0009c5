package mutants

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/internal/sweep"
)

// mutant is one wrong port: the reference with one plausible porting mistake.
type mutant struct {
	name    string
	mistake string
	impl    goport.Port     // through conformancetest's bridge, as any Go port
	handler adapter.Handler // or a protocol-level handler
	// timeout, when set, replaces the runner's per-call timeout (10 s) for a mutant that
	// hangs on some calls: such a call is an error (a kill) either way, only sooner.
	timeout time.Duration
	// checks, when set, replaces the package's checks for a mutant whose wrong calls are slow.
	checks int
}

// Handler is the mutant as the runner calls it: its protocol-level handler, or its port
// behind the bridge conformancetest.TestPort certifies a Go port through.
func (m mutant) Handler() adapter.Handler {
	if m.handler != nil {
		return m.handler
	}
	return portHandler(m.impl)
}

// portHandler is conformancetest's bridge to p. It fails only for a port that declares a
// feature the Go API does not know, which no port here does.
func portHandler(p goport.Port) adapter.Handler {
	h, err := conformancetest.Handler(p, "")
	if err != nil {
		panic(err)
	}
	return h
}

func knob(name, mistake string, k knobs) mutant {
	return mutant{name: name, mistake: mistake, impl: port{k: k}}
}

func allMutants() []mutant {
	return append([]mutant{
		// URI
		knob("uri/encoding-json", "EncodeURI with encoding/json (HTML escapes, U+2028/U+2029 escaped)", knobs{encodingJSON: true}),
		knob("uri/upper-surrogate-hex", "lone surrogates escaped with uppercase hex", knobs{upperSurrogateHex: true}),
		knob("uri/padded-std-base64", "standard base64 with padding", knobs{paddedStdBase64: true}),
		knob("uri/no-canonical-check", "DecodeURI without the canonical re-encode check", knobs{noCanonicalCheck: true}),
		knob("uri/canonical-json-check", "canonical check on the decoded JSON, not the URI (stray bits pass)", knobs{canonicalJSON: true}),
		knob("uri/trim-space", "DecodeURI trims whitespace around the JSON", knobs{trimSpaceJSON: true}),
		// mentions
		knob("mention/ascii-space", `Go regexp \s (ASCII whitespace only) ends a URI`, knobs{asciiSpace: true}),
		knob("mention/dot-all", "`.` in a label escape matches a line terminator", knobs{dotAll: true}),
		knob("mention/no-unescape", "Markdown labels not unescaped", knobs{noUnescape: true}),
		knob("mention/no-escape-bracket", "Format does not escape `]`", knobs{noEscapeBracket: true}),
		knob("mention/bare-word-boundary", "bare URIs must be word-bounded", knobs{bareWordBoundary: true}),
		// strings
		knob("strings/simple-lower", "strings.ToLower (simple mapping) in the candidate filter", knobs{simpleLower: true}),
		knob("strings/byte-contains", "substring test on bytes, not code units", knobs{byteContains: true}),
		knob("strings/rune-count", "byte length as utf8.RuneCountInString", knobs{runeCountBytes: true}),
		knob("strings/utf16-length", "byte length as JavaScript's .length (UTF-16 code units)", knobs{utf16Length: true}),
		knob("strings/go-numbers", "capturedThroughSeq written by strconv.FormatFloat 'g' (1e+06, 1e-07)", knobs{goNumbers: true}),
		knob("strings/lone-surrogate-1-byte", "a lone surrogate counted as 1 byte", knobs{surrogateOne: true}),
		knob("strings/id-case-sensitive", "the query matched against the id without lowercasing it (ids taken as opaque)", knobs{idLower: func(s string) string { return s }}),
		knob("strings/cwd-case-sensitive", "the query matched against the cwd without lowercasing it", knobs{cwdLower: func(s string) string { return s }}),
		knob("strings/python-lower-id-cwd", "id and cwd lowercased with Python 3.11 str.lower() (Unicode 14), titles with the contract's", knobs{idLower: caseTable("python-3.11.txt").Lower, cwdLower: caseTable("python-3.11.txt").Lower}),
		knob("strings/ascii-lower-id-cwd", "id and cwd lowercased as ASCII (ids and paths taken as ASCII), titles with the contract's", knobs{idLower: asciiLower, cwdLower: asciiLower}),
		knob("strings/code-points-in-id-cwd", "id and cwd searched with Python's `in` (code points): a lone surrogate needle never matches half a pair there", knobs{fieldCodePointsIn: true}),
		// retention
		knob("retention/drop-newest", "the newest message may be dropped", knobs{dropNewest: true}),
		knob("retention/drop-checkpoints", "checkpoints may be dropped", knobs{dropCheckpoints: true}),
		knob("retention/truncate-from-current", "truncation from the previous truncation, not the original", knobs{truncateFromCurrent: true}),
		knob("retention/best-fit", "best-fit search instead of the seed's bisection", knobs{bestFit: true}),
		knob("retention/keep-bom", "no BOM stripping in truncation", knobs{keepBOM: true}),
		knob("retention/ascii-ellipsis", `omission notice with "..." instead of "…"`, knobs{asciiEllipsis: true}),
		knob("retention/raw-text-budget", "budget compared with the texts' bytes, not the serialized object", knobs{rawTextBudget: true}),
		knob("retention/no-lt-escape", "`<` not escaped as \\u003c in the prompt", knobs{noLtEscape: true}),
		knob("retention/project-tool-results", "tool/result events projected as user messages", knobs{projectToolResults: true}),
		// service
		knob("service/dedup-last", "dedup keeps the LAST label", knobs{dedupLast: true}),
		knob("service/cancel-first", "cancellation checked before the references are validated", knobs{cancelFirst: true}),
		knob("service/self-after-count", "self-reference checked after dedup and the TOO_MANY count", knobs{selfAfterCount: true}),
		{name: "service/too-many-early", mistake: "TOO_MANY checked before the later elements are validated", handler: &tooManyEarly{}},
		knob("service/limit-after-cancel", "limit validated after the cancellation check", knobs{limitAfterCancel: true}),
		knob("service/limit-after-list", "limit validated once the sessions are listed, after the cancellation check", knobs{limitAfterList: true}),
		{name: "service/query-type-after-list", mistake: "the query's type checked once the sessions are listed", handler: &queryTypeAfterList{}},
		knob("service/titles-for-all", "titles read for every session even with an empty query", knobs{titlesForAll: true}),
		knob("service/cwdless-last", "sessions without a cwd ranked last", knobs{cwdlessLast: true}),
		knob("service/newest-first", "within a rank group, the newest session first instead of the listing's order", knobs{newestFirst: true}),
		knob("service/empty-title-fallback", "an empty title falls back to the id", knobs{emptyTitleFallback: true}),
		knob("service/max-references-4", "config accepts maxReferences 4", knobs{maxRefs4: true}),
		{name: "service/sequential-reads", mistake: "surfaces read sequentially, stopping at the first failure",
			impl: port{k: knobs{sequentialReads: true}}, timeout: 3 * time.Second, checks: 5},
		knob("service/read-failure-at-render", "reads settled together, a failure reported when its source is rendered (after the earlier budgets)", knobs{readFailureAtRender: true}),
		knob("service/project-all-first", "every source projected before any budget is checked", knobs{projectAllFirst: true}),
		knob("service/limit-before-filter", "with a query, the limit applied before the filter", knobs{limitBeforeFilter: true}),
		knob("service/agent-cwd-zero-value", `an agent without a cwd compared as "" (Go's zero value): a session whose cwd is "" ranks first`, knobs{agentCwdZero: true}),
		knob("retention/blank-messages-skipped", `a message whose text is blank (strings.TrimSpace(text) == "") skipped as empty`, knobs{blankSkipped: true}),
		knob("retention/longest-by-runes", "the message cut first chosen by utf8.RuneCountInString, not UTF-8 bytes", knobs{longestByRunes: true}),
		knob("retention/notice-grouped-count", `the omission notice's count written with digit grouping ("omitted 4,900 UTF-8 bytes", as toLocaleString, "{0:N0}" or f"{n:,}" write it)`, knobs{groupedCount: true}),
	}, slices.Concat(trapMutants(), unionMutants(), rubyMutants(), tsMutants(), keyOrderMutants(), pythonMutants(), phpMutants(), perlMutants())...)
}

// seeds are the fixed rapid seeds every mutant is certified with.
var seeds = []uint64{0x5eed0001, 0x5eed0002, 0x5eed0003}

// checks is the number of rapid inputs per property: 30 rather than the default 100 keeps
// -full (3 seeds × every port) to minutes. No mutant depends on the properties alone: each is
// killed by fixed checks (TestKitKillsEveryMutant).
const checks = 30

// certify runs the kit with its default settings but for the fixed seed, checks, and a short
// shrink time: shrinking only minimises a failure already found, so it cannot change a verdict.
func certify(h adapter.Handler, seed uint64, timeout time.Duration, n int) (*report.Report, error) {
	if n == 0 {
		n = checks
	}
	r, err := conformance.NewRunner(conformance.Runner{Handler: h, Seed: seed, Checks: n, ShrinkTime: time.Millisecond, Timeout: timeout})
	if err != nil {
		return nil, err
	}
	return r.Run(context.Background()), nil
}

// caught summarises the failing checks of rep per part.
func caught(rep *report.Report) map[string][]string {
	out := map[string][]string{}
	for _, c := range rep.Cases {
		if c.Status == result.Fail || c.Status == result.Error {
			out[c.Part] = append(out[c.Part], c.Name)
		}
	}
	return out
}

func summary(by map[string][]string) string {
	var parts []string
	for _, p := range conformance.Parts {
		names := by[p]
		if len(names) == 0 {
			continue
		}
		shown := names
		if len(shown) > 3 {
			shown = shown[:3]
		}
		s := fmt.Sprintf("%s %d (%s", p, len(names), strings.Join(shown, "; "))
		if len(names) > len(shown) {
			s += "; …"
		}
		parts = append(parts, s+")")
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// TestKitKillsEveryMutant: every mutant is found not conformant (exit 1) by fixed checks.
//
// A fixed check (a feature scenario or a fixture case) does not depend on a rapid seed, and a
// run's verdict is not conformant as soon as one check fails, whatever the others do; so a
// mutant that fails a fixed check fails the default certification on every seed. The checks
// that kill each mutant are recorded in testdata/kills.txt: by default each mutant is
// certified on a sample of its recorded checks alone (a real run, selected with Match), each
// of which must fail, so the run is not conformant. With -fixed, every mutant is certified on every fixed
// check, as a port would be, and every recorded check must still fail (-update rewrites the
// file, adding the checks that kill it since); .ci/run passes -fixed. TestFullCertificationSample runs the whole
// default certification, properties included, for a sample, and -full for every mutant.
func TestKitKillsEveryMutant(t *testing.T) {
	names := map[string]bool{}
	for _, m := range allMutants() {
		if names[m.name] {
			t.Fatalf("duplicate mutant %s", m.name)
		}
		names[m.name] = true
	}
	if len(names) < 20 {
		t.Fatalf("only %d mutants", len(names))
	}
	recorded, err := readKills()
	if err != nil && !*update {
		t.Fatal(err)
	}
	for name := range recorded {
		if !names[name] && !*update {
			t.Errorf("%s: recorded in %s, but there is no such mutant (-fixed -update rewrites it)", name, killsFile)
		}
	}
	ms := allMutants()
	slices.SortStableFunc(ms, func(a, b mutant) int { return cmp.Compare(b.timeout, a.timeout) })
	var mu sync.Mutex
	found := map[string][]kill{}
	t.Run("each", func(t *testing.T) {
		for _, m := range ms {
			t.Run(m.name, func(t *testing.T) {
				t.Parallel()
				checks := sample(recorded[m.name])
				if *fixedAll || *update {
					checks = nil // every fixed check
				} else if len(checks) == 0 {
					t.Fatalf("no fixed check that kills it is recorded in %s (%s); go test -run TestKitKillsEveryMutant -fixed -update records them", killsFile, m.mistake)
				}
				// A mutant whose calls wait (a timeout of its own) spends about a second in each
				// check: its sampled checks run side by side, one run each, each of which must
				// kill it.
				runs := [][]kill{checks}
				if m.timeout > 0 && checks != nil {
					runs = nil
					for _, c := range checks {
						runs = append(runs, []kill{c})
					}
				}
				reps := make([]*report.Report, len(runs))
				errs := make([]error, len(runs))
				var wg sync.WaitGroup
				for i, run := range runs {
					wg.Go(func() { reps[i], errs[i] = certifyFixed(m.Handler(), m.timeout, run) })
				}
				wg.Wait()
				var failed []kill
				for i, rep := range reps {
					if errs[i] != nil {
						t.Fatal(errs[i])
					}
					by := caught(rep)
					t.Logf("%s: caught by %s", rep.Verdict.Summary, summary(by))
					if rep.Verdict.Code != report.ExitNotConformant || len(by["features"])+len(by["fixtures"]) == 0 {
						t.Errorf("SURVIVED the fixed checks (%s): %s; verdict %d %q", m.mistake, summary(by), rep.Verdict.Code, rep.Verdict.Summary)
					}
					failed = append(failed, failing(rep)...)
				}
				slices.SortFunc(failed, compareKills)
				if checks == nil {
					mu.Lock()
					found[m.name] = failed
					mu.Unlock()
					// A recorded check that no longer kills it would make the default run's
					// certificate stale; a new check that kills it is only news.
					var gone, added []kill
					for _, k := range recorded[m.name] {
						if !slices.Contains(failed, k) {
							gone = append(gone, k)
						}
					}
					for _, k := range failed {
						if !slices.Contains(recorded[m.name], k) {
							added = append(added, k)
						}
					}
					if len(gone) > 0 && !*update {
						t.Errorf("recorded checks no longer kill it (go test -run TestKitKillsEveryMutant -fixed -update records what does): %q", gone)
					}
					if len(added) > 0 && !*update {
						t.Logf("%d more fixed checks kill it than %s records (-update records them)", len(added), killsFile)
					}
					return
				}
				if !slices.Equal(failed, slices.SortedFunc(slices.Values(checks), compareKills)) {
					t.Errorf("its recorded checks do not all fail (go test -run TestKitKillsEveryMutant -fixed -update records them):\nrecorded %q\nfailed   %q", checks, failed)
				}
			})
		}
	})
	if *update && !t.Failed() {
		if err := writeKills(found); err != nil {
			t.Fatal(err)
		}
	}
}

var (
	fixedAll = flag.Bool("fixed", false, "certify every mutant on every fixed check, comparing the checks that kill it with "+killsFile)
	update   = flag.Bool("update", false, "with -fixed: rewrite "+killsFile)
)

// killsFile records, per mutant, the fixed checks it fails ("part/name", as Runner.Match
// names them, and the check's area, a feature's file): the checks it is certified on by
// default.
const killsFile = "testdata/kills.txt"

// sample is the checks a mutant is certified on by default: the first two recorded of each
// part (a mutant can fail hundreds; one failure decides the verdict).
func sample(checks []kill) []kill {
	var out []kill
	per := map[string]int{}
	for _, c := range checks {
		part, _, _ := strings.Cut(c.check, "/")
		if per[part] < 2 {
			per[part]++
			out = append(out, c)
		}
	}
	return out
}

// failing returns the part/name of rep's failed checks, sorted. A check that errored is left
// out: in a whole run, a timeout can spend the adapter's budget and make later checks errors
// that would not be errors on their own.
func failing(rep *report.Report) []kill {
	var out []kill
	for _, c := range rep.Cases {
		if c.Status == result.Fail {
			out = append(out, kill{c.Part + "/" + c.Name, c.Area})
		}
	}
	slices.SortFunc(out, compareKills)
	return out
}

// kill is a fixed check that kills a mutant.
type kill struct{ check, area string }

func compareKills(a, b kill) int {
	return cmp.Or(cmp.Compare(a.check, b.check), cmp.Compare(a.area, b.area))
}

func readKills() (map[string][]kill, error) {
	b, err := os.ReadFile(killsFile)
	if err != nil {
		return nil, err
	}
	out := map[string][]kill{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("%s: %q is not MUTANT<tab>PART/CHECK<tab>AREA", killsFile, line)
		}
		out[f[0]] = append(out[f[0]], kill{f[1], f[2]})
	}
	for _, checks := range out {
		slices.SortFunc(checks, compareKills)
	}
	return out, nil
}

func writeKills(found map[string][]kill) error {
	var b strings.Builder
	b.WriteString("# The fixed checks each mutant fails: go test ./conformance/mutants -run TestKitKillsEveryMutant -fixed -update\n")
	for _, name := range slices.Sorted(maps.Keys(found)) {
		for _, c := range found[name] {
			fmt.Fprintf(&b, "%s\t%s\t%s\n", name, c.check, c.area)
		}
	}
	tmp := killsFile + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, killsFile)
}

var (
	full     = flag.Bool("full", false, "certify every mutant with the full default run (properties included) on three rapid seeds")
	slow     = flag.Bool("slow", false, "add the mutants whose calls hang (timeouts) to TestFullCertificationSample's sample")
	allSeeds = flag.Bool("allseeds", false, "certify TestFullCertificationSample's sample on all three rapid seeds, not one each")
)

// fullSample are the mutants TestFullCertificationSample certifies end to end by default: a
// protocol-level one and one of each kind of knob; with -slow (as .ci/run passes), also the
// mutants whose calls hang, whose runs spend most of their time waiting for timeouts (20 s).
var fullSample = map[string]bool{
	"service/too-many-early": true, "uri/encoding-json": true,
	"trap/python-str-lower-3.11": true, "trap/python-isinstance-int-float": true, "trap/java-pattern-dot": true,
}

// TestFullCertificationSample certifies mutants with the default runner, properties
// included, on rapid seeds: each must be found not conformant every time.
//
// A sweep: TestKitKillsEveryMutant is go test's check that fixed checks kill every mutant.
// With the sweeps on, each mutant of the sample runs on one of the seeds, in turn (the fixed
// checks that kill it do not depend on one); -allseeds (which .ci/run passes) and -full run
// each on all three, and -slow adds the mutants that hang.
func TestFullCertificationSample(t *testing.T) {
	if !*full && !*allSeeds && !*slow {
		sweep.Skip(t, "five mutants certified with the default runner, properties included")
	}
	n := 0
	for _, m := range allMutants() {
		if !*full && !fullSample[m.name] && !(*slow && m.timeout > 0) {
			continue
		}
		its := seeds
		if !*full && !*allSeeds {
			its = seeds[n%len(seeds) : n%len(seeds)+1]
		}
		n++
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			reps := make([]*report.Report, len(its))
			errs := make([]error, len(its))
			var wg sync.WaitGroup
			for i, seed := range its {
				wg.Go(func() { reps[i], errs[i] = certify(m.Handler(), seed, m.timeout, m.checks) })
			}
			wg.Wait()
			for i, seed := range its {
				rep, err := reps[i], errs[i]
				if err != nil {
					t.Fatal(err)
				}
				by := caught(rep)
				t.Logf("seed %#x: %s: caught by %s", seed, rep.Verdict.Summary, summary(by))
				if rep.Verdict.Code != report.ExitNotConformant || rep.Totals.Fail == 0 {
					t.Errorf("SURVIVED with seed %#x (%s): %s; verdict %d %q", seed, m.mistake, summary(by), rep.Verdict.Code, rep.Verdict.Summary)
				}
			}
		})
	}
}

// certifyFixed runs the default certification's fixed checks (features and fixtures): those
// named, or every one when checks is nil. Named checks run with only the parts and feature
// files that hold them: godog walks every scenario of the files it is given, selected or not.
func certifyFixed(h adapter.Handler, timeout time.Duration, checks []kill) (*report.Report, error) {
	r := conformance.Runner{Handler: h, Timeout: timeout, Parts: []string{conformance.PartFeatures, conformance.PartFixtures}}
	if checks != nil {
		var quoted []string
		parts := map[string]bool{}
		files := fstest.MapFS{}
		for _, c := range checks {
			quoted = append(quoted, regexp.QuoteMeta(c.check))
			part, _, _ := strings.Cut(c.check, "/")
			parts[part] = true
			if part == conformance.PartFeatures {
				name := c.area + ".feature"
				b, err := fs.ReadFile(features.FS, name)
				if err != nil {
					return nil, err
				}
				files[name] = &fstest.MapFile{Data: b}
			}
		}
		r.Match = "^(?:" + strings.Join(quoted, "|") + ")$"
		r.Parts = slices.Sorted(maps.Keys(parts))
		r.Features = files
	}
	r, err := conformance.NewRunner(r)
	if err != nil {
		return nil, err
	}
	return r.Run(context.Background()), nil
}

// TestUnmutatedPortIsConformant certifies the port the mutants are made from, with no
// mistake, with the same seeds: so what kills a mutant is its own mistake.
func TestUnmutatedPortIsConformant(t *testing.T) {
	t.Parallel()
	reps := make([]*report.Report, len(seeds))
	errs := make([]error, len(seeds))
	var wg sync.WaitGroup
	for i, seed := range seeds {
		wg.Go(func() { reps[i], errs[i] = certify(portHandler(port{}), seed, 0, 0) })
	}
	wg.Wait()
	for i, seed := range seeds {
		rep, err := reps[i], errs[i]
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict.Code != report.ExitConformant {
			var fails []string
			for _, c := range rep.Cases {
				if c.Status == result.Fail || c.Status == result.Error {
					fails = append(fails, fmt.Sprintf("%s/%s: %s\n  input %s\n  want %s\n  got  %s\n%s", c.Part, c.Name, c.Message, c.Input, c.Want, c.Got, c.Diff))
				}
			}
			slices.Sort(fails)
			t.Fatalf("seed %#x: the unmutated port is not conformant: %s\n%s", seed, rep.Verdict.Summary, strings.Join(fails, "\n"))
		}
	}
}

// TestTrapMutantsSpanLanguages: the trap mutants imitate at least 40 language defaults in at
// least 6 languages, each named language/API.
func TestTrapMutantsSpanLanguages(t *testing.T) {
	langs := map[string]int{}
	n := 0
	for _, m := range trapMutants() {
		lang, _, ok := strings.Cut(strings.TrimPrefix(m.name, "trap/"), "-")
		if !strings.HasPrefix(m.name, "trap/") || !ok {
			t.Errorf("trap mutant %q is not named trap/LANGUAGE-API", m.name)
		}
		langs[lang]++
		n++
	}
	if n < 40 || len(langs) < 6 {
		t.Errorf("%d trap mutants in %d languages (%v); want at least 40 in 6", n, len(langs), langs)
	}
	t.Logf("%d trap mutants: %v", n, langs)
}
