package properties_test

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// referenceImports returns the packages under reference/ that the package in dir imports
// directly, in its code or its tests.
func referenceImports(t *testing.T, dir string) []string {
	t.Helper()
	pkg, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, list := range [][]string{pkg.Imports, pkg.TestImports, pkg.XTestImports} {
		for _, im := range list {
			if strings.HasPrefix(im, "github.com/sessionref-kit/sessionref-kit/reference/") {
				out = append(out, im)
			}
		}
	}
	return out
}

// TestImportsNoReference: the properties, code and tests, reach the contract only through
// the oracle they are given (issue 14's import rule); the embedded reference is the
// wiring's, conformance/refadapter's, to import.
func TestImportsNoReference(t *testing.T) {
	if got := referenceImports(t, "."); len(got) > 0 {
		t.Errorf("conformance/properties imports %v", got)
	}
	// The scan sees an import of the reference where there is one.
	if got := referenceImports(t, filepath.Join("..", "refadapter")); len(got) == 0 {
		t.Error("the scan finds no reference/ import in conformance/refadapter")
	}
}
