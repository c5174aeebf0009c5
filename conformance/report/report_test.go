package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func sample(statuses ...result.Status) *report.Report {
	r := &report.Report{Kit: "0.1.0", Spec: "0.0.1-rc.1", Adapter: "x"}
	for i, s := range statuses {
		r.Cases = append(r.Cases, result.Case{Part: "properties", Area: "uri", Name: string(s) + string(rune('a'+i)), Status: s,
			Message: "m\x00\xff<&>", Input: result.JSONOf(wire.NewObject().Set("id", 1.0)), Want: result.JSONOf("a"), Got: result.JSONOf("b"), Diff: compare.ExplainValues("a", "b")})
	}
	r.Parts = []report.Part{{Name: "properties", Counts: report.CountCases(r.Cases)}}
	r.Finish()
	return r
}

func TestVerdict(t *testing.T) {
	for _, tt := range []struct {
		st   []result.Status
		code int
	}{
		{[]result.Status{result.Pass, result.NotCovered, result.FixtureBug}, report.ExitIncomplete},
		{[]result.Status{result.Pass, result.NotCovered}, report.ExitConformant},
		{[]result.Status{result.Pass, result.Fail, result.Error}, report.ExitNotConformant},
		{[]result.Status{result.Pass, result.Error}, report.ExitUnusable},
		{[]result.Status{result.NotCovered}, report.ExitNotConformant},
		{[]result.Status{result.FixtureBug}, report.ExitIncomplete},
		{nil, report.ExitUsage},
	} {
		if got := sample(tt.st...).Verdict; got.Code != tt.code {
			t.Errorf("%v: verdict %+v, want %d", tt.st, got, tt.code)
		}
	}
	r := sample(result.Pass)
	r.Unusable = "did not start"
	r.Finish()
	if r.Verdict.Code != report.ExitUnusable || !strings.Contains(r.Verdict.Summary, "did not start") {
		t.Errorf("unusable: %+v", r.Verdict)
	}
}

func TestFormats(t *testing.T) {
	r := sample(result.Pass, result.Fail, result.Error, result.NotCovered, result.FixtureBug)
	var j, x, m, txt bytes.Buffer
	if err := r.WriteJSON(&j); err != nil || !json.Valid(j.Bytes()) {
		t.Errorf("json: %v", err)
	}
	if err := r.WriteJUnit(&x); err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Skipped  int `xml:"skipped,attr"`
	}
	if err := xml.Unmarshal(x.Bytes(), &suites); err != nil {
		t.Fatalf("junit does not parse: %v\n%s", err, x.String())
	}
	if suites.Tests != 5 || suites.Failures != 1 || suites.Errors != 2 || suites.Skipped != 1 {
		t.Errorf("junit counts %+v", suites)
	}
	if err := r.WriteMarkdown(&m); err != nil || !strings.Contains(m.String(), "| properties | 5 | 1 | 1 | 1 | 1 | 1 |") {
		t.Errorf("markdown: %v\n%s", err, m.String())
	}
	if err := r.WriteText(&txt); err != nil || !strings.Contains(txt.String(), "first difference: $: want \"a\", got \"b\"\n  diff (- want, + got):\n    - \"a\"\n    + \"b\"\n") || !strings.Contains(txt.String(), "(exit 1)") {
		t.Errorf("text: %v\n%s", err, txt.String())
	}
	if !bytes.Equal(bytes.ToValidUTF8(txt.Bytes(), nil), txt.Bytes()) {
		t.Error("text report is not valid UTF-8")
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := report.WriteFile(path, func(w io.Writer) error { w.Write([]byte("partial")); return os.ErrInvalid })
	if err == nil {
		t.Fatal("no error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("a failed write replaced the file: %q", b)
	}
	if err := report.WriteFile(path, sample(result.Pass).WriteJSON); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// A partial certification says so, and fails under RequireAll.
func TestVerdictPartial(t *testing.T) {
	r := sample(result.Pass, result.NotCovered)
	if r.Verdict.Code != report.ExitConformant || !strings.HasPrefix(r.Verdict.Summary, "partial:") {
		t.Errorf("partial run: %+v", r.Verdict)
	}
	var b strings.Builder
	r.WriteText(&b)
	if !strings.Contains(b.String(), "\nPARTIAL in ") {
		t.Errorf("text report does not say PARTIAL:\n%s", b.String())
	}
	r.RequireAll = true
	r.Finish()
	if r.Verdict.Code != report.ExitNotConformant {
		t.Errorf("partial run with RequireAll: %+v", r.Verdict)
	}
	if r = sample(result.Pass); r.Verdict.Summary != "conformant: 1 check passed" {
		t.Errorf("full run: %+v", r.Verdict)
	}
}
