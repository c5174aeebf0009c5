package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/sessionref-kit/sessionref-kit/conformance/bench"
	"github.com/sessionref-kit/sessionref-kit/conformance/connect"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
)

const benchUsage = `usage: conformance-runner bench [--adapter 'CMD ARGS'] [--against 'CMD ARGS'] [flags]

Sends the same deterministic workloads to two implementations over the adapter protocol,
times each run several times and prints, per workload, the median and minimum wall time of
each side, the time the adapter itself reported (elapsedNs; wall minus own is the
protocol's transport), the ratio A/B and whether both sides answered the same.

A is --adapter (default: the embedded reference, in-process), B is --against (default: the
embedded reference, in-process). Worlds are defined once with world.define on sides that
declare world-cache, and sent with every call otherwise.

Flags:
  --adapter 'CMD ARGS'  side A: an adapter command line, split like a shell does
  --against 'CMD ARGS'  side B: an adapter command line
  --dir DIR             the adapters' working directory
  --workloads LIST      comma-separated globs over workload names, e.g. 'small/*,prepare/1x*';
                        "all" adds the 100k-message workloads (default: all but those)
  --list                list the workloads and exit
  --repeat N            timed runs per workload and side (default 5)
  --ops N               calls per small-op run (default 2000)
  --slow D              after a run slower than D, stop repeating that workload on that side,
                        so the original's quadratic prepare cannot take the bench hostage
                        (default 20s; 0 keeps the default, -1ns never caps)
  --timeout D           per-call timeout (default 10m): a call past it is an error and the
                        adapter is restarted
  --pipeline N          send small-op runs in batches of N without waiting for each answer,
                        to adapters that declare pipelining (default off)
  --no-world-cache      send every world inline, even to adapters declaring world-cache
  --seed N              workload seed (default 1)
  --json FILE           also write the results as JSON (durations in nanoseconds)
  --profile P           contract release the embedded reference behaves as: 0.0.1-rc.1
                        (default) or 0.1.0-rc.8 (0.1.0 names it too)

A workload whose op a side answers ADAPTER_UNSUPPORTED is "n/a" on that side: neither
measured nor compared, and no disagreement. A disagreement is shown as JSON: the first
difference by path, then a line diff of both answers as canonical JSON (- B, + A).

Exit codes: 0 measured (nothing measured disagrees), 1 the sides answered differently or a
side answered an error other than ADAPTER_UNSUPPORTED, 2 usage error, 3 a side is unusable (did not start, broke the protocol, hung past --timeout).
`

// DefaultBenchTimeout is bench's per-call timeout: generous, since measuring how slow the
// original is on a long session is the point.
const DefaultBenchTimeout = 10 * time.Minute

// benchCommand is "conformance-runner bench": two implementations timed on the same workloads.
var benchCommand = &command{
	Name:      "bench",
	UsageLine: "conformance-runner bench --adapter 'CMD'",
	Short:     "time an implementation against the reference (bench -h)",
	Long:      func() string { return benchUsage },
	Flag: func(fs *pflag.FlagSet) func(c *call) int {
		f := new(benchFlags)
		fs.StringVar(&f.adapterCmd, "adapter", "", "")
		fs.StringVar(&f.against, "against", "", "")
		fs.StringVar(&f.dir, "dir", "", "")
		fs.StringVar(&f.workloads, "workloads", "", "")
		fs.BoolVar(&f.list, "list", false, "")
		fs.IntVar(&f.repeat, "repeat", bench.DefaultRepeat, "")
		fs.IntVar(&f.ops, "ops", bench.DefaultOps, "")
		fs.DurationVar(&f.slow, "slow", bench.DefaultSlow, "")
		fs.DurationVar(&f.timeout, "timeout", DefaultBenchTimeout, "")
		fs.IntVar(&f.pipeline, "pipeline", 0, "")
		fs.BoolVar(&f.noCache, "no-world-cache", false, "")
		fs.Uint64Var(&f.seed, "seed", bench.DefaultSeed, "")
		fs.StringVar(&f.jsonFile, "json", "", "")
		fs.StringVar(&f.profile, "profile", "", "")
		return f.run
	},
}

