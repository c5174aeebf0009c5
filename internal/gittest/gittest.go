// Package gittest gives the tests of the translation-pairing check their git
// repositories at the cost of a file copy: a repository `git init` made once per test
// binary, object format and config, copied into each test's own folder.
//
// Those tests make some hundred repositories per run; each `git init` (and each
// `git config` after it) is a process, and together they were a good part of the
// CPU the tests spend. A copy of a freshly initialized repository is that repository:
// `git init` writes no path of its folder into it. Each test still gets its own
// repository, to change as it likes.
//
// Only test files import it. A package that uses Init calls Cleanup from TestMain,
// after m.Run, to remove the templates.
package gittest

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	mu        sync.Mutex
	root      string // holds the templates; made on first use
	templates = map[string]*template{}
)

type template struct {
	once sync.Once
	dir  string
	err  error
}

// Init makes dir (existing and empty, or absent) a git repository as
// `git init -q [--object-format=format]` followed by `git config key value` for each
// pair of config would: format "" is git's default. git runs the first time only, with
// no system, global or environment config; later calls copy what it made.
func Init(t testing.TB, dir, format string, config ...string) {
	t.Helper()
	if len(config)%2 != 0 {
		t.Fatalf("gittest.Init: config %q is not key, value pairs", config)
	}
	key := format + "\x00" + strings.Join(config, "\x00")
	mu.Lock()
	tm := templates[key]
	if tm == nil {
		tm = &template{}
		templates[key] = tm
	}
	mu.Unlock()
	tm.once.Do(func() { tm.dir, tm.err = build(format, config) })
	if tm.err != nil {
		t.Fatalf("gittest.Init: %v", tm.err)
	}
	if err := copyTree(dir, tm.dir, shared); err != nil {
		t.Fatalf("gittest.Init: %v", err)
	}
}

// shared says which files of a template every copy links to rather than copies:
// the ones neither git nor a test ever writes (git rewrites HEAD and config through
// a lock file and a rename, but a test may write them in place). Creating a file
// is most of what a copy costs, so the sample hooks and the like are hard links.
func shared(rel string) bool {
	dir, name := filepath.Split(rel)
	switch dir {
	case filepath.Join(".git", "hooks") + string(filepath.Separator):
		return strings.HasSuffix(name, ".sample")
	case filepath.Join(".git", "info") + string(filepath.Separator):
		return name == "exclude"
	case ".git" + string(filepath.Separator):
		return name == "description"
	}
	return false
}

// build makes one template repository in a new folder under root.
func build(format string, config []string) (string, error) {
	mu.Lock()
	if root == "" {
		r, err := os.MkdirTemp("", "gittest-")
		if err != nil {
			mu.Unlock()
			return "", err
		}
		root = r
	}
	base := root
	mu.Unlock()
	home, err := os.MkdirTemp(base, "home-")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(home, "repo")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	// The caller's own git settings (GIT_DIR of a hook, GIT_CONFIG_*, a global
	// init.templateDir) stay out of the template.
	env := []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	run := func(args ...string) error {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	args := []string{"init", "-q"}
	if format != "" {
		args = append(args, "--object-format="+format)
	}
	if err := run(args...); err != nil {
		return "", err
	}
	for i := 0; i < len(config); i += 2 {
		if err := run("config", config[i], config[i+1]); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// Cleanup removes the templates Init made. TestMain calls it after m.Run.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if root != "" {
		os.RemoveAll(root)
	}
	root = ""
	templates = map[string]*template{}
}

// Copy copies the tree at src into dst (created if absent): folders, regular files
// with their permission bits, and symbolic links as links. Anything else fails the
// test. When src is a repository Init made, its sample hooks, description and
// info/exclude are linked, as Init links them.
func Copy(t testing.TB, dst, src string) {
	t.Helper()
	if err := copyTree(dst, src, shared); err != nil {
		t.Fatalf("gittest.Copy: %v", err)
	}
}

// copyTree copies src into dst, hard-linking the regular files link accepts (by
// their path below src), if link is not nil.
func copyTree(dst, src string, link func(rel string) bool) error {
	type dirMode struct {
		path string
		perm fs.FileMode
	}
	var dirs []dirMode // given their modes last, so that a read-only folder is filled first
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			dirs = append(dirs, dirMode{target, mode.Perm()})
			return os.MkdirAll(target, 0o700)
		case mode.IsRegular() && link != nil && link(rel):
			if os.Link(p, target) == nil {
				return nil
			}
			return copyFile(target, p, mode.Perm()) // another file system, or no links
		case mode.IsRegular():
			return copyFile(target, p, mode.Perm())
		case mode&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		default:
			return fmt.Errorf("%s: cannot copy a %v", p, mode.Type())
		}
	})
	for i := len(dirs) - 1; i >= 0 && err == nil; i-- {
		err = os.Chmod(dirs[i].path, dirs[i].perm)
	}
	return err
}

func copyFile(dst, src string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, perm)
}
