package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/connect"
	"github.com/sessionref-kit/sessionref-kit/conformance/differential"
	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

const diffUsage = `usage: conformance-runner diff --adapter 'CMD ARGS' [--against 'CMD ARGS' | reference] [flags]

Sends the same rapid-generated requests (worlds with realistic and hostile surfaces, mentions,
configs, budgets, cancellations) to two implementations, A (--adapter) and B (--against,
default the embedded reference), and compares their answers exactly: results as JSON values,
errors by code (messages aside), a failed prepare's reads. On a difference it shrinks the
request to a minimal one, prints both answers and how they differ as JSON (the first
difference by path, then a line diff of canonical JSON, - B + A), and writes the case
as a fixture file (spec/fixtures.md) whose want is B's answer: put the implementation you
trust on the --against side. "reference" names the embedded reference on either side.

Before it generates, each op replays the fixture corpus: the inputs of the kit's fixture
cases, among them those built for a porting trap (fixtures/traps-*.yaml,
spec/porting-traps.md), where one language's default parts from JavaScript's. They are the
same on every seed, so diff is never weaker than the fixtures and a port that trips a
catalogued trap is always found; a difference there names its case and trap.

Requests either side answers ADAPTER_UNSUPPORTED are not compared; each op shows a few of
them, grouped by side and message, shrunk to the smallest. At the end, the state coverage:
how many of the contract's named states (mention parsing, candidates, prepare and retention:
"message truncated twice", "unclosed bracket", "precedence: self over too-many", ...) the
compared requests reached, and which ones none did.

Flags:
  --adapter 'CMD ARGS'  A, the implementation under test (required)
  --against 'CMD ARGS'  B, the one trusted (default reference)
  --ops OP[,OP]         ops to compare (default every op both sides answer; host.send only
                        when both declare the host feature): uri.encode, uri.decode,
                        mention.format, mention.parse, config, candidates, prepare, host.send
  --checks N            generated requests per op (default 1000)
  --seed N              rapid seed (default random; always printed, so a run reproduces)
  --timeout D           per-call timeout (default 10s): a call past it is an error, and a
                        command adapter is restarted
  --dir DIR             the adapters' working directory
  --shrink-time D       time bound for shrinking one difference (default 30s)
  --json FILE           also write the run as JSON: per op the requests compared, and any
                        difference with its request and both answers as JSON values
  --out DIR             where fixture files go (default ./diff-fixtures)
  --profile P           contract release: 0.0.1-rc.1 (default) or 0.1.0-rc.8 (0.1.0 names
                        it too); the embedded reference behaves as P (pass the same to a
                        command adapter yourself)
  --lone-surrogates M   auto (when both sides declare the feature), always or never
  --no-corpus           generated requests only: skip the fixture corpus each op replays first

A fixture file is named diff-<op>-<fault>-<hash>.yaml (fault: result, code, reads or outcome);
its header comment holds both answers and the seed. Every difference is checked: the written
fixture passes against B and fails against A.

Exit codes: 0 no difference, 1 a difference was found (fixtures written), 2 usage error (or
nothing could be compared), 3 an adapter unusable (did not start, broke the protocol,
crashed or hung; this wins over 1).
`

// diffCommand is "conformance-runner diff": a differential run of two implementations.
var diffCommand = &command{
	Name:      "diff",
	UsageLine: "conformance-runner diff --adapter 'CMD'",
	Short:     "compare with the reference on generated requests (diff -h)",
	Long:      func() string { return diffUsage },
	Flag: func(fs *pflag.FlagSet) func(c *call) int {
		f := new(diffFlags)
		fs.StringVar(&f.cmdA, "adapter", "", "")
		fs.StringVar(&f.cmdB, "against", "reference", "")
		fs.StringVar(&f.ops, "ops", "", "")
		fs.IntVar(&f.checks, "checks", differential.DefaultChecks, "")
		fs.Uint64Var(&f.seed, "seed", 0, "")
		fs.DurationVar(&f.timeout, "timeout", adapter.DefaultTimeout, "")
		fs.StringVar(&f.dir, "dir", "", "")
		fs.DurationVar(&f.shrinkTime, "shrink-time", 30*time.Second, "")
		fs.StringVar(&f.out, "out", "diff-fixtures", "")
		fs.StringVar(&f.profile, "profile", "", "")
		fs.StringVar(&f.surrogates, "lone-surrogates", "auto", "")
		fs.BoolVar(&f.noCorpus, "no-corpus", false, "")
		fs.StringVar(&f.jsonFile, "json", "", "")
		return f.run
	},
}

