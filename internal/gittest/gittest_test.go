package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// Two repositories from one template are each what git made, with its format and
// config, and independent: what a test writes into one, even in place, the other
// and later copies never see.
func TestInit(t *testing.T) {
	a, b := t.TempDir(), filepath.Join(t.TempDir(), "absent")
	Init(t, a, "sha256", "user.name", "t")
	Init(t, b, "sha256", "user.name", "t")
	cmd := exec.Command("git", "-C", b, "rev-parse", "--show-object-format", "--git-dir")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+b)
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "sha256\n.git\n" {
		t.Fatalf("git rev-parse in a copy: %v\n%s", err, out)
	}
	for _, p := range []string{"config", "HEAD"} {
		if err := os.WriteFile(filepath.Join(a, ".git", p), []byte("changed in place\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := t.TempDir()
	Init(t, c, "sha256", "user.name", "t")
	for _, dir := range []string{b, c} {
		config, _ := os.ReadFile(filepath.Join(dir, ".git", "config"))
		head, _ := os.ReadFile(filepath.Join(dir, ".git", "HEAD"))
		if !strings.Contains(string(config), "objectformat = sha256") || !strings.Contains(string(config), "name = t") || !strings.HasPrefix(string(head), "ref: refs/heads/") {
			t.Errorf("%s: config %q, HEAD %q", dir, config, head)
		}
	}
	if _, err := os.Stat(filepath.Join(c, ".git", "hooks", "pre-commit.sample")); err != nil {
		t.Errorf("the sample hooks git init writes are missing: %v", err)
	}
}

// Copy keeps permission bits and symbolic links, and fills a read-only folder.
func TestCopy(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "ro", "sub"), 0o755)
	os.WriteFile(filepath.Join(src, "ro", "sub", "run.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(src, "ro", "object"), []byte("x"), 0o444)
	os.Symlink("ro/object", filepath.Join(src, "link"))
	os.Chmod(filepath.Join(src, "ro"), 0o555)
	t.Cleanup(func() { os.Chmod(filepath.Join(src, "ro"), 0o755) })
	dst := t.TempDir()
	Copy(t, dst, src)
	t.Cleanup(func() { os.Chmod(filepath.Join(dst, "ro"), 0o755) })
	for rel, want := range map[string]os.FileMode{"ro": os.ModeDir | 0o555, "ro/sub/run.sh": 0o755, "ro/object": 0o444, "link": os.ModeSymlink} {
		info, err := os.Lstat(filepath.Join(dst, rel))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if got := info.Mode(); got&^os.ModePerm != want&^os.ModePerm || want&os.ModeSymlink == 0 && got != want {
			t.Errorf("%s: mode %v, want %v", rel, got, want)
		}
	}
	if target, err := os.Readlink(filepath.Join(dst, "link")); err != nil || target != "ro/object" {
		t.Errorf("link: %q %v", target, err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "ro", "sub", "run.sh")); err != nil || string(data) != "#!/bin/sh\n" {
		t.Errorf("run.sh: %q %v", data, err)
	}
}
