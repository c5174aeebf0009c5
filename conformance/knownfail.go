package conformance

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// KnownFailure is one entry of a known-failures file (--skip-file): the checks a port knows
// it fails, and why.
type KnownFailure struct {
	// Pattern names checks as the report does ("fixtures/prepare/self-reference"): an exact
	// name, or a pattern where "*" stands for any run of characters ("fixtures/prepare/*").
	Pattern string
	// Reason says why the port fails them; it is required.
	Reason string
	// Source is where the entry was read, "FILE:LINE".
	Source string
}

// Matches reports whether the check named part/name is one of k's.
func (k KnownFailure) Matches(part, name string) bool { return globMatch(k.Pattern, part+"/"+name) }

// globMatch matches s against a pattern where "*" matches any run of characters and every
// other character only itself: check names hold "(", "?" and "." as plain text.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

// ParseKnownFailures reads a known-failures file: one entry a line, "CHECK  # reason", where
// CHECK is a check's name as the report and `conformance-runner list` print it, or a pattern
// with "*". Blank lines and lines starting with "#" are comments. name is used in Source and
// in errors, which are *UsageError.
func ParseKnownFailures(r io.Reader, name string) ([]KnownFailure, error) {
	var out []KnownFailure
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		src := fmt.Sprintf("%s:%d", name, n)
		i := strings.Index(line, " #")
		if j := strings.Index(line, "\t#"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 || strings.TrimSpace(line[i+2:]) == "" {
			return nil, usagef("%s: %q has no reason: write the check, then \"  # why it fails\"", src, trimmed)
		}
		out = append(out, KnownFailure{Pattern: strings.TrimSpace(line[:i]), Reason: strings.TrimSpace(line[i+2:]), Source: src})
	}
	if err := sc.Err(); err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	return out, nil
}

// KnownFailureMessage starts the message of a known failure that failed again.
const KnownFailureMessage = "known failure"

// runState is what one run learns as it goes: failures so far (for MaxFail) and which known
// failures matched which outcomes.
type runState struct {
	r *Runner

	mu    sync.Mutex
	fails int
	// seen[i] counts the outcomes of the checks KnownFailures[i] matched.
	seen []map[result.Status]int
}

func newRunState(r *Runner) *runState {
	return &runState{r: r, seen: make([]map[result.Status]int, len(r.KnownFailures))}
}

// stopped reports whether MaxFail failures have been seen: the remaining checks do not run.
func (st *runState) stopped() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.r.MaxFail > 0 && st.fails >= st.r.MaxFail
}

// maxFailMessage is the message of a check that --max-fail kept from running.
// stopReason is the runner's suite.Selection.Stop: why no further check runs, or "".
func (st *runState) stopReason() string {
	if st.stopped() {
		return st.maxFailMessage()
	}
	return ""
}

func (st *runState) maxFailMessage() string {
	return fmt.Sprintf("not run: --max-fail %d reached", st.r.MaxFail)
}

// classify turns a raw case into the reported one: a known failure that failed is not
// covered, with its reason. It is a pure function of the case, applied to progress and
// results alike.
func (st *runState) classify(c result.Case) result.Case {
	if c.Status == result.Fail {
		if k, ok := st.knownFor(c); ok {
			c.Status = result.NotCovered
			c.Message = fmt.Sprintf("%s (%s): %s", KnownFailureMessage, k.Source, k.Reason)
		}
	}
	return c
}

// knownFor returns the first known failure matching c.
func (st *runState) knownFor(c result.Case) (KnownFailure, bool) {
	for _, k := range st.r.KnownFailures {
		if k.Matches(c.Part, c.Name) {
			return k, true
		}
	}
	return KnownFailure{}, false
}

// record notes a raw case's outcome: for MaxFail and for the known failures it matches.
func (st *runState) record(c result.Case) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if c.Status == result.Fail {
		if _, known := st.knownFor(c); !known {
			st.fails++
		}
	}
	for i, k := range st.r.KnownFailures {
		if k.Matches(c.Part, c.Name) {
			if st.seen[i] == nil {
				st.seen[i] = map[result.Status]int{}
			}
			st.seen[i][c.Status]++
		}
	}
}

// fixed returns one line per known failure whose checks now all pass (none failed or
// errored, one passed at least), and one per entry that matched no check.
func (st *runState) fixed() (fixed, unmatched []string) {
	for i, k := range st.r.KnownFailures {
		s := st.seen[i]
		switch {
		case len(s) == 0:
			unmatched = append(unmatched, fmt.Sprintf("known failure %q (%s) matches no check of this run", k.Pattern, k.Source))
		case s[result.Pass] > 0 && s[result.Fail] == 0 && s[result.Error] == 0:
			fixed = append(fixed, fmt.Sprintf("known failure %q (%s) now passes (%s): remove it from the list", k.Pattern, k.Source, checksWord(s[result.Pass])))
		}
	}
	return fixed, unmatched
}

func checksWord(n int) string {
	if n == 1 {
		return "1 check"
	}
	return fmt.Sprintf("%d checks", n)
}

// finish adds what the run learnt about its known failures to rep: a warning per entry that
// matched nothing, and per entry that now passes, which also fails a run that would
// otherwise be conformant (as toml-test's -skip-must-err does), so the list only shrinks.
func (st *runState) finish(rep *report.Report) {
	if len(st.r.KnownFailures) == 0 || rep.Unusable != "" {
		return
	}
	st.mu.Lock()
	fixed, unmatched := st.fixed()
	st.mu.Unlock()
	rep.Warnings = append(rep.Warnings, unmatched...)
	rep.Warnings = append(rep.Warnings, fixed...)
	if len(fixed) > 0 && rep.Verdict.Code == report.ExitConformant {
		h := fmt.Sprintf("%s now %s: remove %s from the known failures", checksWordN(len(fixed), "known failure"), passWord(len(fixed)), themWord(len(fixed)))
		rep.Verdict = report.VerdictSummary{Code: report.ExitNotConformant, Outcome: report.OutcomeNotConformant,
			Headline: h, Summary: h + "; first: " + fixed[0]}
	}
}

func checksWordN(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func passWord(n int) string {
	if n == 1 {
		return "passes"
	}
	return "pass"
}

func themWord(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