// diffFlags are diff's flags; run is the differential run they describe.
type diffFlags struct {
	cmdA       string
	cmdB       string
	ops        string
	checks     int
	seed       uint64
	timeout    time.Duration
	dir        string
	shrinkTime time.Duration
	out        string
	profile    string
	surrogates string
	noCorpus   bool
	jsonFile   string
}

func (f *diffFlags) run(c *call) int {
	stdout, stderr := c.stdout, c.stderr
	if f.cmdA == "" {
		return c.usageErr("--adapter is required")
	}
	if f.checks <= 0 || f.timeout <= 0 || f.shrinkTime <= 0 {
		return c.usageErr("--checks, --timeout and --shrink-time must be positive")
	}
	// The named-state coverage re-runs the contract's building blocks: the embedded reference's.
	opts := differential.Options{Checks: f.checks, Seed: f.seed, ShrinkTime: f.shrinkTime, NoCorpus: f.noCorpus, Semantics: refadapter.Semantics{}}
	release, err := protocol.ParseProfile(f.profile)
	if err != nil {
		return c.usageErr(fmt.Sprintf("--profile %q: want %s", f.profile, protocol.ProfileNames()))
	}
	opts.Profile = release
	switch f.surrogates {
	case "auto":
	case "always":
		opts.Surrogates = differential.SurrogatesAlways
	case "never":
		opts.Surrogates = differential.SurrogatesNever
	default:
		return c.usageErr(fmt.Sprintf("--lone-surrogates %q: want auto, always or never", f.surrogates))
	}
	if f.ops != "" {
		for _, op := range strings.Split(f.ops, ",") {
			op = strings.TrimSpace(op)
			if !differential.Known(op) {
				return c.usageErr(fmt.Sprintf("--ops: unknown op %q (want %s)", op, strings.Join(differential.Ops, ", ")))
			}
			opts.Ops = append(opts.Ops, op)
		}
	}
	var argvA, argvB []string
	for _, s := range []struct {
		flag, cmd string
		argv      *[]string
	}{{"--adapter", f.cmdA, &argvA}, {"--against", f.cmdB, &argvB}} {
		if s.cmd == "reference" {
			continue
		}
		argv, err := splitCommand(s.cmd)
		if err != nil {
			return c.usageErr(s.flag + ": " + err.Error())
		}
		*s.argv = argv
	}
	jsonTarget, err := checkReport("--json", f.jsonFile, f.dir, argvA, argvB)
	if jsonTarget != nil {
		defer jsonTarget.Close()
	}
	if err != nil {
		return c.usageErr(err.Error())
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop) // the first signal ends the run; a second kills
	a, closeA, err := diffSide(ctx, diffTarget(argvA, f.dir, f.timeout, release), stderr)
	if err != nil {
		fmt.Fprintf(stdout, "A (%s) unusable: %v (exit 3)\n", f.cmdA, err)
		return report.ExitUnusable
	}
	defer closeA()
	b, closeB, err := diffSide(ctx, diffTarget(argvB, f.dir, f.timeout, release), stderr)
	if err != nil {
		fmt.Fprintf(stdout, "B (%s) unusable: %v (exit 3)\n", f.cmdB, err)
		return report.ExitUnusable
	}
	defer closeB()

	nameA, nameB := diffDescribe(f.cmdA, a), diffDescribe(f.cmdB, b)
	fmt.Fprintf(stdout, "A: %s\nB: %s\n", nameA, nameB)
	for _, side := range []struct {
		name string
		c    *adapter.Client
	}{{"A", a}, {"B", b}} {
		if side.c.Hello.Spec != string(opts.Profile) {
			fmt.Fprintf(stdout, "warning: %s declares spec %q; the run is for profile %s\n", side.name, side.c.Hello.Spec, opts.Profile)
		}
	}
	opts.Seed = properties.Seed(properties.Options{Seed: opts.Seed})
	surr := map[bool]string{true: "with", false: "without"}[opts.Surrogates == differential.SurrogatesAlways ||
		opts.Surrogates == differential.SurrogatesAuto && diffSupportsBoth(a, b, "lone-surrogates")]
	fmt.Fprintf(stdout, "profile %s, seed %d, %d requests per op, %s lone surrogates\n", opts.Profile, opts.Seed, f.checks, surr)
	// The seed also goes to stderr first, as for certification runs, so a killed run replays.
	fmt.Fprintf(stderr, "conformance-runner diff: rapid seed %d\n", opts.Seed)

	code := report.ExitConformant
	doc := diffDoc{A: nameA, B: nameB, Profile: string(opts.Profile), Seed: opts.Seed, Checks: f.checks}
	opts.Progress = func(o differential.OpResult) {
		op := diffDocOp(o)
		defer func() { doc.Ops = append(doc.Ops, op) }()
		switch {
		case o.NotCovered != "":
			fmt.Fprintf(stdout, "%-15s not covered: %s\n", o.Op, o.NotCovered)
		case o.Transport != "":
			fmt.Fprintf(stdout, "%-15s %s, stopped in %s: %s\n  request: %s\n", o.Op, diffCounts(o), diffRound(o.Elapsed), o.Transport, o.TransportRequest)
		case o.Difference != nil:
			fmt.Fprintf(stdout, "%-15s %s, DIFFERENCE (%s), shrunk in %d more, in %s\n", o.Op, diffCounts(o), o.Difference.Fault, o.Shrinks, diffRound(o.Elapsed))
			c, path := writeDifference(ctx, stdout, o.Difference, a, b, nameA, nameB, f.out, opts)
			if c > code {
				code = c
			}
			if op.Difference != nil {
				op.Difference.Fixture = path
			}
		default:
			extra := ""
			if o.Unsupported > 0 {
				extra = fmt.Sprintf(" (%d more answered ADAPTER_UNSUPPORTED, not compared)", o.Unsupported)
			}
			if o.NeedLoneSurrogates > 0 {
				extra += fmt.Sprintf(" (%d more need lone surrogates, not compared: run without them)", o.NeedLoneSurrogates)
			}
			fmt.Fprintf(stdout, "%-15s %s, no difference in %s%s\n", o.Op, diffCounts(o), diffRound(o.Elapsed), extra)
		}
		diffUnsupported(stdout, o)
	}
	res := differential.Run(ctx, a, b, opts)
	diffCoverage(stdout, res)

	diffs := len(res.Differences())
	switch {
	case res.Transport() != "":
		code = report.ExitUnusable
		fmt.Fprintf(stdout, "total: %d requests in %s; an adapter is unusable: %s (exit 3)\n", res.Compared(), diffRound(res.Elapsed), res.Transport())
	case ctx.Err() != nil:
		code = report.ExitUnusable
		fmt.Fprintf(stdout, "total: %d requests in %s; interrupted (exit 3)\n", res.Compared(), diffRound(res.Elapsed))
	case diffs > 0:
		if code < report.ExitNotConformant {
			code = report.ExitNotConformant
		}
		fmt.Fprintf(stdout, "total: %d requests in %s; %d op(s) differ, fixtures in %s (exit %d)\n", res.Compared(), diffRound(res.Elapsed), diffs, f.out, code)
	case res.Compared() == 0:
		code = report.ExitUsage
		fmt.Fprintf(stdout, "total: nothing was compared (exit 2)\n")
	default:
		fmt.Fprintf(stdout, "total: %d requests in %s; no difference (exit 0)\n", res.Compared(), diffRound(res.Elapsed))
	}
	if f.jsonFile != "" {
		doc.Compared, doc.ElapsedNs, doc.Transport, doc.Exit = res.Compared(), int64(res.Elapsed), res.Transport(), code
		if err := writeReport(jsonTarget, f.jsonFile, doc.write); err != nil {
			fmt.Fprintf(stderr, "conformance-runner diff: %v\n", err)
			// The total line stated another code: the last line states the one returned.
			code = max(code, report.ExitUsage)
			fmt.Fprintf(stdout, "the --json report was not written (exit %d)\n", code)
		}
	}
	return code
}

