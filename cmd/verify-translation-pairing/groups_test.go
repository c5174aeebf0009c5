package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// README pairs and configured sets are one mechanism (issue 28): a record that
// is a symbolic link to nothing is unreadable for both, never "no record yet";
// a file named on the command line is checked as it is in the working tree,
// even one .gitignore hides, while a set's patterns see what git lists.
func TestOneMechanismForReadmesAndSets(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, ".translation-pairing.yaml", mirroredConfig)
	put(t, root, "docs/en/a.md", "a\n")
	put(t, root, "docs/zh-cn/a.md", "甲\n")
	put(t, root, "README.md", "x\n")
	put(t, root, "README.zh.md", "y\n")
	os.Symlink("nowhere.yaml", filepath.Join(root, "docs/translations.i18n.yaml"))
	os.Symlink("nowhere.yaml", filepath.Join(root, "README.i18n.yaml"))
	r := cli(root)
	for _, want := range []string{
		"unreadable    README.i18n.yaml cannot be read: no such file\n",
		"unreadable    docs/translations.i18n.yaml cannot be read: no such file\n",
	} {
		if r.code != 1 || !strings.Contains(r.stdout, want) {
			t.Errorf("exit %d, want 1 and %q\n%s", r.code, want, r.stdout)
		}
	}
	// Named, a document answers with its record's verdict; --write leaves the link.
	for _, side := range []string{"docs/zh-cn/a.md", "README.zh.md"} {
		if r := cli(root, "--write", side); r.code != 1 || !strings.Contains(r.stdout, "unreadable") || !strings.Contains(r.stdout, "--write failed") {
			t.Errorf("--write %s: exit %d\n%s%s", side, r.code, r.stdout, r.stderr)
		}
	}
	if target, err := os.Readlink(filepath.Join(root, "docs/translations.i18n.yaml")); err != nil || target != "nowhere.yaml" {
		t.Errorf("the set record's link was replaced: %q %v", target, err)
	}
	// A config that is a link to nothing is unreadable too.
	os.Remove(filepath.Join(root, ".translation-pairing.yaml"))
	os.Symlink("nowhere.yaml", filepath.Join(root, ".translation-pairing.yaml"))
	if r := cli(root); r.code != 1 || !strings.Contains(r.stdout, "unreadable    .translation-pairing.yaml cannot be read: no such file\n") {
		t.Errorf("dangling config: exit %d\n%s", r.code, r.stdout)
	}

	// An ignored translation: not found by a check of everything, checked when named.
	root = newRepo(t, "")
	put(t, root, ".gitignore", "README.ja.md\n")
	put(t, root, "README.md", "x\n")
	put(t, root, "README.ja.md", "エックス\n")
	if r := cli(root); r.code != 0 || r.stdout != "no translation pairs found\n" {
		t.Errorf("ignored translation, no arguments: exit %d\n%s", r.code, r.stdout)
	}
	if r := cli(root, "--write", "README.ja.md"); r.code != 0 || !strings.Contains(r.stdout, "created the record") {
		t.Fatalf("--write of the named, ignored translation: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(get(t, root, "README.i18n.yaml"), "README.ja.md: "+hashObject(t, root, "README.ja.md")+"\n") {
		t.Errorf("record:\n%s", get(t, root, "README.i18n.yaml"))
	}
}
