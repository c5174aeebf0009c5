package sweep_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEverySweepRunsInCI: each test that calls sweep.Skip or sweep.On is named in .ci/run, so
// that a test go test ./... skips is never a test nothing runs. Found by parsing every test
// file of the module; the check fails if it finds none (the parse would be broken).
func TestEverySweepRunsInCI(t *testing.T) {
	root := filepath.Join("..", "..")
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			if callsSweep(fn.Body) {
				found = append(found, fn.Name.Name)
				if !regexp.MustCompile(`\b` + fn.Name.Name + `\b`).Match(ci) {
					t.Errorf("%s (%s) can be skipped as a sweep, and .ci/run does not name it", fn.Name.Name, filepath.ToSlash(path))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no test calls sweep.Skip or sweep.On: the search is broken")
	}
	t.Logf("%d sweeps, each named in .ci/run: %s", len(found), strings.Join(found, ", "))
}

// callsSweep reports whether body calls sweep.Skip or sweep.On.
func callsSweep(body *ast.BlockStmt) bool {
	calls := false
	ast.Inspect(body, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "sweep" && (sel.Sel.Name == "Skip" || sel.Sel.Name == "On") {
				calls = true
			}
		}
		return !calls
	})
	return calls
}
