package conformance_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// An adapter that logs to stdout after each hello (so again after every restart) is named
// once as a protocol break caused by stray stdout, with the rule and the line escaped, is
// restarted at most adapter.MaxStrayLines times (it was restarted for every check: 78 times
// in the run that prompted it), and no check's message blames the op that read the line.
func TestStrayStdoutIsNamed(t *testing.T) {
	t.Parallel()
	r := conformance.Runner{Command: []string{fakeAdapter, "-mode", "stdout-log"}, Checks: 2, Seed: 1,
		Parts: []string{conformance.PartFixtures, conformance.PartProperties}}
	rep := mustRunner(t, r).Run(context.Background())
	if rep.Verdict.Code != report.ExitUnusable || !strings.Contains(rep.Unusable, "stray stdout") || !strings.Contains(rep.Unusable, adapter.StdoutRule) {
		t.Errorf("verdict %d, unusable %q: want exit 3 naming stray stdout and %q", rep.Verdict.Code, rep.Unusable, adapter.StdoutRule)
	}
	if !strings.Contains(rep.Unusable, `\x1b[2J`) {
		t.Errorf("the stray line is not quoted escaped: %q", rep.Unusable)
	}
	if rep.Restarts > adapter.MaxStrayLines {
		t.Errorf("%d restarts, want at most %d", rep.Restarts, adapter.MaxStrayLines)
	}
	for _, c := range rep.Cases {
		if c.Status == result.Error && strings.HasPrefix(c.Message, "adapter uri.") && !strings.Contains(c.Message, "not sent") {
			t.Errorf("%s: the stray line is blamed on an op: %s", c.Name, c.Message)
		}
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(text.Bytes(), []byte("\x1b")) {
		t.Error("the text report carries a raw ESC")
	}
}

// One stray line mid-run costs the check that read it, named as stray stdout; the adapter
// is restarted once and the run goes on.
func TestStrayStdoutOnceMidRun(t *testing.T) {
	t.Parallel()
	mark := filepath.Join(t.TempDir(), "strayed")
	r := conformance.Runner{Command: []string{fakeAdapter, "-mode", "stdout-once", "-op", "uri.decode", "-ready", mark}, Checks: 2, Seed: 1,
		Tags: "@uri", Parts: []string{conformance.PartFixtures}}
	rep := mustRunner(t, r).Run(context.Background())
	var stray []string
	for _, c := range rep.Cases {
		if c.Status == result.Error {
			stray = append(stray, c.Message)
		}
	}
	if len(stray) != 1 || !strings.HasPrefix(stray[0], "adapter: wrote a line to stdout that is not a protocol line: \"fakeadapter: handling uri.decode\"") || !strings.Contains(stray[0], adapter.StdoutRule) {
		t.Errorf("errors %q: want one naming the stray line and the rule", stray)
	}
	if rep.Restarts != 1 || rep.Unusable != "" {
		t.Errorf("%d restarts, unusable %q: want 1 restart and the run to go on", rep.Restarts, rep.Unusable)
	}
}

// An adapter that crashes mid-run: the check's message ends with the last line of its
// stderr, escaped.
func TestCrashShowsStderr(t *testing.T) {
	t.Parallel()
	r := conformance.Runner{Command: []string{fakeAdapter, "-mode", "crash", "-op", "uri.decode"}, Checks: 2, Seed: 1,
		Tags: "@uri", Parts: []string{conformance.PartFixtures}}
	rep := mustRunner(t, r).Run(context.Background())
	found := false
	for _, c := range rep.Cases {
		if c.Status == result.Error && strings.Contains(c.Message, `its stderr ends: "fakeadapter: crashing on uri.decode"`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no error names the adapter's stderr; verdict %q", rep.Verdict.Summary)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "adapter stderr: fakeadapter: crashing on uri.decode") {
		t.Errorf("the warnings do not end with the adapter's stderr: %q", rep.Warnings)
	}
}

// A number no double holds (1e400) is shown as received, not as the null JSON writes for
// the Infinity it reads as; and the report's first difference says so too.
func TestHugeNumberShownAsReceived(t *testing.T) {
	t.Parallel()
	r := conformance.Runner{Command: []string{fakeAdapter, "-mode", "huge-number", "-op", "uri.encode"}, Checks: 2, Seed: 1,
		Match: "^fixtures/uri-encode/ascii-id$", Parts: []string{conformance.PartFixtures}}
	rep := mustRunner(t, r).Run(context.Background())
	if len(rep.Cases) != 1 || rep.Cases[0].Status != result.Fail {
		t.Fatalf("cases %+v", rep.Cases)
	}
	c := rep.Cases[0]
	if !strings.Contains(c.Got.String(), `"result":1e400`) {
		t.Errorf("got %s: want the 1e400 received", c.Got)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "got 1e400") {
		t.Errorf("the first difference does not show 1e400:\n%s", text.String())
	}
}
