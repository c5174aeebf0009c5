package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

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

// reportCommand is "conformance-runner report": one HTML page from JSON reports. Reports and
// flags may come in any order.
var reportCommand = &command{
	Name:      "report",
	UsageLine: "conformance-runner report R.json... --html OUT.html",
	Short:     "one HTML page from JSON reports, side by side (report -h)",
	Long:      func() string { return reportUsage },
	Args:      argsOperand,
	Flag: func(fs *pflag.FlagSet) func(c *call) int {
		f := new(reportFlags)
		fs.StringVar(&f.out, "html", "", "")
		fs.StringVar(&f.title, "title", "", "")
		fs.StringArrayVar(&f.names, "label", nil, "")
		return f.run
	},
}

// reportFlags are report's flags; run writes the page they describe from c.args.
type reportFlags struct {
	out, title string
	names      []string
}

func (f *reportFlags) run(c *call) int {
	stdout, stderr, files, names := c.stdout, c.stderr, c.args, f.names
	if len(files) == 0 {
		return c.usageErr("no JSON report given")
	}
	if f.out == "" {
		return c.usageErr("--html FILE is required")
	}
	if len(names) > len(files) {
		return c.usageErr(fmt.Sprintf("%d labels for %d reports", len(names), len(files)))
	}
	ins := make([]input, len(files))
	for i, f := range files {
		ins[i] = input{"a report read", f}
	}
	if err := checkClashes([]output{{flag: "--html", path: f.out}}, ins); err != nil {
		return c.usageErr(err.Error())
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
	page := output{"--html", f.out, func(w io.Writer) error {
		return html.Write(w, docs, html.Options{Title: f.title, Labels: names})
	}}
	if err := writeOutput(page, nil, stdout); err != nil {
		fmt.Fprintf(stderr, "conformance-runner report: %v\n", err)
		return report.ExitUsage
	}
	if f.out == "-" {
		return 0
	}
	fmt.Fprintf(stdout, "wrote %s (%d report%s)\n", f.out, len(docs), map[bool]string{true: "", false: "s"}[len(docs) == 1])
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