// diffCounts says how many corpus and generated requests an op compared.
func diffCounts(o differential.OpResult) string {
	return fmt.Sprintf("%4d corpus + %5d generated requests", o.Corpus, o.Requests)
}

// diffUnsupported prints the shrunk examples of the requests a side answered
// ADAPTER_UNSUPPORTED, one per group (side and message).
func diffUnsupported(w io.Writer, o differential.OpResult) {
	for i, e := range o.UnsupportedExamples {
		if i == differential.MaxUnsupportedExamples {
			rest := 0
			for _, e := range o.UnsupportedExamples[i:] {
				rest += e.Count
			}
			fmt.Fprintf(w, "  ADAPTER_UNSUPPORTED: %d more request(s) in %d other group(s)\n", rest, len(o.UnsupportedExamples)-i)
			break
		}
		fmt.Fprintf(w, "  ADAPTER_UNSUPPORTED from %s, %d request(s), %q; smallest: %s\n", e.Side, e.Count, e.Message, diffClip(string(e.Request.Line()), 400))
	}
}

// diffCoverage prints, per op with named states, how many of them the compared requests
// reached, and names those never reached: a state no request reached is one the run says
// nothing about.
func diffCoverage(w io.Writer, res differential.Result) {
	header := false
	for _, o := range res.Ops {
		reached, never := o.Coverage()
		if len(reached)+len(never) == 0 || o.NotCovered != "" {
			continue
		}
		if !header {
			fmt.Fprintf(w, "state coverage (named states the compared requests reached):\n")
			header = true
		}
		fmt.Fprintf(w, "  %-15s %d/%d states", o.Op, len(reached), len(reached)+len(never))
		if len(never) > 0 {
			fmt.Fprintf(w, "; never reached: %s", strings.Join(never, "; "))
		}
		fmt.Fprintln(w)
	}
}

