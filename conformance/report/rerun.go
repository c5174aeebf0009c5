package report

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// RunnerName is the program a rerun line starts.
const RunnerName = "conformance-runner"

// Rerun is a POSIX shell command line that runs one check again as this run ran it: the same
// adapter command (after "--", so no word is split again) and working directory, the same
// profile, the check alone (--run), and for a property the rapid seed and number of inputs
// that found the failure. A run of the embedded reference has no adapter, as the run had
// none; one of a Go Handler in-process cannot be started from the command line, and its
// line says so (conformancetest prints the go test line instead).
func (r *Report) Rerun(cs result.Case) string {
	return rerunLine(r.Command, r.Dir, r.Spec, r.Adapter, cs.Part, cs.Name, cs.Seed, r.Checks)
}

// Rerun is Report.Rerun for a check of a JSON report.
func (d *Document) Rerun(c DocCase) string {
	return rerunLine(d.Command, d.Dir, d.Spec, d.Adapter, c.Part, c.Name, c.Seed, d.Checks)
}

func rerunLine(command []string, dir, profile, described, part, name string, seed uint64, checks int) string {
	w := []string{RunnerName}
	if dir != "" {
		w = append(w, "--dir", shellQuote(dir))
	}
	if profile != "" {
		w = append(w, "--profile", shellQuote(profile))
	}
	w = append(w, "--run", shellQuote("^"+regexp.QuoteMeta(part+"/"+name)+"$"))
	if seed != 0 {
		w = append(w, "--seed", strconv.FormatUint(seed, 10))
		if checks > 0 {
			w = append(w, "--checks", strconv.Itoa(checks))
		}
	}
	switch {
	case len(command) > 0:
		w = append(w, "--")
		for _, a := range command {
			w = append(w, shellQuote(a))
		}
	case strings.HasSuffix(described, "(in-process)") && !strings.HasPrefix(described, "embedded reference"):
		// A Go Handler: the runner cannot start it; this line would certify the reference.
		return "(an in-process Go implementation: rerun its go test with -run for this check) " + strings.Join(w[1:], " ")
	case described != "" && described != "in-process" && !strings.HasSuffix(described, "(in-process)"):
		// A report written before Command was recorded names the command as one line.
		w = append(w, "--adapter", shellQuote(described))
	}
	return strings.Join(w, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
