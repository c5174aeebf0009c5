package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/internal/gittest"
)

// TestMain lets a test start this binary as the command itself (VTP_RUN_MAIN=1),
// for the one case that needs another process: running as an unprivileged user.
func TestMain(m *testing.M) {
	if os.Getenv("VTP_RUN_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	gittest.Cleanup()
	os.Exit(code)
}

// newRepo makes a git repository ("" format: git's default; "sha256"; or "none" for
// a plain folder outside git) and returns its symlink-free root. The repository is
// a copy of one git made once per format (see package gittest).
func newRepo(t testing.TB, format string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if format != "none" {
		gittest.Init(t, dir, format)
	}
	return dir
}

// copyRepo copies the repository (or folder) at src into a new folder of t's and
// returns its symlink-free root: subtests that start from one state each get their
// own copy of it, made once by the parent.
func copyRepo(t testing.TB, src string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gittest.Copy(t, dir, src)
	return dir
}

func gitCmd(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// hashObject is what git says the blob hash of a file is.
func hashObject(t testing.TB, root, rel string) string {
	t.Helper()
	return hashObjects(t, root, rel)[0]
}

// hashObjects is what git says the blob hashes of files are, in order: one
// `git hash-object -- rel...`, which hashes each path with its own attributes, as
// one `git hash-object -- rel` per path would.
func hashObjects(t testing.TB, root string, rels ...string) []string {
	t.Helper()
	out := gitCmd(t, root, append([]string{"hash-object", "--"}, rels...)...)
	hashes := strings.Split(out, "\n")
	if len(hashes) != len(rels) {
		t.Fatalf("git hash-object -- %q: %d lines for %d paths:\n%s", rels, len(hashes), len(rels), out)
	}
	return hashes
}

func put(t testing.TB, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func get(t testing.TB, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type result struct {
	code           int
	stdout, stderr string
}

// cli runs the command in dir (through -C, so tests need not change directory).
func cli(dir string, args ...string) result {
	var out, errOut bytes.Buffer
	code := run(append([]string{"-C", dir}, args...), strings.NewReader(""), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// record writes a record for the pair from the hashes git computes, and returns
// those hashes in the order of names.
func record(t testing.TB, root, folder string, names ...string) []string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# test record\n")
	rels := make([]string, len(names))
	for i, n := range names {
		rels[i] = filepath.ToSlash(filepath.Join(folder, n))
	}
	hashes := hashObjects(t, root, rels...)
	for i, h := range hashes {
		b.WriteString(names[i] + ": " + h + "\n")
	}
	put(t, root, filepath.ToSlash(filepath.Join(folder, "README.i18n.yaml")), b.String())
	return hashes
}

const seedDir = "../../../shared/seed/dsh-session-reference-0.0.1-rc.1"

// copySeed copies the seed package's README pair and record into root/folder.
func copySeed(t testing.TB, root, folder string) {
	t.Helper()
	src := seedDir
	if _, err := os.Stat(src); err != nil {
		src = os.Getenv("SESSIONREF_SEED_DIR") // a checkout without shared/ beside it names the seed folder
		if _, err := os.Stat(src); err != nil {
			t.Skip("shared/seed is not beside this checkout")
		}
	}
	for _, n := range []string{"README.md", "README.zh.md", "README.i18n.yaml"} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		put(t, root, filepath.ToSlash(filepath.Join(folder, n)), string(b))
	}
}
