package differential_test

import (
	"os/exec"
	"strings"
	"testing"
)

// referenceImports lists, per package (a directory relative to this one), what its code and
// tests import under reference/.
func referenceImports(t *testing.T, dirs ...string) map[string][]string {
	t.Helper()
	args := append([]string{"list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}`}, dirs...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	got := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		mod, _, _ := strings.Cut(fields[0], "/conformance/")
		got[fields[0]] = nil
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, mod+"/reference/") {
				got[fields[0]] = append(got[fields[0]], imp)
			}
		}
	}
	return got
}

// The generators and diff reach the contract only through the protocol, the kit's own
// statements (contract, wire, protocol.World) and the Semantics the wiring injects: neither
// their code nor their tests import the reference (issue 14's rule; the wiring of the
// embedded default, conformance/refadapter, is the one place that does).
func TestImportsNoReference(t *testing.T) {
	got := referenceImports(t, ".", "../gen")
	if len(got) != 2 {
		t.Fatalf("go list listed %d packages, want 2: %v", len(got), got)
	}
	for pkg, imps := range got {
		if len(imps) > 0 {
			t.Errorf("%s imports %v", pkg, imps)
		}
	}
}

// The scan sees a reference import where there is one: testdata/buggy, a wrong port built
// on the reference, has them.
func TestImportsScanSeesReference(t *testing.T) {
	got := referenceImports(t, "./testdata/buggy")
	if len(got) != 1 {
		t.Fatalf("go list listed %v, want testdata/buggy", got)
	}
	for pkg, imps := range got {
		if len(imps) == 0 {
			t.Errorf("%s: no reference import found", pkg)
		}
	}
}
