package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/report/html"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// run is the whole command; main only exits with its code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "adapter" {
		return serve(args[1:], stdin, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "diff" {
		return diffCmd(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "bench" {
		return benchCmd(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "list" {
		return listCmd(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "report" {
		return reportCmd(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "version" {
		return versionCmd(args[1:], stdout, stderr)
	}
	fs := newFlagSet("conformance-runner")
	var (
		sel        selection
		ad         adapterFlags
		dir        = fs.String("dir", "", "")
		timeout    = fs.Duration("timeout", adapter.DefaultTimeout, "")
		checks     = fs.Int("checks", 0, "")
		seed       = fs.Uint64("seed", 0, "")
		skipFiles  = fs.StringArray("skip-file", nil, "")
		maxFail    = fs.Int("max-fail", 0, "")
		junitFile  = fs.String("junit", "", "")
		jsonFile   = fs.String("json", "", "")
		mdFile     = fs.String("markdown", "", "")
		htmlFile   = fs.String("html", "", "")
		msgFile    = fs.String("cucumber-messages", "", "")
		progress   = fs.String("progress", "auto", "")
		requireAll = fs.Bool("require-all", false, "")
		verbose    = fs.BoolP("verbose", "v", false, "")
		version    = fs.Bool("version", false, "")
		maxTimeout = fs.Int("max-timeouts", conformance.DefaultMaxTimeouts, "")
		deadline   = fs.Duration("deadline", conformance.DefaultDeadline, "")
	)
	ad.register(fs)
	sel.register(fs)
	dash, code, done := parsePFlags(fs, args, usage, stdout, stderr)
	if done {
		return code
	}
	if *version {
		return versionCmd(nil, stdout, stderr)
	}
	if err := positiveFlags(fs, "timeout", "deadline", "max-timeouts", "checks"); err != nil {
		return usageErr(stderr, err.Error())
	}
	if err := checkDir(*dir); err != nil {
		return usageErr(stderr, err.Error())
	}
	r := conformance.Runner{Dir: *dir, Timeout: *timeout, Checks: *checks, Seed: *seed, RequireAll: *requireAll, MaxFail: *maxFail}
	r.MaxTimeouts, r.Deadline = *maxTimeout, *deadline
	if err := sel.apply(&r); err != nil {
		return usageErr(stderr, err.Error())
	}
	argv, err := ad.argv(dash, *dir)
	if err != nil {
		return usageErr(stderr, err.Error())
	}
	if err := checkProgram(argv, *dir); err != nil {
		return usageErr(stderr, err.Error())
	}
	r.Command = argv
	for _, f := range *skipFiles {
		known, err := readKnownFailures(f)
		if err != nil {
			return usageErr(stderr, err.Error())
		}
		r.KnownFailures = append(r.KnownFailures, known...)
	}
	var show bool
	switch *progress {
	case "auto":
		show = isTerminal(stderr)
	case "always":
		show = true
	case "never":
	default:
		return usageErr(stderr, fmt.Sprintf("--progress %q: want auto, always or never", *progress))
	}
	if show {
		p := &progressPrinter{w: stderr}
		r.Progress, r.PartDone = p.cas, p.part
	}
	var messages bytes.Buffer // written atomically after the run, like the other reports
	if *msgFile != "" {
		r.CucumberMessages = &messages
	}
	runner, err := conformance.NewRunner(r)
	if err != nil {
		return usageErr(stderr, err.Error())
	}
	// The reports read rep, set once the run is over.
	var rep *report.Report
	outs := []output{
		{"--junit", *junitFile, func(w io.Writer) error { return rep.WriteJUnit(w) }},
		{"--json", *jsonFile, func(w io.Writer) error { return rep.WriteJSON(w) }},
		{"--markdown", *mdFile, func(w io.Writer) error { return rep.WriteMarkdown(w) }},
		{"--html", *htmlFile, func(w io.Writer) error {
			return html.Write(w, []*report.Document{rep.Document()}, html.Options{})
		}},
		{"--cucumber-messages", *msgFile, func(w io.Writer) error {
			_, err := w.Write(messages.Bytes())
			return err
		}},
	}
	for i := range outs {
		if isStdout(outs[i].path) {
			outs[i].path = "-"
		}
	}
	if err := checkOutputs(outs); err != nil {
		return usageErr(stderr, err.Error())
	}
	if sum := os.Getenv("GITHUB_STEP_SUMMARY"); sum != "" {
		if err := report.CheckPath(sum); err != nil {
			return usageErr(stderr, "$GITHUB_STEP_SUMMARY: "+err.Error())
		}
	}
	// A report on stdout ("-") keeps stdout for it alone: the text report goes to stderr.
	text := stdout
	for _, o := range outs {
		if o.path == "-" {
			text = stderr
		}
	}

	ctx, stop := interruptContext()
	defer stop()
	rep = runner.Run(ctx)
	stop() // from here a signal kills, as it would without the runner's handler
	// The seed goes out first, so even a run killed while writing reports can be replayed.
	fmt.Fprintf(stderr, "conformance-runner: rapid seed %d\n", rep.Seed)

	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if err := writeOutput(o, stdout); err != nil {
			fmt.Fprintf(stderr, "conformance-runner: %v\n", err)
			rep.NotWritten(err)
		}
	}
	if sum := os.Getenv("GITHUB_STEP_SUMMARY"); sum != "" {
		if err := report.AppendFile(sum, rep.WriteMarkdown); err != nil {
			fmt.Fprintf(stderr, "conformance-runner: %v\n", err)
			rep.NotWritten(err)
		}
	}
	// The text report is last, and its last line states rep.Verdict.Code: what this returns.
	if err := rep.WriteTextWith(text, report.TextOptions{Verbose: *verbose}); err != nil {
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

// parseFlags parses a (sub)command's flags and takes no positional argument. done reports
// that the command returns code at once: its help was printed (0), or a usage error (2).
func parseFlags(fs *flag.FlagSet, args []string, help string, stdout, stderr io.Writer, usageErr func(io.Writer, string) int) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, help)
			return 0, true
		}
		return usageErr(stderr, err.Error()), true
	}
	if fs.NArg() > 0 {
		return usageErr(stderr, fmt.Sprintf("unexpected argument %q", fs.Arg(0))), true
	}
	return 0, false
}

func usageErr(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "conformance-runner: %s\nRun 'conformance-runner -h' for usage.\n", msg)
	return report.ExitUsage
}

// serve answers the protocol with the embedded reference until stdin ends.
func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance-runner adapter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	profile := fs.String("profile", "", "contract release to behave as: "+protocol.ProfileNames())
	maxRequest := fs.Int("max-request-bytes", adapter.MaxLine, "refuse request lines (worlds) larger than this")
	if err := fs.Parse(args); err != nil {
		return report.ExitUsage
	}
	p, err := protocol.ParseProfile(*profile)
	if err != nil {
		fmt.Fprintf(stderr, "conformance-runner adapter: --profile: %v\n", err)
		return report.ExitUsage
	}
	opts := adapter.ServeOptions{MaxRequest: *maxRequest}
	if err := adapter.ServeWith(context.Background(), stdin, stdout, &refadapter.Reference{Profile: string(p)}, opts); err != nil {
		fmt.Fprintf(stderr, "conformance-runner adapter: %v\n", err)
		return 1
	}
	return 0
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
