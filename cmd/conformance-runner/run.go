package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/report/html"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// runCommand is the default command: a certification run of the embedded reference or of an
// adapter.
var runCommand = &command{
	UsageLine: `conformance-runner [flags]
conformance-runner [flags] --adapter 'CMD ARGS'
conformance-runner [flags] -- CMD ARG...`,
	Short: `certify the embedded reference (in-process)
certify an implementation over the adapter protocol
the same, the adapter's argv as given (no quoting)`,
	Long: func() string { return synopsis() + runHelp },
	Args: argsAdapter,
	Flag: runFlags,
}

// runFlags defines a run's flags and returns the run.
func runFlags(fs *pflag.FlagSet) func(c *call) int {
	f := new(certification)
	fs.StringVar(&f.dir, "dir", "", "")
	fs.DurationVar(&f.timeout, "timeout", adapter.DefaultTimeout, "")
	fs.IntVar(&f.checks, "checks", 0, "")
	fs.Uint64Var(&f.seed, "seed", 0, "")
	fs.StringArrayVar(&f.skipFiles, "skip-file", nil, "")
	fs.IntVar(&f.maxFail, "max-fail", 0, "")
	fs.StringVar(&f.junitFile, "junit", "", "")
	fs.StringVar(&f.jsonFile, "json", "", "")
	fs.StringVar(&f.mdFile, "markdown", "", "")
	fs.StringVar(&f.htmlFile, "html", "", "")
	fs.StringVar(&f.msgFile, "cucumber-messages", "", "")
	fs.StringVar(&f.progress, "progress", "auto", "")
	fs.BoolVar(&f.requireAll, "require-all", false, "")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "")
	fs.BoolVar(&f.version, "version", false, "")
	fs.IntVar(&f.maxTimeout, "max-timeouts", conformance.DefaultMaxTimeouts, "")
	fs.IntVar(&f.maxRestarts, "max-restarts", conformance.DefaultMaxRestarts, "")
	fs.DurationVar(&f.deadline, "deadline", conformance.DefaultDeadline, "")
	f.ad.register(fs)
	f.sel.register(fs)
	return f.run
}

// certification is a run's flags; run certifies the adapter they name.
type certification struct {
	sel         selection
	ad          adapterFlags
	dir         string
	timeout     time.Duration
	checks      int
	seed        uint64
	skipFiles   []string
	maxFail     int
	junitFile   string
	jsonFile    string
	mdFile      string
	htmlFile    string
	msgFile     string
	progress    string
	requireAll  bool
	verbose     bool
	version     bool
	maxTimeout  int
	maxRestarts int
	deadline    time.Duration
}

