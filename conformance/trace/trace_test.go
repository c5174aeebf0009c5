package trace_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// Properties are the runner's registered properties: an id they name must exist too.
var Properties = conformance.TraceProperties()

func TestEveryRequirementCovered(t *testing.T) {
	m, err := trace.Build(spec.FS, features.FS, fixtures.FS, Properties)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Requirements); n < 60 {
		t.Errorf("only %d requirements", n)
	}
	var b strings.Builder
	m.Write(&b)
	t.Log("\n" + b.String())
}

func TestEveryRequirementHasAScenario(t *testing.T) {
	m, err := trace.Build(spec.FS, features.FS, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, r := range m.Requirements {
		if m.Count(r.ID, "scenario") == 0 {
			missing = append(missing, r.ID)
		}
	}
	if len(missing) > 0 {
		t.Logf("requirements without a scenario (covered by fixtures only): %v", missing)
	}
}

func TestCheckReportsGaps(t *testing.T) {
	specFS := fstest.MapFS{trace.SpecFile: {Data: []byte("# x\n\n- **SR-A-1** One.\n- **SR-A-2** Two.\n")}}
	feats := fstest.MapFS{"a.feature": {Data: []byte("@SR-A-1\nFeature: a\n\n  @SR-B-9\n  Scenario: s\n    Given x\n")}}
	props := []trace.Property{{Name: "p", Requirements: []string{"SR-A-1"}}}
	err := trace.Check(specFS, feats, nil, props)
	if err == nil {
		t.Fatal("Check passed with an uncovered requirement and an unknown tag")
	}
	for _, want := range []string{"SR-A-2 is covered by no", "unknown requirement SR-B-9"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	props = append(props, trace.Property{Name: "q", Requirements: []string{"SR-A-2"}})
	feats["a.feature"] = &fstest.MapFile{Data: []byte("@SR-A-1\nFeature: a\n\n  Scenario: s\n    Given x\n")}
	if err := trace.Check(specFS, feats, nil, props); err != nil {
		t.Errorf("Check: %v", err)
	}
}

func TestScenarioTags(t *testing.T) {
	fsys := fstest.MapFS{"f.feature": {Data: []byte(`@SR-X-1 @area
Feature: f

  @SR-X-2 @profile-0.0.1
  Scenario: one
    Given x

  Scenario Outline: two
    Given <a>

    @SR-X-3
    Examples:
      | a |
      | b |
`)}}
	got, err := trace.ScenarioTags(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := "f.feature: one [SR-X-1 SR-X-2]; f.feature: two [SR-X-1 SR-X-3]"
	var parts []string
	for _, s := range got {
		parts = append(parts, s.Name+" ["+strings.Join(s.Requirements, " ")+"]")
	}
	if g := strings.Join(parts, "; "); g != want {
		t.Errorf("got %s\nwant %s", g, want)
	}
}
