package conformance

import (
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// The report groups results by requirement: every requirement of the spec has a row, and a
// failing check shows up as a failure of the requirements it names.
func TestReportGroupsByRequirement(t *testing.T) {
	t.Parallel()
	r, err := NewRunner(Runner{Parts: []string{PartFixtures}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Coverage()
	if err != nil {
		t.Fatal(err)
	}
	cases := []result.Case{
		{Name: "a", Status: result.Pass, Requirements: []string{"SR-URI-1"}},
		{Name: "b", Status: result.Fail, Requirements: []string{"SR-URI-1", "SR-URI-2"}},
	}
	rows := requirementRows(m, cases)
	if len(rows) != len(m.Requirements) {
		t.Fatalf("%d rows for %d requirements", len(rows), len(m.Requirements))
	}
	for _, row := range rows {
		switch row.ID {
		case "SR-URI-1":
			if row.Pass != 1 || row.Fail != 1 || row.Scenarios == 0 || row.Fixtures == 0 {
				t.Errorf("SR-URI-1 row = %+v", row)
			}
		case "SR-URI-2":
			if row.Pass != 0 || row.Fail != 1 {
				t.Errorf("SR-URI-2 row = %+v", row)
			}
		}
	}
}

// Each part the runner knows is a suite.Part of that name: the reports' part names and the
// parts' own agree.
func TestPartsNameThemselves(t *testing.T) {
	for _, name := range Parts {
		if got := (Runner{}).part(name, 1).Name(); got != name {
			t.Errorf("part %q names itself %q", name, got)
		}
	}
}
