package trace_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// Properties are the runner's registered properties, as conformance.TraceProperties gives
// them (that package is not imported: it would link godog into this test for one list): an id
// they name must exist too.
var Properties = func() []trace.Property {
	var out []trace.Property
	for _, p := range properties.All() {
		out = append(out, trace.Property{Name: p.Name, Requirements: p.Requirements})
	}
	return out
}()

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

// TestEveryTrapCaught: every trap of spec/porting-traps.md is named by a fixture case or a
// scenario, and every trap a check names is in the catalogue.
func TestEveryTrapCaught(t *testing.T) {
	m, err := trace.BuildTraps(spec.FS, features.FS, fixtures.FS)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Traps); n < 30 {
		t.Errorf("only %d traps in the catalogue", n)
	}
	for _, tr := range m.Traps {
		t.Logf("%-36s %4d checks", tr.ID, len(m.Covered[tr.ID]))
	}
}

func TestTrapCatalogueRejectsBadEntries(t *testing.T) {
	base, err := spec.FS.Open(trace.SpecFile)
	if err != nil {
		t.Fatal(err)
	}
	base.Close()
	reqs, _ := fs.ReadFile(spec.FS, trace.SpecFile)
	for name, doc := range map[string]string{
		"unknown requirement": "## TRAP-X-Y: t\n\nThreatens: SR-NOPE-1\nHint: looks like x\n",
		"no hint":             "## TRAP-X-Y: t\n\nThreatens: SR-STR-1\n",
		"twice":               "## TRAP-X-Y: t\n\nThreatens: SR-STR-1\nHint: h\n## TRAP-X-Y: u\n\nThreatens: SR-STR-1\nHint: h\n",
		"empty":               "# nothing\n",
	} {
		fsys := fstest.MapFS{trace.SpecFile: {Data: reqs}, trace.TrapsFile: {Data: []byte(doc)}}
		if _, err := trace.Traps(fsys); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	fsys := fstest.MapFS{trace.SpecFile: {Data: reqs}, trace.TrapsFile: {Data: []byte("## TRAP-X-Y: t\n\nThreatens: SR-STR-1, SR-STR-2\nHint: looks like x\n")}}
	traps, err := trace.Traps(fsys)
	if err != nil || len(traps) != 1 || traps[0].Hint != "looks like x" || len(traps[0].Threatens) != 2 {
		t.Errorf("Traps = %+v, %v", traps, err)
	}
}
