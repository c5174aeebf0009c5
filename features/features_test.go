package features_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/features"
)

// Every feature file has a Feature and scenarios, and every scenario names a requirement.
func TestFeatures(t *testing.T) {
	names, err := fs.Glob(features.FS, "*.feature")
	if err != nil || len(names) < 10 {
		t.Fatalf("features: %v %v", names, err)
	}
	for _, n := range names {
		data, _ := fs.ReadFile(features.FS, n)
		if !strings.Contains(string(data), "\nFeature: ") && !strings.HasPrefix(string(data), "Feature: ") {
			t.Errorf("%s has no Feature", n)
		}
	}
	scen, err := trace.ScenarioTags(features.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scen {
		if len(s.Requirements) == 0 {
			t.Errorf("%s is tagged with no requirement", s.Name)
		}
	}
}
