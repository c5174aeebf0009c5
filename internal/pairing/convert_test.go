package pairing

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// isolateGit keeps the developer's own git config and attributes out of a test:
// both git and the tool read $HOME, XDG_CONFIG_HOME and /etc/gitconfig.
func isolateGit(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_ATTR_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	os.Unsetenv("GIT_CONFIG_GLOBAL")
	t.Setenv("GIT_CONFIG_COUNT", "")
	t.Setenv("GIT_INDEX_FILE", "") // set by git for hooks; restored after the test
	os.Unsetenv("GIT_INDEX_FILE")
	return home
}

// gitEnv runs git with the environment isolateGit set, not the helper's HOME=dir.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gitWith(t, dir, nil, args...)
}

// The contents each conversion case hashes: what git's text detection and CRLF
// handling tell apart.
var conversionContents = map[string]string{
	"lf.md":        "one\ntwo\n",
	"crlf.md":      "one\r\ntwo\r\n",
	"mixed.md":     "one\r\ntwo\nthree\r\n",
	"lonecr.md":    "one\rtwo\r\n",
	"nul.md":       "one\x00\r\ntwo\r\n",
	"empty.md":     "",
	"ctrlz.md":     "one\r\ntwo\r\n\x1a",
	"control.md":   strings.Repeat("\x01", 3) + "one\r\n",
	"noeol.md":     "one\r\ntwo",
	"ident.md":     "$Id: something $\r\nbody $Id$ and $Id: x\ny$\r\n",
	"sub/deep.txt": "deep\r\n",
	"crlfcr.md":    "a\r\r\nb\r\n",
}

var conversionAttributes = []string{
	"",
	"* text\n",
	"* text=auto\n",
	"* -text\n",
	"* binary\n",
	"*.md text eol=crlf\n",
	"*.md eol=lf\n",
	"* text=auto eol=crlf\n",
	"* text=auto eol=lf\n",
	"*.md crlf\n*.txt -crlf\n",
	"*.md crlf=input\n",
	"* text ident\n",
	"*.md text\nsub/ -text\n",
	"sub/*.txt text\n*.md -text\n[attr]mytext text\nlf.md mytext\n",
	"* text\nnoeol.md !text\n",
	"\"crlf.md\" text\n/mixed.md text\nsub/** text\n",
}

// Every case hashes to what `git hash-object` says, in both object formats, for
// every core.autocrlf setting and each .gitattributes above.
func TestCleanConversionMatchesGit(t *testing.T) {
	isolateGit(t)
	for _, format := range []ObjectFormat{SHA1, SHA256} {
		// One repository per format; each case rewrites its config and attributes.
		root := gitRepo(t, format)
		var names []string
		contents := map[string]string{}
		for n, c := range conversionContents {
			contents[n] = c
		}
		// And generated ones, from a fixed sequence (the same every run): mixes of
		// the bytes git's text detection and CRLF handling look at.
		alphabet := []string{"a", "b", "\r", "\n", "\r\n", "\x00", "\x1a", "\x01", "\x7f", "é", "$Id: x $"}
		seq := uint32(1)
		for i := 0; i < 40; i++ {
			var b strings.Builder
			for j := 0; j < 1+i*3; j++ {
				seq = seq*1664525 + 1013904223
				b.WriteString(alphabet[(seq>>16)%uint32(len(alphabet))])
			}
			contents[fmt.Sprintf("gen%02d.md", i)] = b.String()
		}
		for n, c := range contents {
			writeFile(t, filepath.Join(root, n), c)
			names = append(names, n)
		}
		converted := 0
		for _, autocrlf := range []string{"", "true", "false", "input"} {
			if autocrlf != "" { // "" comes first, while the repository has no setting
				gitIn(t, root, "config", "core.autocrlf", autocrlf)
			}
			for ai, attrs := range conversionAttributes {
				writeFile(t, filepath.Join(root, ".gitattributes"), attrs)
				want := strings.Split(gitIn(t, root, append([]string{"hash-object", "--"}, names...)...), "\n")
				repo, err := FindRepo(root)
				if err != nil {
					t.Fatal(err)
				}
				for i, n := range names {
					got, err := repo.hashSide(n)
					if err != nil {
						t.Errorf("%s autocrlf=%q attrs %q: %s: %v", format, autocrlf, attrs, n, err)
						continue
					}
					if got != want[i] {
						t.Errorf("%s autocrlf=%q attrs %d %q: %s %q: hash %s, git hash-object %s", format, autocrlf, ai, attrs, n, contents[n], got, want[i])
					}
					if raw, _ := BlobHash(format, []byte(contents[n])); raw != want[i] {
						converted++
					}
				}
			}
		}
		// The matrix must exercise conversions, not just raw bytes.
		if converted < 100 {
			t.Errorf("%s: only %d cases converted anything", format, converted)
		}
	}
}

