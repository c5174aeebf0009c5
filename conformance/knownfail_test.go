package conformance_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

func TestParseKnownFailures(t *testing.T) {
	t.Parallel()
	in := "\uFEFF# known failures\r\n" +
		"fixtures/prepare/self-reference   # not yet\r\n" +
		"\n" +
		"features/A cut never splits a character (141 bytes)\t# UTF-16 counts\n" +
		"fixtures/uri-*/lone-*  #  surrogates  \n"
	got, err := conformance.ParseKnownFailures(strings.NewReader(in), "k.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []conformance.KnownFailure{
		{Pattern: "fixtures/prepare/self-reference", Reason: "not yet", Source: "k.txt:2"},
		{Pattern: "features/A cut never splits a character (141 bytes)", Reason: "UTF-16 counts", Source: "k.txt:4"},
		{Pattern: "fixtures/uri-*/lone-*", Reason: "surrogates", Source: "k.txt:5"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"fixtures/x\n", "fixtures/x #\n", "fixtures/x#no blank before\n", "ok  # fine\nno reason\n"} {
		if _, err := conformance.ParseKnownFailures(strings.NewReader(bad), "b.txt"); !conformance.IsUsage(err) || !strings.Contains(err.Error(), "b.txt:") {
			t.Errorf("ParseKnownFailures(%q) = %v, want a usage error naming the line", bad, err)
		}
	}
}

func TestKnownFailureMatches(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		pattern, part, name string
		want                bool
	}{
		{"fixtures/prepare/self-reference", "fixtures", "prepare/self-reference", true},
		{"fixtures/prepare/self-reference", "fixtures", "prepare/self-reference-2", false},
		{"fixtures/prepare/*", "fixtures", "prepare/self-reference", true},
		{"fixtures/prepare/*", "features", "prepare/x", false},
		{"*/uri.encode/*", "properties", "uri.encode/agrees-with-reference", true},
		{"*/uri.encode/*", "properties", "uriXencode/agrees", false}, // "." is itself
		{"features/Matching (i)*", "features", "Matching (i) twice", true},
		{"features/Matching (i)*", "features", "Matching i twice", false},
		{"a*b*c", "x", "y", false},
		{"*c", "a", "bc", true},
		{"x/a*a", "x", "a", false}, // the prefix and suffix may not overlap
	} {
		if got := (conformance.KnownFailure{Pattern: tt.pattern}).Matches(tt.part, tt.name); got != tt.want {
			t.Errorf("%q matches %s/%s = %v", tt.pattern, tt.part, tt.name, got)
		}
	}
}

// TestKnownFailuresRatchet: a known failure that fails is not covered with its reason; one
// that passes fails an otherwise conformant run.
func TestKnownFailuresRatchet(t *testing.T) {
	t.Parallel()
	known := []conformance.KnownFailure{{Pattern: "fixtures/uri-encode/*", Reason: "bad padding", Source: "k.txt:1"}}
	rep := mustRunner(t, conformance.Runner{Handler: &badPadding{}, Match: "^fixtures/uri-(en|de)code/", KnownFailures: known}).Run(context.Background())
	if rep.Verdict.Code != report.ExitConformant || rep.Totals.Fail != 0 || rep.Totals.NotCovered == 0 || rep.Totals.Pass == 0 {
		t.Fatalf("verdict %+v, totals %+v", rep.Verdict, rep.Totals)
	}
	for _, c := range rep.Cases {
		if c.Status == result.NotCovered && c.Message != "known failure (k.txt:1): bad padding" {
			t.Errorf("%s: %q", c.Name, c.Message)
		}
	}
	// The reference passes them all: the entry is stale.
	rep = mustRunner(t, conformance.Runner{Match: "^fixtures/uri-(en|de)code/", KnownFailures: known}).Run(context.Background())
	if rep.Verdict.Code != report.ExitNotConformant || !strings.Contains(rep.Verdict.Summary, "1 known failure now passes") || rep.Totals.Fail != 0 {
		t.Errorf("stale entry: verdict %+v, totals %+v", rep.Verdict, rep.Totals)
	}
	// An entry matching nothing is only a warning.
	none := []conformance.KnownFailure{{Pattern: "fixtures/none-such", Reason: "r", Source: "k.txt:2"}}
	rep = mustRunner(t, conformance.Runner{Match: "^fixtures/uri-", KnownFailures: none}).Run(context.Background())
	if rep.Verdict.Code != report.ExitConformant || !strings.Contains(strings.Join(rep.Warnings, "\n"), "matches no check") {
		t.Errorf("unmatched entry: verdict %+v, warnings %q", rep.Verdict, rep.Warnings)
	}
}

func TestMaxFail(t *testing.T) {
	t.Parallel()
	all := mustRunner(t, conformance.Runner{Handler: &badPadding{}, Match: "^fixtures/uri-encode/"}).Run(context.Background())
	if all.Totals.Fail < 3 {
		t.Fatalf("%d failures; the test needs 3", all.Totals.Fail)
	}
	rep := mustRunner(t, conformance.Runner{Handler: &badPadding{}, Match: "^fixtures/uri-encode/", MaxFail: 2}).Run(context.Background())
	if rep.Totals.Fail != 2 || rep.Totals.Total != all.Totals.Total || rep.Verdict.Code != report.ExitNotConformant {
		t.Errorf("max-fail 2: totals %+v (all: %+v), verdict %+v", rep.Totals, all.Totals, rep.Verdict)
	}
	var notRun int
	for _, c := range rep.Cases {
		if c.Message == "not run: --max-fail 2 reached" {
			notRun++
		}
	}
	if notRun == 0 || notRun != rep.Totals.NotCovered {
		t.Errorf("%d checks not run, %d not covered", notRun, rep.Totals.NotCovered)
	}
	if _, err := conformance.NewRunner(conformance.Runner{MaxFail: -1}); !conformance.IsUsage(err) {
		t.Errorf("MaxFail -1: %v", err)
	}
}