// benchFlags are bench's flags; run times the two sides they name.
type benchFlags struct {
	adapterCmd string
	against    string
	dir        string
	workloads  string
	list       bool
	repeat     int
	ops        int
	slow       time.Duration
	timeout    time.Duration
	pipeline   int
	noCache    bool
	seed       uint64
	jsonFile   string
	profile    string
}

func (f *benchFlags) run(c *call) int {
	stdout, stderr := c.stdout, c.stderr
	if f.list {
		for _, w := range bench.Workloads() {
			large := ""
			if w.Large {
				large = " (only with --workloads all or by name)"
			}
			fmt.Fprintf(stdout, "%-22s %s%s\n", w.Name, w.Doc, large)
		}
		return 0
	}
	if f.repeat < 1 || f.ops < 1 || f.timeout <= 0 {
		return c.usageErr("--repeat and --ops must be at least 1, --timeout positive")
	}
	selected, err := bench.Select(f.workloads)
	if err != nil {
		return c.usageErr(err.Error())
	}

	release, err := protocol.ParseProfile(f.profile)
	if err != nil {
		return c.usageErr(fmt.Sprintf("--profile %q: want %s", f.profile, protocol.ProfileNames()))
	}
	var argvs [][]string
	for _, cmdline := range []string{f.adapterCmd, f.against} {
		if argv, err := splitCommand(cmdline); err == nil && cmdline != "" {
			argvs = append(argvs, argv)
		}
	}
	jsonTarget, err := checkReport("--json", f.jsonFile, f.dir, argvs...)
	if jsonTarget != nil {
		defer jsonTarget.Close()
	}
	if err != nil {
		return c.usageErr(err.Error())
	}
	var sides [2]bench.Side
	for i, cmdline := range []string{f.adapterCmd, f.against} {
		// The in-process reference runs on the bench's goroutine, unbounded (Timeout 0): a
		// goroutine and a timer per call would be measured with the handler.
		t := connect.Target{Handler: &refadapter.Reference{Profile: release}}
		name := "reference (in-process)"
		if cmdline != "" {
			argv, err := splitCommand(cmdline)
			if err != nil {
				return c.usageErr(fmt.Sprintf("%s: %v", []string{"--adapter", "--against"}[i], err))
			}
			t, name = connect.Target{Command: argv, Dir: f.dir, Timeout: f.timeout}, cmdline
		}
		conn, err := connect.Dial(t, connect.Limits{})
		if err != nil {
			fmt.Fprintf(stderr, "conformance-runner bench: %v\n", err)
			return report.ExitUnusable
		}
		defer conn.Close()
		sides[i] = bench.Side{Name: name, Caller: conn.Caller()}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := bench.Config{Workloads: selected, Repeat: f.repeat, Ops: f.ops, Seed: f.seed, Slow: f.slow,
		Pipeline: f.pipeline, NoWorldCache: f.noCache, Log: stderr}
	rep, err := bench.Run(ctx, cfg, sides[0], sides[1])
	if err != nil && rep == nil {
		fmt.Fprintf(stderr, "conformance-runner bench: %v\n", err)
		return report.ExitUnusable
	}
	code := report.ExitConformant
	for _, res := range rep.Results {
		for _, m := range []bench.Measure{res.A, res.B} {
			switch m.Status {
			case bench.Broken:
				code = report.ExitUnusable
			case bench.Failed:
				code = max(code, report.ExitNotConformant)
			}
		}
		if res.Same != nil && !*res.Same {
			code = max(code, report.ExitNotConformant)
		}
	}
	if f.jsonFile != "" {
		if err := writeReport(jsonTarget, f.jsonFile, rep.WriteJSON); err != nil {
			fmt.Fprintf(stderr, "conformance-runner bench: %v\n", err)
			code = max(code, report.ExitUsage)
		}
	}
	if err := rep.WriteText(stdout); err != nil {
		return report.ExitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "conformance-runner bench: %v\n", err)
		return report.ExitUnusable
	}
	return code
}
