package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/report/html"
)

const reportUsage = `usage: conformance-runner report REPORT.json... --html OUT.html [--label NAME]... [--title T]

Writes one self-contained HTML page (no network) from JSON reports written by --json: the
verdict and a badge per implementation, parts and areas, the failures with input, want, got
and diff, the requirement matrix with the implementations side by side, every check, and the
spec with each clause's checks. Give several reports (the reference, a port, the published
package in both profiles) to compare them.

Flags:
  --html FILE     the page to write (required; - is stdout)
  --label NAME    a column's name, once per report in order (default: the adapter's hello)
  --title T       the page's title
`

// labels is a repeatable flag.
type labels []string

func (l *labels) String() string     { return strings.Join(*l, ",") }
func (l *labels) Set(v string) error { *l = append(*l, v); return nil }

func reportCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance-runner report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("html", "", "")
	title := fs.String("title", "", "")
	var names labels
	fs.Var(&names, "label", "")
	// Reports and flags may come in any order: parse flags around the file names.
	var files []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if err == flag.ErrHelp {
				fmt.Fprint(stdout, reportUsage)
				return 0
			}
			return reportErr(stderr, err.Error())
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(files) == 0 {
		return reportErr(stderr, "no JSON report given")
	}
	if *out == "" {
		return reportErr(stderr, "--html FILE is required")
	}
	if len(names) > len(files) {
		return reportErr(stderr, fmt.Sprintf("%d labels for %d reports", len(names), len(files)))
	}
	var docs []*report.Document
	for _, f := range files {
		d, err := readReport(f)
		if err != nil {
			fmt.Fprintf(stderr, "conformance-runner report: %s: %v\n", f, err)
			return report.ExitUsage
		}
		docs = append(docs, d)
	}
	page := output{"--html", *out, func(w io.Writer) error {
		return html.Write(w, docs, html.Options{Title: *title, Labels: names})
	}}
	if err := writeOutput(page, stdout); err != nil {
		fmt.Fprintf(stderr, "conformance-runner report: %v\n", err)
		return report.ExitUsage
	}
	if *out == "-" {
		return 0
	}
	fmt.Fprintf(stdout, "wrote %s (%d report%s)\n", *out, len(docs), map[bool]string{true: "", false: "s"}[len(docs) == 1])
	return 0
}

func readReport(path string) (*report.Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return report.ReadDocument(f)
}

func reportErr(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "conformance-runner report: %s\nRun 'conformance-runner report -h' for usage.\n", msg)
	return report.ExitUsage
}
