package pairing

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/internal/gittest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	gittest.Cleanup()
	os.Exit(code)
}

// gitRepo makes a real git repository in a temporary folder, with the given object
// format ("" for git's default) and a user to commit as, and returns its root. It is
// a copy of one git made once per format (see package gittest).
func gitRepo(t *testing.T, format ObjectFormat) string {
	t.Helper()
	dir := t.TempDir()
	gittest.Init(t, dir, string(format), "user.email", "t@example.com", "user.name", "t")
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gitWith(t, dir, []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}, args...)
}

// gitWith runs git in dir with env added to this process's environment.
func gitWith(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		out = append(out, ee.Stderr...)
	}
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFile(t *testing.T, path string, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const seedDir = "../../../shared/seed/dsh-session-reference-0.0.1-rc.1"

// seed returns the seed package folder, skipping when this checkout has no shared/.
func seed(t *testing.T) string {
	t.Helper()
	for _, d := range []string{seedDir} {
		if _, err := os.Stat(filepath.Join(d, RecordName)); err == nil {
			return d
		}
	}
	t.Skip("shared/seed is not beside this checkout")
	return ""
}

// copySeed copies the seed's README pair and record into dir.
func copySeed(t *testing.T, dir string) {
	t.Helper()
	src := seed(t)
	for _, n := range []string{BaseName, "README.zh.md", RecordName} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, n), string(b))
	}
}