// core.autocrlf set in the global config and a gitattributes file in a subfolder
// and in info/attributes are read, as git reads them.
func TestCleanConversionSources(t *testing.T) {
	home := isolateGit(t)
	root := gitRepo(t, SHA1)
	writeFile(t, filepath.Join(home, ".gitconfig"), "[core]\n\tautocrlf = true\n")
	writeFile(t, filepath.Join(root, "docs", ".gitattributes"), "keep.md -text\n")
	writeFile(t, filepath.Join(root, ".git", "info", "attributes"), "forced.md text\n")
	writeFile(t, filepath.Join(root, ".gitattributes"), "forced.md -text\n")
	files := []string{"docs/keep.md", "docs/conv.md", "forced.md"}
	for _, f := range files {
		writeFile(t, filepath.Join(root, f), "a\r\nb\r\n")
	}
	want := strings.Split(gitIn(t, root, append([]string{"hash-object", "--"}, files...)...), "\n")
	repo, _ := FindRepo(root)
	for i, f := range files {
		if got, err := repo.hashSide(f); err != nil || got != want[i] {
			t.Errorf("%s: %s %v, git %s", f, got, err, want[i])
		}
	}
	lf, _ := BlobHash(SHA1, []byte("a\nb\n"))
	if want[1] != lf || want[0] == lf {
		t.Errorf("the case does not test what it means to: %v", want)
	}
}

// With core.autocrlf, a file whose indexed blob already holds CRLF is stored as
// it is ("safer autocrlf"): the tool follows `git add`, which reads the index;
// `git hash-object` does not read it and would convert.
func TestAutocrlfKeepsCRLFAlreadyInIndex(t *testing.T) {
	isolateGit(t)
	for _, format := range []ObjectFormat{SHA1, SHA256} {
		root := gitRepo(t, format)
		writeFile(t, filepath.Join(root, "f.md"), "a\r\nb\r\n")
		writeFile(t, filepath.Join(root, "g.md"), "a\nb\n")
		gitIn(t, root, "-c", "core.autocrlf=false", "add", "f.md", "g.md")
		gitIn(t, root, "config", "core.autocrlf", "true")
		writeFile(t, filepath.Join(root, "f.md"), "a\r\nb\r\nc\r\n")
		writeFile(t, filepath.Join(root, "g.md"), "a\r\nb\r\nc\r\n")
		repo, _ := FindRepo(root)
		gotF, _ := repo.hashSide("f.md")
		gotG, _ := repo.hashSide("g.md")
		gitIn(t, root, "add", "f.md", "g.md")
		staged := gitIn(t, root, "ls-files", "-s", "f.md", "g.md")
		if !strings.Contains(staged, gotF+" 0\tf.md") || !strings.Contains(staged, gotG+" 0\tg.md") {
			t.Errorf("%s: tool f.md %s g.md %s; git add staged:\n%s", format, gotF, gotG, staged)
		}
		if gotF == gotG {
			t.Errorf("%s: the CRLF already in the index made no difference", format)
		}
	}
}

// A clean filter git would run cannot be reproduced without git: the side is
// unreadable with a reason, never hashed as if the filter did nothing.
func TestCleanFilterIsRefused(t *testing.T) {
	isolateGit(t)
	root := gitRepo(t, SHA1)
	gitIn(t, root, "config", "filter.upper.clean", "tr a-z A-Z")
	writeFile(t, filepath.Join(root, ".gitattributes"), "*.md filter=upper\nplain.md filter=undefined\n")
	writeFile(t, filepath.Join(root, "f.md"), "hello\n")
	writeFile(t, filepath.Join(root, "plain.md"), "hello\n")
	repo, _ := FindRepo(root)
	if _, err := repo.hashSide("f.md"); err == nil || !strings.Contains(err.Error(), `clean filter "upper"`) {
		t.Errorf("f.md: %v, want the clean filter named", err)
	}
	got, err := repo.hashSide("plain.md")
	if want := gitIn(t, root, "hash-object", "plain.md"); err != nil || got != want {
		t.Errorf("an undefined filter passes the bytes through: %s %v, git %s", got, err, want)
	}
}

// An in-tree .gitattributes that is a symbolic link is ignored, as git ignores it.
func TestSymlinkedGitattributesIgnored(t *testing.T) {
	isolateGit(t)
	root := gitRepo(t, SHA1)
	writeFile(t, filepath.Join(root, "real-attributes"), "* text\n")
	if err := os.Symlink("real-attributes", filepath.Join(root, ".gitattributes")); err != nil {
		t.Skip(err)
	}
	writeFile(t, filepath.Join(root, "f.md"), "a\r\nb\r\n")
	repo, _ := FindRepo(root)
	got, err := repo.hashSide("f.md")
	if want := gitIn(t, root, "hash-object", "f.md"); err != nil || got != want {
		t.Errorf("got %s %v, git %s", got, err, want)
	}
}

// During a commit git points hooks at the index being committed through
// GIT_INDEX_FILE; the CRLF check reads that one.
func TestIndexFileFromEnvironment(t *testing.T) {
	isolateGit(t)
	root := gitRepo(t, SHA1)
	writeFile(t, filepath.Join(root, "f.md"), "a\r\n")
	alt := filepath.Join(t.TempDir(), "other-index")
	gitWith(t, root, []string{"GIT_INDEX_FILE=" + alt}, "add", "f.md")
	gitIn(t, root, "config", "core.autocrlf", "true")
	writeFile(t, filepath.Join(root, "f.md"), "a\r\nb\r\n")
	crlf, _ := BlobHash(SHA1, []byte("a\r\nb\r\n"))
	lf, _ := BlobHash(SHA1, []byte("a\nb\n"))
	repo, _ := FindRepo(root)
	if got, _ := repo.hashSide("f.md"); got != lf {
		t.Errorf("with $GIT_DIR/index (no entry): %s, want the converted %s", got, lf)
	}
	t.Setenv("GIT_INDEX_FILE", alt)
	repo, _ = FindRepo(root)
	if got, _ := repo.hashSide("f.md"); got != crlf {
		t.Errorf("with GIT_INDEX_FILE holding CRLF: %s, want %s", got, crlf)
	}
}
