package pairing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindRepo(t *testing.T) {
	t.Run("subfolder of a sha256 repository", func(t *testing.T) {
		root := gitRepo(t, SHA256)
		sub := filepath.Join(root, "a", "b")
		os.MkdirAll(sub, 0o755)
		repo, err := FindRepo(sub)
		if err != nil {
			t.Fatal(err)
		}
		if repo.Root != root || repo.Format != SHA256 {
			t.Errorf("got root %s format %s, want %s sha256", repo.Root, repo.Format, root)
		}
	})
	t.Run("linked worktree of a sha256 repository", func(t *testing.T) {
		root := gitRepo(t, SHA256)
		writeFile(t, filepath.Join(root, "README.md"), "x\n")
		git(t, root, "add", ".")
		git(t, root, "commit", "-q", "-m", "init")
		wt := filepath.Join(t.TempDir(), "wt")
		git(t, root, "worktree", "add", "-q", wt)
		wt, _ = filepath.EvalSymlinks(wt)
		repo, err := FindRepo(wt)
		if err != nil {
			t.Fatal(err)
		}
		if repo.Root != wt || repo.Format != SHA256 {
			t.Errorf("got root %s format %s, want %s sha256", repo.Root, repo.Format, wt)
		}
		got, _ := repo.hashSide("README.md")
		if want := git(t, wt, "hash-object", "README.md"); got != want {
			t.Errorf("hash in worktree %s, git %s", got, want)
		}
	})
	t.Run("separate git dir, its .git file relative", func(t *testing.T) {
		base := t.TempDir()
		work := filepath.Join(base, "work")
		os.MkdirAll(filepath.Join(base, "modules"), 0o755)
		git(t, base, "init", "-q", "--object-format=sha256", "--separate-git-dir", filepath.Join(base, "modules", "sub"), work)
		writeFile(t, filepath.Join(work, ".git"), "gitdir: ../modules/sub\n")
		repo, err := FindRepo(work)
		if err != nil {
			t.Fatal(err)
		}
		if repo.Format != SHA256 {
			t.Errorf("format %s, want sha256", repo.Format)
		}
	})
	t.Run("outside git", func(t *testing.T) {
		dir := t.TempDir()
		repo, err := FindRepo(dir)
		if err != nil {
			t.Fatal(err)
		}
		if repo.Format != SHA1 || repo.GitDir != "" {
			t.Errorf("got %+v, want SHA-1 and no git dir", repo)
		}
	})
	t.Run("unknown object format", func(t *testing.T) {
		dir := t.TempDir()
		git(t, dir, "init", "-q")
		git(t, dir, "config", "core.repositoryformatversion", "1")
		git(t, dir, "config", "extensions.objectformat", "sha512")
		if _, err := FindRepo(dir); err == nil || !strings.Contains(err.Error(), "sha512") {
			t.Errorf("want git's error naming sha512, got %v", err)
		}
	})
	t.Run("broken gitdir file", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, ".git"), "nonsense\n")
		if _, err := FindRepo(dir); err == nil {
			t.Error("want an error for a .git file without gitdir:")
		}
	})
}

func TestIsTranslationName(t *testing.T) {
	for name, want := range map[string]bool{
		"README.zh.md": true, "README.ja.md": true, "README.zh-CN.md": true, "README.zh_Hans.md": true,
		"README.pt-BR.md": true, "README.es-419.md": true, "README.en.md": true,
		"README.md": false, "README.old.md": false, "README.v2.md": false, "README.xx.md": false,
		"README.ZH.md": false, "readme.zh.md": false, "README.zh.txt": false, "README.i18n.yaml": false,
		"README.dev.md": false,
	} {
		if got := IsTranslationName(name); got != want {
			t.Errorf("IsTranslationName(%q) = %v, want %v", name, got, want)
		}
	}
}

// blobHash is `git hash-object --no-filters` in both object formats, whatever the bytes:
// none, a CRLF line git's autocrlf would convert, text beyond ASCII, bytes that are not
// UTF-8, a $Id$ git's ident would expand.
func TestBlobHashIsGits(t *testing.T) {
	files := map[string]string{
		"empty.md": "",
		"crlf.md":  "one\r\ntwo\r\n",
		"zh.md":    "你好，世界\n",
		"bin.md":   "\xff\xfe\x00x",
		"ident.md": "$Id$\n",
	}
	for _, format := range []ObjectFormat{SHA1, SHA256} {
		root := gitRepo(t, format)
		writeFile(t, filepath.Join(root, ".gitattributes"), "* text=auto ident\n")
		var names []string
		for name, data := range files {
			writeFile(t, filepath.Join(root, name), data)
			names = append(names, name)
		}
		want := strings.Fields(git(t, root, append([]string{"hash-object", "--no-filters"}, names...)...))
		for i, name := range names {
			got, err := format.blobHash(filepath.Join(root, name))
			if err != nil || got != want[i] {
				t.Errorf("%s %s: blobHash = %q, %v; git hash-object --no-filters says %s", format, name, got, err, want[i])
			}
		}
	}
	if _, err := SHA1.blobHash(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("no error for a missing file")
	}
}