func diffClip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes)", len(s))
}

// writeDifference prints a difference, writes its fixture and checks that the fixture passes
// against B and fails against A. It returns an exit code (1, or 2 when the file cannot be
// written) and the fixture's path ("" when it was not written).
func writeDifference(ctx context.Context, w io.Writer, d *differential.Difference, a, b *adapter.Client, nameA, nameB, dir string, opts differential.Options) (int, string) {
	la, _ := d.A.Line()
	lb, _ := d.B.Line()
	if d.Source != "" {
		fmt.Fprintf(w, "  found on the fixture corpus: %s\n", d.Source)
		if len(d.Traps) > 0 {
			for _, h := range conformance.TrapHints(d.Traps, a.Hello.Language) {
				fmt.Fprintf(w, "  trap: %s\n", h)
			}
		}
	}
	fmt.Fprintf(w, "  request: %s\n  A: %s\n  B: %s\n  how A differs (- B, + A):\n%s", d.Request.Line(), la, lb, diffIndent(d.Diff, "    "))
	data, err := d.Marshal(string(opts.Profile), nameA, nameB, opts.Seed)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	path := filepath.Join(dir, d.FileName())
	if err == nil {
		err = report.WriteFile(path, func(w io.Writer) error { _, err := w.Write(data); return err }) // atomic
	}
	if err != nil {
		fmt.Fprintf(w, "  fixture: %v\n", err)
		return report.ExitUsage, ""
	}
	check := func(c *adapter.Client) result.Status {
		rs, err := differential.CheckFixture(ctx, c, d.FileName(), data, string(opts.Profile))
		if err != nil || len(rs) != 1 {
			return result.FixtureBug
		}
		return rs[0].Status
	}
	sb, sa := check(b), check(a)
	note := "passes against B, fails against A"
	if sb != result.Pass || sa != result.Fail {
		note = fmt.Sprintf("WARNING: against B %s, against A %s (a flaky answer?)", sb, sa)
	}
	repro := fmt.Sprintf("--ops %s --seed %d --checks %d", d.Op, opts.Seed, opts.Checks)
	if d.Source != "" {
		repro = "--ops " + d.Op + " (the corpus is the same on every seed)"
	}
	fmt.Fprintf(w, "  fixture: %s (%s; want is B's answer)\n  reproduce: %s\n", path, note, repro)
	return report.ExitNotConformant, path
}

// diffTarget is one side: the embedded reference, behaving as profile, when argv is empty,
// else the adapter command run in dir. The timeout bounds each call of either.
func diffTarget(argv []string, dir string, timeout time.Duration, profile protocol.Profile) connect.Target {
	if len(argv) == 0 {
		return connect.Target{Handler: &refadapter.Reference{Profile: profile}, Timeout: timeout}
	}
	return connect.Target{Command: argv, Dir: dir, Timeout: timeout}
}

