package report

import (
	"fmt"
	"io"
	"regexp"
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
	return fmt.Sprintf("%s %s (protocol %d, spec %s, features [%s])", h.Name, h.Version, h.Protocol, h.Spec, strings.Join(h.Features, ", "))
}

// Header returns the lines naming what was certified and with which data.
func (r *Report) Header() []string {
	lines := []string{
		fmt.Sprintf("sessionref-kit %s conformance run, spec %s", r.Kit, r.Spec),
		fmt.Sprintf("adapter: %s: %s", r.Adapter, r.HelloLine()),
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
	return lines
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// WriteText writes the human-readable report: header, per-part and per-area counts with
// elapsed times, every failure and error with its input, expected and actual answers and diff,
// the not-covered checks, and the verdict.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, l := range r.Header() {
		b.WriteString(l + "\n")
	}
	for _, wn := range r.Warnings {
		b.WriteString("warning: " + wn + "\n")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "%-12s %6s %6s %6s %12s %6s %12s %9s\n", "part", "checks", "pass", "fail", "not-covered", "error", "fixture-bug", "elapsed")
	for _, p := range r.Parts {
		fmt.Fprintf(&b, "%-12s %6d %6d %6d %12d %6d %12d %9s", p.Name, p.Total, p.Pass, p.Fail, p.NotCovered, p.Error, p.FixtureBug, seconds(p.Elapsed))
		if p.Note != "" {
			b.WriteString("  (" + p.Note + ")")
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
	if len(r.Requirements) > 0 {
		b.WriteString("\ncoverage by requirement (checks the kit defines | this run's results)\n")
		fmt.Fprintf(&b, "%-14s %9s %8s %10s %10s | %5s %5s %12s %5s\n", "requirement", "scenarios", "fixtures", "properties", "partitions", "pass", "fail", "not-covered", "error")
		for _, q := range r.Requirements {
			fmt.Fprintf(&b, "%-14s %9d %8d %10d %10d | %5d %5d %12d %5d\n", q.ID, q.Scenarios, q.Fixtures, q.Properties, q.Partitions, q.Pass, q.Fail, q.NotCovered, q.Error+q.FixtureBug)
		}
	}
	for _, st := range []result.Status{result.Fail, result.Error, result.FixtureBug} {
		// A dead adapter fails every remaining case the same way: show a few, count the rest.
		seen := map[string]int{}
		for _, cs := range r.Cases {
			if cs.Status != st {
				continue
			}
			if seen[cs.Message]++; seen[cs.Message] <= maxSameMessage || st == result.Fail {
				b.WriteString("\n")
				writeCase(&b, cs)
			}
		}
		for msg, n := range seen {
			if n > maxSameMessage && st != result.Fail {
				fmt.Fprintf(&b, "\n…and %d more %s cases with: %s\n", n-maxSameMessage, st, msg)
			}
		}
	}
	var nc []string
	for _, cs := range r.Cases {
		if cs.Status == result.NotCovered {
			nc = append(nc, fmt.Sprintf("  %s %s: %s", cs.Part, cs.Name, cs.Message))
		}
	}
	if len(nc) > 0 {
		b.WriteString("\nnot covered:\n" + strings.Join(nc, "\n") + "\n")
	}
	if r.Restarts > 0 {
		fmt.Fprintf(&b, "\nthe adapter was restarted %s\n", plural(r.Restarts, "time"))
	}
	word := statusWord(r.Verdict.Code)
	if r.Verdict.Code == ExitConformant && r.Totals.NotCovered > 0 {
		word = "partial"
	}
	fmt.Fprintf(&b, "\n%s in %s: %s (exit %d)\n", strings.ToUpper(word), seconds(r.Elapsed), r.Verdict.Summary, r.Verdict.Code)
	// Adapters answer with broken bytes; the report itself stays valid UTF-8.
	_, err := io.WriteString(w, strings.ToValidUTF8(b.String(), "\uFFFD"))
	return err
}

// maxSameMessage is how many errors with one message the text report shows in full.
const maxSameMessage = 3

func statusWord(code int) string {
	switch code {
	case ExitConformant:
		return "ok"
	case ExitNotConformant:
		return "fail"
	case ExitUsage:
		return "nothing run"
	}
	return "error"
}

func writeCase(b *strings.Builder, cs result.Case) {
	label := map[result.Status]string{result.Fail: "FAIL", result.Error: "ERROR", result.FixtureBug: "FIXTURE BUG"}[cs.Status]
	fmt.Fprintf(b, "%s %s %s: %s\n", label, cs.Part, cs.Name, cs.Message)
	if len(cs.Requirements) > 0 {
		fmt.Fprintf(b, "  requirements: %s\n", strings.Join(cs.Requirements, ", "))
	}
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(b, "  %-6s %s\n", name+":", clip(v, 4000))
		}
	}
	rerun := "--run '" + strings.ReplaceAll(RerunRegexp(cs), "'", `'\''`) + "'"
	if cs.Seed != 0 {
		rerun += " --seed " + strconv.FormatUint(cs.Seed, 10)
	}
	field("rerun", rerun)
	field("input", cs.Input)
	field("want", cs.Want)
	field("got", cs.Got)
	if cs.Diff != "" {
		b.WriteString("  diff (-want +got):\n")
		for _, l := range strings.Split(strings.TrimRight(clip(cs.Diff, 8000), "\n"), "\n") {
			b.WriteString("    " + l + "\n")
		}
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
