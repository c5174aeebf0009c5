package trace_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sessionref-kit/sessionref-kit/conformance/specexamples"
	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

var update = flag.Bool("update", false, "rewrite the check lists of spec/session-reference.md")

// TestSpecChecks: the check list under each requirement of the spec is the one the features,
// fixtures, properties and examples make now. After adding or renaming checks, regenerate
// with: go test ./conformance/trace -run TestSpecChecks -update (or go generate ./spec).
func TestSpecChecks(t *testing.T) {
	file := filepath.Join("..", "..", "spec", trace.SpecFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m, err := trace.Build(fstest.MapFS{trace.SpecFile: {Data: data}}, features.FS, fixtures.FS, Properties)
	if err != nil {
		t.Fatal(err)
	}
	// Examples are read from the files on disk and named by number, which the check lists
	// themselves do not shift (line numbers would).
	names := map[string][]string{}
	for _, name := range specexamples.Files {
		text, err := os.ReadFile(filepath.Join("..", "..", "spec", name))
		if err != nil {
			t.Fatal(err)
		}
		ex, err := specexamples.Parse(name, text)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ex {
			if e.Requirement != "" {
				names[e.Requirement] = append(names[e.Requirement], fmt.Sprintf("%s example %d", e.File, e.N))
			}
		}
	}
	got := trace.Annotate(data, m, names)
	if bytes.Equal(got, data) {
		return
	}
	if *update {
		tmp := file + ".tmp"
		if err := os.WriteFile(tmp, got, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", file)
		return
	}
	t.Errorf("the check lists of spec/%s are stale; regenerate with\n\tgo test ./conformance/trace -run TestSpecChecks -update", trace.SpecFile)
}

func TestAnnotate(t *testing.T) {
	specText := "# x\n\n- **SR-A-1** One.\n\n  ```example op=config\n  {}\n  → {\"result\": 1}\n  ```\n- **SR-A-2** Two.\n\nText.\n"
	specFS := fstest.MapFS{trace.SpecFile: {Data: []byte(specText)}}
	props := []trace.Property{{Name: "p", Requirements: []string{"SR-A-1"}}}
	m, err := trace.Build(specFS, nil, nil, props)
	if err != nil {
		t.Fatal(err)
	}
	once := trace.Annotate([]byte(specText), m, map[string][]string{"SR-A-1": {"x.md:5 (example 1)"}})
	twice := trace.Annotate(once, m, map[string][]string{"SR-A-1": {"x.md:5 (example 1)"}})
	if !bytes.Equal(once, twice) {
		t.Errorf("Annotate is not idempotent:\n%s\n---\n%s", once, twice)
	}
	s := string(once)
	for _, want := range []string{"Checks: 1 property, 1 example", "Property: `p`", "Checks: none.", "  ```\n\n  <!-- checks SR-A-1", "<!-- end checks -->\n\n- **SR-A-2**", "<!-- end checks -->\n\nText.\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("annotated text lacks %q:\n%s", want, s)
		}
	}
	if _, err := trace.Requirements(fstest.MapFS{trace.SpecFile: {Data: once}}); err != nil {
		t.Error(err)
	}
}
