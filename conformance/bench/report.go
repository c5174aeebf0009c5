package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteJSON writes the report as indented JSON; durations are in nanoseconds.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report as a table, one row per workload, then the small-op
// throughput and any disagreement between the sides (as JSON: the first difference and a
// line diff of canonical JSON). A workload whose op a side does not support
// (ADAPTER_UNSUPPORTED) is "n/a" on that side, neither measured nor compared.
//
// "median" and "min" are wall times of one run as the client saw it (encoding, transport,
// the adapter's work); "own" is the median of what the adapter itself reported (elapsedNs),
// so median - own is the protocol's cost. "A/B" is the ratio of the medians.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "A: %s (%s %s, spec %s)\n", r.A.Name, r.A.Hello.Name, r.A.Hello.Version, r.A.Hello.Spec)
	fmt.Fprintf(&b, "B: %s (%s %s, spec %s)\n", r.B.Name, r.B.Hello.Name, r.B.Hello.Version, r.B.Hello.Spec)
	pipe := ""
	if r.Pipeline > 1 {
		pipe = fmt.Sprintf(", pipelined in batches of %d", r.Pipeline)
	}
	fmt.Fprintf(&b, "%d runs per workload and side, %d calls per small-op run, seed %d%s\n\n", r.Repeat, r.Ops, r.Seed, pipe)

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	// Names are padded here: the table aligns every column right, numbers read better so.
	width := len("workload")
	for _, res := range r.Results {
		width = max(width, len(res.Workload))
	}
	fmt.Fprintf(tw, "%-*s\tcalls\tA median\tA min\tA own\tB median\tB min\tB own\tA/B\town A/B\tsame\t\n", width, "workload")
	for _, res := range r.Results {
		fmt.Fprintf(tw, "%-*s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", width, res.Workload, res.Calls,
			res.A.medianCell(), res.A.minCell(), res.A.ownCell(),
			res.B.medianCell(), res.B.minCell(), res.B.ownCell(),
			ratio(res.Ratio), ratio(res.OwnRatio), res.sameCell())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var notes []string
	for _, res := range r.Results {
		for _, s := range []struct {
			name string
			m    Measure
		}{{"A", res.A}, {"B", res.B}} {
			switch {
			case s.m.Status == Unsupported:
				notes = append(notes, fmt.Sprintf("%s on %s: n/a, the op is not supported (%s); not measured, not compared", s.name, res.Workload, s.m.Message))
			case s.m.Status != OK:
				notes = append(notes, fmt.Sprintf("%s on %s: %s: %s", s.name, res.Workload, s.m.Status, s.m.Message))
			case s.m.Capped:
				notes = append(notes, fmt.Sprintf("%s on %s: %d run(s) only: a run took longer than --slow", s.name, res.Workload, len(s.m.Runs)))
			}
		}
		if res.Same != nil && !*res.Same {
			notes = append(notes, fmt.Sprintf("A and B disagree on %s: %s", res.Workload, res.Diff))
		}
	}
	var tput []string
	for _, res := range r.Results {
		if res.Calls > 1 && res.A.OpsPerSec > 0 && res.B.OpsPerSec > 0 {
			tput = append(tput, fmt.Sprintf("  %-22s A %s ops/s, B %s ops/s", res.Workload, group(res.A.OpsPerSec), group(res.B.OpsPerSec)))
		}
	}
	if len(tput) > 0 {
		b.WriteString("\nthroughput (wall time, calls one after another unless pipelined):\n")
		b.WriteString(strings.Join(tput, "\n") + "\n")
	}
	if len(notes) > 0 {
		b.WriteString("\nnotes:\n")
		for _, n := range notes {
			b.WriteString("  " + n + "\n")
		}
	}
	var aCached, bCached bool
	for _, res := range r.Results {
		aCached, bCached = aCached || res.A.Cached, bCached || res.B.Cached
	}
	cached := func(c bool) string {
		if c {
			return "defined once (world.define)"
		}
		return "sent with every call"
	}
	fmt.Fprintf(&b, "\nworlds: A %s, B %s; bench took %s\n", cached(aCached), cached(bCached), FormatDuration(r.Elapsed))
	_, err := io.WriteString(w, b.String())
	return err
}

func (m Measure) medianCell() string {
	if m.Status == Unsupported {
		return "n/a"
	}
	if len(m.Runs) == 0 {
		return string(m.Status)
	}
	s := FormatDuration(m.Median)
	if m.Capped {
		s += fmt.Sprintf(" (%d)", len(m.Runs))
	}
	return s
}

func (m Measure) minCell() string {
	if len(m.Runs) == 0 {
		return "-"
	}
	return FormatDuration(m.Min)
}

func (m Measure) ownCell() string {
	if m.OwnMedian == 0 {
		return "-"
	}
	return FormatDuration(m.OwnMedian)
}

func ratio(x float64) string {
	switch {
	case x == 0 || math.IsNaN(x) || math.IsInf(x, 0):
		return "-"
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// sameCell is the "same" column: n/a when a side does not support the workload's op.
func (res Result) sameCell() string {
	if res.A.Status == Unsupported || res.B.Status == Unsupported {
		return "n/a"
	}
	return same(res.Same)
}

func same(s *bool) string {
	switch {
	case s == nil:
		return "-"
	case *s:
		return "yes"
	}
	return "NO"
}

// FormatDuration prints d with three significant digits: 812µs, 1.23ms, 45.6s, 3m12s.
func FormatDuration(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return sig(d.Seconds(), "s")
	case d >= time.Millisecond:
		return sig(float64(d)/float64(time.Millisecond), "ms")
	case d >= time.Microsecond:
		return sig(float64(d)/float64(time.Microsecond), "µs")
	}
	return fmt.Sprintf("%dns", d.Nanoseconds())
}

func sig(x float64, unit string) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f%s", x, unit)
	case x >= 10:
		return fmt.Sprintf("%.1f%s", x, unit)
	}
	return fmt.Sprintf("%.2f%s", x, unit)
}

// group prints a rate with thousands separators: 23,456.
func group(x float64) string {
	s := fmt.Sprintf("%.0f", x)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
