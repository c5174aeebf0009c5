package pairing

import (
	"bytes"
	"fmt"
	"strings"
)

// Limits on what a diff costs and shows: an edit distance beyond maxEdits is
// summarised rather than computed, and the text is clipped at maxDiffBytes.
const (
	maxEdits     = 2000
	maxDiffBytes = 64 << 10
	diffContext  = 3
)

// Changes is what changed in one side since the confirmed state, when the
// confirmed blob is in the repository's objects.
type Changes struct {
	// Source says where the confirmed blob was read: "loose" or "pack" (read from
	// the object files without running git), or "unavailable" with Reason.
	Source string `json:"source"`
	Reason string `json:"reason,omitempty"`
	// Added and Removed count lines, against the blob git would store now.
	Added   int `json:"added,omitempty"`
	Removed int `json:"removed,omitempty"`
	// Diff is a unified diff (a/ the confirmed blob, b/ the current one), clipped
	// to 64 KiB; Truncated says it was. Empty when the edit is too large to compute.
	Diff      string `json:"diff,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type edit struct {
	op   byte // ' ', '-', '+'
	line string
}

// lineDiff returns the edit script from a to b (Myers' O(ND) algorithm), or
// ok=false when more than maxEdits lines differ.
func lineDiff(a, b []string) (script []edit, ok bool) {
	n, m := len(a), len(b)
	max := n + m
	if max > maxEdits {
		max = maxEdits
	}
	offset := max + 1
	v := make([]int, 2*max+3)
	// trace[d] keeps only the diagonals step d reads, -d-1 … d+1: memory grows
	// with the square of the edit distance, bounded by maxEdits, not of the sizes.
	var trace [][]int32
	for d := 0; d <= max; d++ {
		snap := make([]int32, 2*d+3)
		for i := range snap {
			snap[i] = int32(v[offset-d-1+i])
		}
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				x = v[offset+k+1]
			} else {
				x = v[offset+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[offset+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, d, k, offset), true
			}
		}
	}
	return nil, false
}

func backtrack(trace [][]int32, a, b []string, d, k, offset int) []edit {
	x, y := len(a), len(b)
	var rev []edit
	for ; d > 0; d-- {
		snap := trace[d]
		at := func(k int) int { return int(snap[k+d+1]) }
		var prevK int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, edit{' ', a[x]})
		}
		if x == prevX {
			y--
			rev = append(rev, edit{'+', b[y]})
		} else {
			x--
			rev = append(rev, edit{'-', a[x]})
		}
		k = prevK
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, edit{' ', a[x]})
	}
	out := make([]edit, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}

// diffBlobs describes how newB differs from oldB, with name for the diff headers.
func diffBlobs(name string, oldB, newB []byte) Changes {
	var c Changes
	a, b := splitLines(oldB), splitLines(newB)
	script, ok := lineDiff(a, b)
	if !ok {
		// Too many edits to compute here: count what can be counted cheaply.
		c.Removed, c.Added = len(a), len(b)
		c.Reason = fmt.Sprintf("more than %d lines differ: no diff shown", maxEdits)
		return c
	}
	for _, e := range script {
		switch e.op {
		case '-':
			c.Removed++
		case '+':
			c.Added++
		}
	}
	var buf bytes.Buffer
	q := QuotePath(name)
	if strings.HasPrefix(q, `"`) {
		fmt.Fprintf(&buf, "--- \"a/%s\n+++ \"b/%s\n", q[1:], q[1:])
	} else {
		fmt.Fprintf(&buf, "--- a/%s\n+++ b/%s\n", q, q)
	}
	writeHunks(&buf, script)
	c.Diff = buf.String()
	if len(c.Diff) > maxDiffBytes {
		cut := strings.LastIndexByte(c.Diff[:maxDiffBytes], '\n') + 1
		c.Diff, c.Truncated = c.Diff[:cut], true
	}
	return c
}

// writeHunks writes the script as unified-diff hunks with diffContext lines of context.
func writeHunks(buf *bytes.Buffer, script []edit) {
	i := 0
	aLine, bLine := 1, 1 // line numbers at script[i]
	for i < len(script) {
		// Find the next change.
		j := i
		for j < len(script) && script[j].op == ' ' {
			j++
		}
		if j == len(script) {
			return
		}
		// Move i to the start of the hunk (context before the change).
		for ; i < j-diffContext; i++ {
			aLine++
			bLine++
		}
		start := i
		aStart, bStart := aLine, bLine
		// Extend the hunk while changes are within 2*context of each other.
		end := j
		for k := j; k < len(script); k++ {
			if script[k].op != ' ' {
				end = k + 1
				continue
			}
			if k-end >= 2*diffContext {
				break
			}
		}
		stop := end + diffContext
		if stop > len(script) {
			stop = len(script)
		}
		var aN, bN int
		var body bytes.Buffer
		for k := start; k < stop; k++ {
			e := script[k]
			switch e.op {
			case ' ':
				aN++
				bN++
			case '-':
				aN++
			case '+':
				bN++
			}
			body.WriteByte(e.op)
			body.WriteString(e.line)
			if !strings.HasSuffix(e.line, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
		}
		fmt.Fprintf(buf, "@@ -%s +%s @@\n", hunkRange(aStart, aN), hunkRange(bStart, bN))
		buf.Write(body.Bytes())
		aLine += aN
		bLine += bN
		i = stop
	}
}

func hunkRange(start, n int) string {
	if n == 0 {
		start--
	}
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