func (f *certification) run(c *call) int {
	if f.version {
		return printVersion(c.stdout, false)
	}
	if err := positiveFlags(c.fs, "timeout", "deadline", "max-timeouts", "max-restarts", "checks"); err != nil {
		return c.usageErr(err.Error())
	}
	if err := checkDir(f.dir); err != nil {
		return c.usageErr(err.Error())
	}
	r := conformance.Runner{Dir: f.dir, Timeout: f.timeout, Checks: f.checks, Seed: f.seed, RequireAll: f.requireAll, MaxFail: f.maxFail}
	r.MaxTimeouts, r.MaxRestarts, r.Deadline = f.maxTimeout, f.maxRestarts, f.deadline
	if err := f.sel.apply(&r); err != nil {
		return c.usageErr(err.Error())
	}
	argv, err := f.ad.argv(c.dash, f.dir)
	if err != nil {
		return c.usageErr(err.Error())
	}
	if err := checkProgram(argv, f.dir); err != nil {
		return c.usageErr(err.Error())
	}
	r.Command = argv
	for _, f := range f.skipFiles {
		known, err := readKnownFailures(f)
		if err != nil {
			return c.usageErr(err.Error())
		}
		r.KnownFailures = append(r.KnownFailures, known...)
	}
	var show bool
	switch f.progress {
	case "auto":
		show = isTerminal(c.stderr)
	case "always":
		show = true
	case "never":
	default:
		return c.usageErr(fmt.Sprintf("--progress %q: want auto, always or never", f.progress))
	}
	if show {
		p := &progressPrinter{w: c.stderr}
		r.Progress, r.PartDone = p.cas, p.part
	}
	var messages bytes.Buffer // written atomically after the run, like the other reports
	if f.msgFile != "" {
		r.CucumberMessages = &messages
	}
	runner, err := conformance.NewRunner(r)
	if err != nil {
		return c.usageErr(err.Error())
	}
	// The reports read rep, set once the run is over.
	var rep *report.Report
	outs := []output{
		{"--junit", f.junitFile, func(w io.Writer) error { return rep.WriteJUnit(w) }},
		{"--json", f.jsonFile, func(w io.Writer) error { return rep.WriteJSON(w) }},
		{"--markdown", f.mdFile, func(w io.Writer) error { return rep.WriteMarkdown(w) }},
		{"--html", f.htmlFile, func(w io.Writer) error {
			return html.Write(w, []*report.Document{rep.Document()}, html.Options{})
		}},
		{"--cucumber-messages", f.msgFile, func(w io.Writer) error {
			_, err := w.Write(messages.Bytes())
			return err
		}},
	}
	for i := range outs {
		if isStdout(outs[i].path) {
			outs[i].path = "-"
		}
	}
	targets, err := checkOutputs(outs)
	if err != nil {
		return c.usageErr(err.Error())
	}
	defer closeTargets(targets)
	var summaryTarget *report.AppendTarget
	if sum := os.Getenv("GITHUB_STEP_SUMMARY"); sum != "" {
		if summaryTarget, err = report.CheckAppend(sum); err != nil {
			return c.usageErr("$GITHUB_STEP_SUMMARY: " + err.Error())
		}
	}
	ins := adapterInputs(argv, f.dir)
	for _, p := range f.skipFiles {
		ins = append(ins, input{"a --skip-file", p})
	}
	summary := output{flag: "$GITHUB_STEP_SUMMARY", path: os.Getenv("GITHUB_STEP_SUMMARY")}
	if err := checkClashes(append(outs[:len(outs):len(outs)], summary), ins); err != nil {
		return c.usageErr(err.Error())
	}
	// A report on stdout ("-") keeps stdout for it alone: the text report goes to stderr.
	text := c.stdout
	for _, o := range outs {
		if o.path == "-" {
			text = c.stderr
		}
	}

	ctx, stop := interruptContext()
	defer stop()
	rep = runner.Run(ctx)
	stop() // from here a signal kills, as it would without the runner's handler
	// The seed goes out first, so even a run killed while writing reports can be replayed.
	fmt.Fprintf(c.stderr, "conformance-runner: rapid seed %d\n", rep.Seed)

	for i, o := range outs {
		if o.path == "" {
			continue
		}
		if err := writeOutput(o, targets[i], c.stdout); err != nil {
			fmt.Fprintf(c.stderr, "conformance-runner: %v\n", err)
			rep.NotWritten(err)
		}
	}
	if summaryTarget != nil {
		if err := summaryTarget.Append(rep.WriteMarkdown); err != nil {
			fmt.Fprintf(c.stderr, "conformance-runner: %v\n", err)
			rep.NotWritten(err)
		}
	}
	// The text report is last, and its last line states rep.Verdict.Code: what this returns.
	if err := rep.WriteTextWith(text, report.TextOptions{Verbose: f.verbose}); err != nil {
		return report.ExitUsage
	}
	return rep.Verdict.Code
}

