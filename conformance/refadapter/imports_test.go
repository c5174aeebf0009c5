package refadapter_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The reference is a library that knows nothing of the harness, and the harness reaches it
// only through the wiring of the embedded default: no package under conformance/, cmd/ or
// internal/ (the kit's own helpers, the test adapters among them) imports a package under
// reference/, in its code or in its tests, except these. The paths are relative to the module.
var mayImportReference = map[string]string{
	"conformance/refadapter":       "the wiring of the embedded reference",
	"conformance/internal/refport": "the reference written as a Go port",
	"conformance/mutants":          "wrong ports built on the reference",
	"internal/testadapters/buggy":  "a wrong port built on the reference, for the differential tests",
}

// notYet: being converted in this change; the integrator removes them. The test fails once
// one of them imports nothing under reference/ any more, so the entry cannot outlive the
// conversion.
var notYet = map[string]string{}

// listed is the part of `go list -json` the test reads.
type listed struct {
	ImportPath   string
	Module       *struct{ Path string }
	Imports      []string
	TestImports  []string
	XTestImports []string
	Error        *struct{ Err string }
}

// modulePackages lists every package of the module with one go list.
func modulePackages(t *testing.T) (module string, pkgs []listed) {
	t.Helper()
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Module,Imports,TestImports,XTestImports,Error", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v\n%s", err, stderr.Bytes())
	}
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			t.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		if p.Module == nil {
			t.Fatalf("%s: not in a module", p.ImportPath)
		}
		module = p.Module.Path
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list ./... listed no package")
	}
	return module, pkgs
}

func TestHarnessImportsNoReference(t *testing.T) {
	module, pkgs := modulePackages(t)
	under := func(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }
	seen := map[string]bool{}
	checked := 0
	for _, p := range pkgs {
		rel := strings.TrimPrefix(p.ImportPath, module+"/")
		if !under(rel, "conformance") && !under(rel, "cmd") && !under(rel, "internal") {
			continue
		}
		var found []string
		for kind, imports := range map[string][]string{"imports": p.Imports, "test imports": p.TestImports, "xtest imports": p.XTestImports} {
			for _, im := range imports {
				if under(im, module+"/reference") {
					found = append(found, strings.TrimPrefix(im, module+"/")+" ("+kind+")")
				}
			}
		}
		slices.Sort(found)
		seen[rel] = len(found) > 0
		t.Run(rel, func(t *testing.T) {
			switch _, allowed := mayImportReference[rel]; {
			case allowed:
			case notYet[rel] != "":
				if len(found) == 0 {
					t.Errorf("imports nothing under reference/ any more: remove it from notYet")
				}
			case len(found) > 0:
				t.Errorf("imports the reference: %s; reach it through conformance/refadapter "+
					"(the oracle as a protocol Handler) or state what you need in conformance/contract",
					strings.Join(found, ", "))
			}
		})
		checked++
	}
	// The scan can fail: it sees the wiring import the reference.
	if !seen["conformance/refadapter"] {
		t.Errorf("the scan did not see conformance/refadapter import reference/ (%d packages checked)", checked)
	}
	for rel := range notYet {
		if _, ok := seen[rel]; !ok {
			t.Errorf("%s is in notYet but go list ./... does not list it", rel)
		}
	}
}
