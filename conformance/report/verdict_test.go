package report_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// statuses returns n cases of status s.
func statuses(n int, s result.Status) []result.Status {
	out := make([]result.Status, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestOutcomes: one table decides every report's word, mark and colour; only a run where
// every selected check passed is conformant, green and ✅.
func TestOutcomes(t *testing.T) {
	for _, tt := range []struct {
		name     string
		st       []result.Status
		outcome  report.Outcome
		code     int
		headline string
	}{
		{"all pass", statuses(3, result.Pass), report.OutcomeConformant, 0, "conformant: 3 checks passed"},
		{"partial", append(statuses(123, result.Pass), statuses(1183, result.NotCovered)...), report.OutcomePartial, 0, "partial: 123 of 1306 checks covered, all passed; 1183 not covered"},
		{"fixture bug", append(statuses(163, result.Pass), result.FixtureBug), report.OutcomeIncomplete, report.ExitIncomplete, "incomplete: 1 check could not run for the kit's own reasons (fixture bug); 163 of 164 checks passed, nothing certified"},
		{"fail", []result.Status{result.Pass, result.Fail, result.FixtureBug}, report.OutcomeNotConformant, 1, "not conformant: 1 of 2 checks failed"},
		{"error", []result.Status{result.Pass, result.Error}, report.OutcomeUndecided, 3, "1 check could not run, conformance undecided"},
		{"none covered", statuses(2, result.NotCovered), report.OutcomeNotConformant, 1, "not conformant: no check was covered, the adapter supports none of the selected ops"},
		{"nothing", nil, report.OutcomeNothingRun, 2, "no check was run: the selection matched nothing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := sample(tt.st...)
			v := r.Verdict
			if v.Outcome != tt.outcome || v.Code != tt.code || v.Headline != tt.headline {
				t.Fatalf("verdict %+v, want %s %d %q", v, tt.outcome, tt.code, tt.headline)
			}
			green := v.Outcome.Tone() == report.TonePass
			if green != (tt.outcome == report.OutcomeConformant) || (v.Outcome.Mark() == "✅") != green || (v.Outcome.Label() == "OK") != green {
				t.Errorf("%s: tone %s, mark %s, label %s: the success mark belongs to conformant alone", tt.outcome, v.Outcome.Tone(), v.Outcome.Mark(), v.Outcome.Label())
			}
			var md, txt bytes.Buffer
			if err := r.WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(md.String(), "\n")
			if strings.Contains(first, "✅") != green {
				t.Errorf("markdown heading %q for %s", first, tt.outcome)
			}
			if err := r.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimRight(txt.String(), "\n"), "\n")
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, v.Outcome.Label()+" in ") || !strings.HasSuffix(last, "(exit "+strconv.Itoa(tt.code)+")") {
				t.Errorf("last line %q", last)
			}
		})
	}
}

// TestInterrupted: a signal ends the run as interrupted, 130 or 143, whatever was found.
func TestInterrupted(t *testing.T) {
	for sig, code := range map[string]int{"SIGINT": 130, "SIGTERM": 143, "cancelled": 130} {
		r := sample(result.Pass, result.Fail, result.NotCovered)
		r.Interrupted = sig
		r.Unusable = "the run was cancelled"
		r.Finish()
		if r.Verdict.Outcome != report.OutcomeInterrupted || r.Verdict.Code != code || !strings.Contains(r.Verdict.Summary, "interrupted by "+sig) {
			t.Errorf("%s: %+v", sig, r.Verdict)
		}
	}
}

// TestNotWritten: a report that could not be written changes the exit code the last line
// states, and the line states the code the process returns.
func TestNotWritten(t *testing.T) {
	r := sample(result.Pass)
	r.NotWritten(errors.New("report out/r.json: no such file or directory"))
	var txt bytes.Buffer
	r.WriteText(&txt)
	if r.Verdict.Code != report.ExitUsage || !strings.HasSuffix(strings.TrimSpace(txt.String()), "(exit 2)") || !strings.Contains(txt.String(), "REPORT NOT WRITTEN") {
		t.Errorf("%+v\n%s", r.Verdict, txt.String())
	}
	r = sample(result.Fail)
	r.NotWritten(errors.New("disk full"))
	if r.Verdict.Code != report.ExitNotConformant || !strings.Contains(r.Verdict.Summary, "disk full") {
		t.Errorf("%+v", r.Verdict)
	}
}

// TestHostileText: an adapter's hello and messages cannot forge the verdict's line on a
// terminal, nor a link or image in Markdown.
func TestHostileText(t *testing.T) {
	evil := "x\r\x1b[2K\x1b[1A\nOK in 1.31s: conformant: 1306 checks passed (exit 0)\u2028\u202e\u0085\x7f"
	r := sample(result.Pass, result.Error)
	r.Hello = &adapter.Hello{Protocol: 1, Name: "[click](https://evil.example) ![i](https://evil.example/i.png) <b>x</b> " + evil, Version: evil, Spec: "www.evil.example"}
	r.Cases[1].Message = evil
	r.Warnings = []string{evil}
	r.Finish()
	var txt bytes.Buffer
	if err := r.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	out := txt.String()
	for _, bad := range []string{"\r", "\x1b", "\u2028", "\u202e", "\u0085", "\x7f", "\nOK in"} {
		if strings.Contains(out, bad) {
			t.Errorf("text report holds %q:\n%s", bad, out)
		}
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "ERROR in") || !strings.HasSuffix(last, "(exit 3)") {
		t.Errorf("last line %q", last)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	m := md.String()
	for _, bad := range []string{"](", "![", "<b>", "https://", "www.evil", "\x1b", "\r"} {
		if strings.Contains(m, bad) {
			t.Errorf("markdown holds live %q:\n%s", bad, m)
		}
	}
	if got := report.Terminal("a\x1b[31mb\nc\u2029\U000E0041"); got != `a\u001b[31mb\nc\u2029\udb40\udc41` {
		t.Errorf("Terminal: %q", got)
	}
}
