package report

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// seconds formats a duration for people: "0.42s".
func seconds(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }

// HelloLine describes the adapter in one line.
func (r *Report) HelloLine() string {
	if r.Hello == nil {
		return "no hello"
	}
	h := r.Hello
	// Every field is the adapter's own text: escaped, so it cannot rewrite the terminal.
	return Terminal(fmt.Sprintf("%s %s (protocol %d, spec %s, features [%s])", h.Name, h.Version, h.Protocol, h.Spec, strings.Join(h.Features, ", ")))
}

// Header returns the lines naming what was certified and with which data.
func (r *Report) Header() []string {
	lines := []string{
		fmt.Sprintf("sessionref-kit %s conformance run, spec %s", r.Kit, r.Spec),
		fmt.Sprintf("adapter: %s: %s", Terminal(r.Adapter), r.HelloLine()),
		fmt.Sprintf("fixtures: sha256 %s", orNone(r.FixtureHash)),
		fmt.Sprintf("properties: seed %d (rerun with --seed %d), %d checks each", r.Seed, r.Seed, r.Checks),
	}
	if r.Tags != "" {
		lines = append(lines, "tags: "+r.Tags)
	}
	if r.Match != "" {
		lines = append(lines, "run: "+r.Match)
	}
	if r.Skip != "" {
		lines = append(lines, "skip: "+r.Skip+" (reported as not covered)")
	}
	if r.Shard != "" {
		lines = append(lines, "shard: "+r.Shard)
	}
	if r.Timeout > 0 {
		lines = append(lines, fmt.Sprintf("limits: %v per call, %d timeouts (%d used), %d restarts (%d used), %v for the run", r.Timeout, r.MaxTimeouts, r.Timeouts, r.MaxRestarts, r.Restarts, r.Deadline))
	}
	return lines
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// TextOptions shape the text report.
type TextOptions struct {
	// Verbose adds the coverage matrix (per requirement) and every not-covered check by
	// name; the default groups the not-covered checks by reason and counts them.
	Verbose bool
}

// WriteText writes the human-readable report with the default TextOptions.
func (r *Report) WriteText(w io.Writer) error { return r.WriteTextWith(w, TextOptions{}) }

// WriteTextWith writes the human-readable report: the header, then every failure and error
// with its input, expected and actual answers and diff, then the summary (per-part and
// per-area counts, the not-covered checks grouped by reason) and the verdict last. An
// adapter that failed at hello gets a short report: why, what it wrote on stderr, and the
// command as run.
func (r *Report) WriteTextWith(w io.Writer, o TextOptions) error {
	var b strings.Builder
	for _, l := range r.Header() {
		b.WriteString(l + "\n")
	}
	for _, wn := range r.Warnings {
		b.WriteString("warning: " + Terminal(wn) + "\n")
	}
	if r.Hello == nil && r.Unusable != "" {
		b.WriteString("\nThe adapter is unusable: " + Terminal(r.Unusable) + "\n")
		b.WriteString("Run its command by hand: it must start, read {\"id\":1,\"op\":\"hello\",\"args\":{\"protocol\":1}} on stdin\n" +
			"and answer one JSON line on stdout (spec/protocol.md). Nothing else was run.\n")
		r.writeVerdict(&b)
		return writeValid(w, b.String())
	}
	if o.Verbose {
		r.writeFailures(&b)
	} else {
		r.writeGroups(&b)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "%-12s %6s %6s %6s %12s %6s %12s %9s\n", "part", "checks", "pass", "fail", "not-covered", "error", "fixture-bug", "elapsed")
	for _, p := range r.Parts {
		fmt.Fprintf(&b, "%-12s %6d %6d %6d %12d %6d %12d %9s", p.Name, p.Total, p.Pass, p.Fail, p.NotCovered, p.Error, p.FixtureBug, seconds(p.Elapsed))
		if p.Note != "" {
			b.WriteString("  (" + Terminal(p.Note) + ")")
		}
		b.WriteString("\n")
	}
	if areas := r.Areas(); len(areas) > 0 {
		b.WriteString("\n")
		fmt.Fprintf(&b, "%-12s %6s %6s %6s %12s %6s %12s\n", "area", "checks", "pass", "fail", "not-covered", "error", "fixture-bug")
		for _, a := range areas {
			fmt.Fprintf(&b, "%-12s %6d %6d %6d %12d %6d %12d\n", a.Name, a.Total, a.Pass, a.Fail, a.NotCovered, a.Error, a.FixtureBug)
		}
	}
	if len(r.Requirements) > 0 && o.Verbose {
		b.WriteString("\ncoverage by requirement (checks the kit defines | this run's results)\n")
		fmt.Fprintf(&b, "%-14s %9s %8s %10s %10s | %5s %5s %12s %5s\n", "requirement", "scenarios", "fixtures", "properties", "partitions", "pass", "fail", "not-covered", "error")
		for _, q := range r.Requirements {
			fmt.Fprintf(&b, "%-14s %9d %8d %10d %10d | %5d %5d %12d %5d\n", q.ID, q.Scenarios, q.Fixtures, q.Properties, q.Partitions, q.Pass, q.Fail, q.NotCovered, q.Error+q.FixtureBug)
		}
	}
	r.writeNotCovered(&b, o.Verbose)
	if r.Restarts > 0 {
		fmt.Fprintf(&b, "\nthe adapter was restarted %s\n", plural(r.Restarts, "time"))
	}
	r.writeVerdict(&b)
	return writeValid(w, b.String())
}

// writeFailures writes every failure, error and fixture bug in full; a dead adapter fails
// every remaining case the same way, so errors with one message are shown a few times and
// then counted.
func (r *Report) writeFailures(b *strings.Builder) {
	for _, st := range []result.Status{result.Fail, result.Error, result.FixtureBug} {
		seen := map[string]int{}
		var order []string
		for _, cs := range r.Cases {
			if cs.Status != st {
				continue
			}
			if seen[cs.Message] == 0 {
				order = append(order, cs.Message)
			}
			if seen[cs.Message]++; seen[cs.Message] <= maxSameMessage || st == result.Fail {
				b.WriteString("\n")
				writeCase(b, cs, r.Rerun(cs))
			}
		}
		for _, msg := range order {
			if n := seen[msg]; n > maxSameMessage && st != result.Fail {
				fmt.Fprintf(b, "\n…and %d more %s cases with: %s\n", n-maxSameMessage, st, Terminal(msg))
			}
		}
	}
}

// writeNotCovered writes the not-covered checks grouped by reason, most frequent first,
// and with verbose every one by name.
func (r *Report) writeNotCovered(b *strings.Builder, verbose bool) {
	count := map[string]int{}
	var reasons, names []string
	for _, cs := range r.Cases {
		if cs.Status != result.NotCovered {
			continue
		}
		if count[cs.Message] == 0 {
			reasons = append(reasons, cs.Message)
		}
		count[cs.Message]++
		names = append(names, Terminal(fmt.Sprintf("  %s %s: %s", cs.Part, cs.Name, cs.Message)))
	}
	if len(names) == 0 {
		return
	}
	sort.SliceStable(reasons, func(i, j int) bool { return count[reasons[i]] > count[reasons[j]] })
	fmt.Fprintf(b, "\nnot covered: %s, by reason\n", plural(len(names), "check"))
	for _, m := range reasons {
		fmt.Fprintf(b, "  %5d  %s\n", count[m], Terminal(m))
	}
	if verbose {
		b.WriteString("\nnot covered, each:\n" + strings.Join(names, "\n") + "\n")
	} else {
		b.WriteString("  (-v lists each, with the coverage matrix)\n")
	}
}

// writeVerdict writes the last line: the outcome's label, the summary, and the exit code
// the process returns (Verdict.Code, updated by NotWritten when a report failed).
func (r *Report) writeVerdict(b *strings.Builder) {
	fmt.Fprintf(b, "\n%s in %s: %s (exit %d)\n", r.Verdict.Kind().Label(), seconds(r.Elapsed), Terminal(r.Verdict.Summary), r.Verdict.Code)
}

// writeValid writes s; adapters answer with broken bytes and control characters, the report
// itself stays valid UTF-8 and free of any but its own line breaks (terminalBlock).
func writeValid(w io.Writer, s string) error {
	_, err := io.WriteString(w, terminalBlock(s))
	return err
}

// maxSameMessage is how many errors with one message the text report shows in full.
const maxSameMessage = 3

func writeCase(b *strings.Builder, cs result.Case, rerun string) {
	label := map[result.Status]string{result.Fail: "FAIL", result.Error: "ERROR", result.FixtureBug: "FIXTURE BUG"}[cs.Status]
	fmt.Fprintf(b, "%s %s %s: %s\n", label, cs.Part, Terminal(cs.Name), Terminal(cs.Message))
	if len(cs.Requirements) > 0 {
		fmt.Fprintf(b, "  requirements: %s\n", strings.Join(cs.Requirements, ", "))
	}
	for _, h := range cs.TrapHints {
		fmt.Fprintf(b, "  trap:  %s\n", h)
	}
	if cs.Diagnosis != "" {
		fmt.Fprintf(b, "  first differing input: %s\n", Terminal(clip(cs.Diagnosis, 400)))
	}
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(b, "  %-6s %s\n", name+":", Terminal(clip(v, 4000)))
		}
	}
	field("rerun", rerun)
	if src := cs.Source; src.File != "" {
		field("at", src.File+":"+strconv.Itoa(src.Line))
	}
	field("input", cs.Input.String())
	field("want", cs.Want.String())
	field("got", cs.Got.String())
	writeDiff(b, cs, "  ")
}

// writeDiff writes the language-neutral diff of a case's want and got (compare.Difference),
// each line indented: the first difference, then the line diff of their canonical JSON.
func writeDiff(b *strings.Builder, cs result.Case, indent string) {
	d := cs.Diff
	if d == nil {
		return
	}
	fmt.Fprintf(b, "%sfirst difference: %s\n", indent, Terminal(d.First))
	b.WriteString(indent + "diff (- want, + got):\n")
	for _, l := range strings.Split(strings.TrimRight(clip(d.Lines, 8000), "\n"), "\n") {
		b.WriteString(indent + "  " + Terminal(l) + "\n")
	}
}

// RerunRegexp is the --run expression (Runner.Match) that selects cs alone; the text report
// prints it quoted for a POSIX shell.
func RerunRegexp(cs result.Case) string {
	return "^" + regexp.QuoteMeta(cs.Part+"/"+cs.Name) + "$"
}

// clip keeps reports readable when an adapter answers with megabytes.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d more bytes)", len(s)-n)
}