// diffSide connects to one side. Closing it names the processes the adapter left outside
// its process group on stderr.
func diffSide(ctx context.Context, t connect.Target, stderr io.Writer) (*adapter.Client, func(), error) {
	conn, err := connect.Dial(t, connect.Limits{})
	if err != nil {
		return nil, nil, err
	}
	c, err := conn.Hello(ctx)
	if err != nil {
		msg := err.Error()
		if tail := strings.TrimSpace(conn.Stderr()); tail != "" {
			msg += "; stderr: " + diffLastLines(tail, 3)
		}
		conn.Close()
		return nil, nil, errors.New(msg)
	}
	return c, func() {
		conn.Close()
		for _, o := range conn.Orphans() {
			fmt.Fprintf(stderr, "conformance-runner diff: warning: %s left %s running outside its process group (not killed)\n", t.Command[0], o)
		}
	}, nil
}

func diffDescribe(cmd string, c *adapter.Client) string {
	if cmd == "reference" {
		cmd = "embedded reference (in-process)"
	}
	return fmt.Sprintf("%s (%s %s, spec %s, features %v)", cmd, c.Hello.Name, c.Hello.Version, c.Hello.Spec, c.Hello.Features)
}

func diffSupportsBoth(a, b *adapter.Client, feature string) bool {
	return a.Supports(feature) && b.Supports(feature)
}

func diffRound(d time.Duration) time.Duration {
	if d > 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

func diffIndent(s, pad string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return pad + strings.Join(lines, "\n"+pad) + "\n"
}

func diffLastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// diffDoc is the JSON form of a diff run (--json): what was compared, per op, and each
// difference with its request and answers as JSON values, as the text shows them.
type diffDoc struct {
	A         string       `json:"a"`
	B         string       `json:"b"`
	Profile   string       `json:"profile"`
	Seed      uint64       `json:"seed"`
	Checks    int          `json:"checks"`
	Ops       []diffJSONOp `json:"ops"`
	Compared  int          `json:"compared"`
	ElapsedNs int64        `json:"elapsedNs"`
	Transport string       `json:"transport,omitempty"`
	Exit      int          `json:"exit"`
}

// diffJSONOp is one op of a diffDoc.
type diffJSONOp struct {
	Op               string          `json:"op"`
	Corpus           int             `json:"corpus"`
	Requests         int             `json:"requests"`
	Shrinks          int             `json:"shrinks,omitempty"`
	Unsupported      int             `json:"unsupported,omitempty"`
	NeedLone         int             `json:"needLoneSurrogates,omitempty"`
	NotCovered       string          `json:"notCovered,omitempty"`
	Transport        string          `json:"transport,omitempty"`
	TransportRequest json.RawMessage `json:"transportRequest,omitempty"`
	Difference       *diffJSONDiff   `json:"difference,omitempty"`
	ElapsedNs        int64           `json:"elapsedNs"`
}

// diffJSONDiff is a difference of a diffJSONOp: Diff is the JSON line diff (- B, + A).
type diffJSONDiff struct {
	Fault   string          `json:"fault"`
	Source  string          `json:"source,omitempty"`
	Traps   []string        `json:"traps,omitempty"`
	Request json.RawMessage `json:"request"`
	A       json.RawMessage `json:"a"`
	B       json.RawMessage `json:"b"`
	Diff    string          `json:"diff"`
	Fixture string          `json:"fixture,omitempty"`
}

func diffDocOp(o differential.OpResult) diffJSONOp {
	op := diffJSONOp{Op: o.Op, Corpus: o.Corpus, Requests: o.Requests, Shrinks: o.Shrinks, Unsupported: o.Unsupported, NeedLone: o.NeedLoneSurrogates,
		NotCovered: o.NotCovered, Transport: o.Transport, TransportRequest: rawJSON([]byte(o.TransportRequest)), ElapsedNs: int64(o.Elapsed)}
	if d := o.Difference; d != nil {
		la, _ := d.A.Line()
		lb, _ := d.B.Line()
		op.Difference = &diffJSONDiff{Fault: d.Fault, Source: d.Source, Traps: d.Traps, Request: rawJSON(d.Request.Line()), A: rawJSON(la), B: rawJSON(lb), Diff: d.Diff}
	}
	return op
}

// rawJSON is b when it is JSON (a protocol line), else b as a JSON string; nil when empty.
func rawJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	if json.Valid(b) {
		return b
	}
	s, _ := json.Marshal(string(b))
	return s
}

func (d diffDoc) write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}