// interruptContext returns a context that SIGINT or SIGTERM cancels with the cause
// conformance.Interrupt, so the run ends "interrupted" with 130 or 143 and its reports hold
// what finished. stop restores the signals' default action: a second signal kills.
func interruptContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs) // the first signal ends the run, with reports; a second kills
			cancel(conformance.Interrupt{Signal: s})
		case <-done:
		}
	}()
	var once bool
	return ctx, func() {
		if !once {
			once = true
			signal.Stop(sigs)
			close(done)
		}
	}
}

// adapterCommand is "conformance-runner adapter": the embedded reference served over the
// protocol on stdin and stdout until stdin ends.
var adapterCommand = &command{
	Name:      "adapter",
	UsageLine: "conformance-runner adapter [--profile P] [--max-request-bytes N]",
	Short:     "serve the embedded reference on stdin/stdout",
	Long: func() string {
		return `usage: conformance-runner adapter [--profile P] [--max-request-bytes N]

Serves the embedded Go reference over the adapter protocol (spec/protocol.md) on stdin and
stdout until stdin ends: the adapter that --adapter 'conformance-runner adapter' runs.

Flags:
  --profile P              contract release to behave as: ` + protocol.ProfileNames() + `
  --max-request-bytes N    refuse request lines (worlds) larger than N bytes
                           (default ` + strconv.Itoa(adapter.MaxLine) + `)

Exit codes: 0 stdin ended, 1 the protocol could not be served (stdin or stdout failed),
2 usage error.
`
	},
	Flag: func(fs *pflag.FlagSet) func(c *call) int {
		profile := fs.String("profile", "", "")
		maxRequest := fs.Int("max-request-bytes", adapter.MaxLine, "")
		return func(c *call) int {
			p, err := protocol.ParseProfile(*profile)
			if err != nil {
				c.errorf("--profile: %v", err)
				return report.ExitUsage
			}
			opts := adapter.ServeOptions{MaxRequest: *maxRequest}
			if err := adapter.ServeWith(context.Background(), c.stdin, c.stdout, &refadapter.Reference{Profile: p}, opts); err != nil {
				c.errorf("%v", err)
				return 1
			}
			return 0
		}
	},
}

// splitCommand splits a command line into words, much as a POSIX shell does: blanks separate
// words, single quotes keep everything, double quotes keep all but \" and \\, and a
// backslash outside quotes escapes a blank or a quote. Any other backslash is itself, so a
// Windows path (C:\tools\port.exe) keeps its backslashes. No expansion happens.
func splitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
			inWord = true
		case c == '\\' && i+1 < len(s) && strings.IndexByte(" \t\n'\"", s[i+1]) >= 0:
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, errors.New("empty command")
	}
	return out, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressPrinter shows one character per finished check, go-test style, and a line per part.
type progressPrinter struct {
	w   io.Writer
	col int
}

func (p *progressPrinter) cas(c result.Case) {
	ch := map[result.Status]string{result.Pass: ".", result.Fail: "F", result.Error: "E", result.NotCovered: "-", result.FixtureBug: "B"}[c.Status]
	if p.col == 0 {
		fmt.Fprintf(p.w, "%-11s ", c.Part)
	}
	fmt.Fprint(p.w, ch)
	if p.col++; p.col == 60 {
		fmt.Fprintln(p.w)
		p.col = 0
	}
}

func (p *progressPrinter) part(pt report.Part) {
	if p.col > 0 {
		fmt.Fprintln(p.w)
		p.col = 0
	}
	note := ""
	if pt.Note != "" {
		note = " (" + pt.Note + ")"
	}
	fmt.Fprintf(p.w, "%-11s %d checks, %d failed, %d errors in %s%s\n", pt.Name, pt.Total, pt.Fail, pt.Error, pt.Elapsed.Round(time.Millisecond), note)
}

// readKnownFailures reads a --skip-file.
func readKnownFailures(path string) ([]conformance.KnownFailure, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--skip-file: %v", err)
	}
	defer f.Close()
	return conformance.ParseKnownFailures(f, path)
}
