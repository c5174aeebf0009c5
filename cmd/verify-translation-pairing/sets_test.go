package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/internal/pairing"
)

const mirroredConfig = `sets:
  - name: guide
    record: docs/translations.i18n.yaml
    languages:
      en: docs/en/**/*.md
      zh-CN: docs/zh-cn/**/*.md
    exclude: [docs/en/drafts/**]
`

// Mirrored trees (docs/en/** ↔ docs/zh-cn/**) pair file by file, several documents
// share one record, untranslated documents are left alone, and --write records
// exactly the document named.
func TestMirroredTrees(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			root := newRepo(t, format)
			put(t, root, ".translation-pairing.yaml", mirroredConfig)
			put(t, root, "docs/en/index.md", "# Guide\n")
			put(t, root, "docs/zh-cn/index.md", "# 指南\n")
			put(t, root, "docs/en/a/b/deep.md", "deep\n")
			put(t, root, "docs/zh-cn/a/b/deep.md", "深\n")
			put(t, root, "docs/en/only-english.md", "no translation yet\n")
			put(t, root, "docs/en/drafts/wip.md", "draft\n")
			put(t, root, "docs/zh-cn/drafts/wip.md", "草稿\n")
			r := cli(root)
			for _, want := range []string{
				"unrecorded    docs/en/a/b/deep.md and docs/zh-cn/a/b/deep.md are one document in several languages with no record (docs/translations.i18n.yaml); once they match, record them with: verify-translation-pairing --write docs/en/a/b/deep.md\n",
				"unrecorded    docs/en/index.md and docs/zh-cn/index.md are one document",
				"2 pairs: 0 confirmed, 2 not confirmed\n",
			} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, r.stdout)
				}
			}
			if r.code != 1 || strings.Contains(r.stdout, "only-english") || strings.Contains(r.stdout, "drafts") {
				t.Errorf("exit %d\n%s", r.code, r.stdout)
			}
			if r := cli(root, "--write", "docs/zh-cn/index.md"); r.code != 0 || !strings.Contains(r.stdout, "created the record") {
				t.Fatalf("--write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			rec := get(t, root, "docs/translations.i18n.yaml")
			sides := []string{"en/index.md", "zh-cn/index.md"}
			hashes := hashObjects(t, root, "docs/"+sides[0], "docs/"+sides[1])
			for i, side := range sides {
				want := side + ": " + hashes[i] + "\n"
				if !strings.Contains(rec, want) {
					t.Errorf("record lacks %q:\n%s", want, rec)
				}
			}
			if strings.Contains(rec, "deep") {
				t.Errorf("--write recorded a document nobody named:\n%s", rec)
			}
			if r := cli(root, "--write", "docs/en/a/b/deep.md"); r.code != 0 || !strings.Contains(r.stdout, "re-recorded the current hashes") {
				t.Fatalf("second --write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			r = cli(root)
			want := "confirmed     docs/en/index.md <-> docs/zh-cn/index.md (docs/translations.i18n.yaml)\n" +
				"confirmed     docs/en/a/b/deep.md <-> docs/zh-cn/a/b/deep.md (docs/translations.i18n.yaml)\n" +
				"2 pairs: 2 confirmed, 0 not confirmed\n"
			if r.code != 0 || r.stdout != want {
				t.Errorf("after --write: exit %d\n%s\nwant:\n%s", r.code, r.stdout, want)
			}
			// One side edited: only its document is reported changed.
			put(t, root, "docs/zh-cn/a/b/deep.md", "深深\n")
			r = cli(root)
			if r.code != 1 || !strings.Contains(r.stdout, "changed       docs/zh-cn/a/b/deep.md changed since confirmation; bring docs/en/a/b/deep.md along") ||
				!strings.Contains(r.stdout, "confirmed     docs/en/index.md <-> docs/zh-cn/index.md") {
				t.Errorf("after an edit: exit %d\n%s", r.code, r.stdout)
			}
			// Naming the record selects every document it records.
			if r := cli(root, "docs/translations.i18n.yaml"); r.code != 1 || !strings.Contains(r.stdout, "2 pairs: 1 confirmed, 1 not confirmed") {
				t.Errorf("naming the record: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// Same-folder suffix pairs (*.md ↔ *.zh.md ↔ *.pt-BR.md) with any language tags;
// a file matching two patterns belongs to the more specific one.
func TestSuffixPairs(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, ".translation-pairing.yaml", "sets:\n  - record: translations.i18n.yaml\n    languages:\n      en: \"guides/**/*.md\"\n      zh-Hans: \"guides/**/*.zh-Hans.md\"\n      pt_BR: \"guides/**/*.pt_BR.md\"\n")
	put(t, root, "guides/setup.md", "setup\n")
	put(t, root, "guides/setup.zh-Hans.md", "设置\n")
	put(t, root, "guides/x/usage.md", "usage\n")
	put(t, root, "guides/x/usage.pt_BR.md", "uso\n")
	put(t, root, "guides/x/usage.zh-Hans.md", "用法\n")
	if r := cli(root, "--write", "guides/setup.md"); r.code != 0 {
		t.Fatalf("--write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := cli(root, "--write", "guides/x/usage.zh-Hans.md"); r.code != 0 {
		t.Fatalf("--write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := cli(root)
	want := "confirmed     guides/setup.md <-> guides/setup.zh-Hans.md (translations.i18n.yaml)\n" +
		"confirmed     guides/x/usage.md <-> guides/x/usage.zh-Hans.md <-> guides/x/usage.pt_BR.md (translations.i18n.yaml)\n" +
		"2 pairs: 2 confirmed, 0 not confirmed\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("exit %d\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
	// A new language for a recorded document is reported until it is added.
	put(t, root, "guides/setup.pt_BR.md", "configuração\n")
	r = cli(root)
	if r.code != 1 || !strings.Contains(r.stdout, "unrecorded    guides/setup.pt_BR.md is not named in translations.i18n.yaml; once it matches the other languages of the document, add it with: verify-translation-pairing --write guides/setup.pt_BR.md") {
		t.Errorf("new language: exit %d\n%s", r.code, r.stdout)
	}
	before := get(t, root, "translations.i18n.yaml")
	if r := cli(root, "--write", "guides/setup.pt_BR.md"); r.code != 0 {
		t.Fatalf("adding a language: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if want := before + "guides/setup.pt_BR.md: " + hashObject(t, root, "guides/setup.pt_BR.md") + "\n"; get(t, root, "translations.i18n.yaml") != want {
		t.Errorf("record after adding (-want +got):\n%s", cmp.Diff(want, get(t, root, "translations.i18n.yaml")))
	}
}

// The seed's README record keeps working beside a config, byte for byte, even
// when a set's patterns also match its README pair: the record keeps it.
func TestSeedBesideConfig(t *testing.T) {
	root := newRepo(t, "")
	copySeed(t, root, seedFolder)
	put(t, root, ".translation-pairing.yaml", mirroredConfig+"  - record: translations.i18n.yaml\n    languages: {en: \"**/*.md\", zh: \"**/*.zh.md\"}\n")
	rec := get(t, root, seedFolder+"/README.i18n.yaml")
	r := cli(root)
	want := "confirmed     " + seedFolder + "/README.md <-> " + seedFolder + "/README.zh.md (" + seedFolder + "/README.i18n.yaml)\n1 pair: 1 confirmed, 0 not confirmed\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("exit %d\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
	if get(t, root, seedFolder+"/README.i18n.yaml") != rec {
		t.Error("a check changed the seed's record")
	}
	// Named on the command line, and re-recorded, the pair is still the record's.
	if r := cli(root, seedFolder+"/README.zh.md"); r.code != 0 || r.stdout != want {
		t.Errorf("named: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := cli(root, "--write", seedFolder+"/README.md"); r.code != 0 || !strings.Contains(r.stdout, "already recorded, nothing to write") {
		t.Errorf("--write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if get(t, root, seedFolder+"/README.i18n.yaml") != rec {
		t.Error("--write changed the seed's record")
	}
}

// A config or set record that cannot be used is one clear verdict, never a panic.
func TestBadConfig(t *testing.T) {
	tests := []struct{ config, want string }{
		{"sets: 3\n", `"sets" must be a list of sets`},
		{"setz: []\n", `unknown key "setz"`},
		{"sets:\n  - record: t.i18n.yaml\n    languages: {en: \"*.md\"}\n", "two or more language tags"},
		{"sets:\n  - languages: {en: \"*.md\", zh: \"*.zh.md\"}\n", "a set needs a record"},
		{"sets:\n  - record: ../t.yaml\n    languages: {en: \"*.md\", zh: \"*.zh.md\"}\n", "outside the record's folder"},
		{"sets:\n  - record: docs/README.i18n.yaml\n    languages: {en: \"docs/*.md\", zh: \"docs/*.zh.md\"}\n", "the README pairs' own records"},
		{"sets:\n  - record: t.yaml\n    languages: {en: \"docs/en/**/*.md\", zh: \"docs/zh/*.md\"}\n", "the same wildcards in the same order"},
		{"sets:\n  - record: t.yaml\n    languages: {\"en us\": \"a/*.md\", zh: \"b/*.md\"}\n", "is not a language tag"},
		{"sets:\n  - record: t.yaml\n    languages: {en: \"/abs/*.md\", zh: \"b/*.md\"}\n", "relative to the root"},
		{"sets:\n  - record: docs/t.yaml\n    languages: {en: \"en/*.md\", zh: \"zh/*.md\"}\n", "not below the folder of its record"},
		{"sets: [\n", "not valid YAML"},
		{"", "empty config"},
	}
	for _, tt := range tests {
		root := newRepo(t, "")
		put(t, root, ".translation-pairing.yaml", tt.config)
		r := cli(root)
		if r.code != 1 || !strings.Contains(r.stdout, "malformed     .translation-pairing.yaml: ") || !strings.Contains(r.stdout, tt.want) {
			t.Errorf("config %q: exit %d, want 1 and %q\n%s%s", tt.config, r.code, tt.want, r.stdout, r.stderr)
		}
	}
	// A set record naming a file no pattern matches, or a path out of its folder.
	for rec, want := range map[string]string{
		"en/a.md: " + strings.Repeat("0", 40) + "\nother/b.md: " + strings.Repeat("0", 40) + "\n": "line 2: other/b.md matches no pattern of set guide",
		"en/a.md: " + strings.Repeat("0", 40) + "\n../b.md: " + strings.Repeat("0", 40) + "\n":    "names a path outside the record's folder",
		"en/a.md: " + strings.Repeat("0", 40) + "\nen//b.md: " + strings.Repeat("0", 40) + "\n":   "is not a clean path",
	} {
		root := newRepo(t, "")
		put(t, root, ".translation-pairing.yaml", mirroredConfig)
		put(t, root, "docs/translations.i18n.yaml", rec)
		r := cli(root)
		if r.code != 1 || !strings.Contains(r.stdout, "malformed     docs/translations.i18n.yaml: ") || !strings.Contains(r.stdout, want) {
			t.Errorf("record %q: exit %d, want %q\n%s", rec, r.code, want, r.stdout)
		}
	}
}

// A changed side says what changed since the confirmed blob, read from the
// repository's objects (loose, then packed), in text and JSON; both sides when
// both changed.
func TestChangesSinceConfirmation(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "README.md", "# Title\n\nFirst paragraph.\n")
	put(t, root, "README.zh.md", "# 标题\n\n第一段。\n")
	if r := cli(root, "--write", "README.md"); r.code != 0 {
		t.Fatalf("--write: %s%s", r.stdout, r.stderr)
	}
	gitCmd(t, root, "add", ".")
	gitCmd(t, root, "commit", "-q", "-m", "confirmed")
	put(t, root, "README.md", "# Title\n\nFirst paragraph, edited.\n")
	put(t, root, "README.zh.md", "# 标题\n\n第一段。\n\n第二段。\n")
	r := cli(root)
	for _, want := range []string{
		"both-changed  README.md and README.zh.md both changed since confirmation",
		"              README.md since confirmation (git diff): +1 -1 lines\n                @@ -1,3 +1,3 @@\n                 # Title\n                 \n                -First paragraph.\n                +First paragraph, edited.\n",
		"              README.zh.md since confirmation (git diff): +2 -0 lines\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	gitCmd(t, root, "gc", "-q")
	r = cli(root, "--json")
	var rep pairing.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Pairs[0].Sides {
		if s.Changes == nil || s.Changes.Source != "git" || !strings.HasPrefix(s.Changes.Diff, "--- a/"+s.Path+"\n+++ b/"+s.Path+"\n@@ ") {
			t.Errorf("side %s: changes %+v", s.Path, s.Changes)
		}
	}
	// Never added to git: the report says the blob is not there.
	root = newRepo(t, "")
	put(t, root, "README.md", "a\n")
	put(t, root, "README.zh.md", "甲\n")
	cli(root, "--write", "README.md")
	put(t, root, "README.md", "b\n")
	if r := cli(root); !strings.Contains(r.stdout, "README.md: no diff: the confirmed blob ") {
		t.Errorf("unavailable blob:\n%s", r.stdout)
	}
}

// With core.autocrlf=true and CRLF in the working tree, a pair git reports clean
// is confirmed: the hash is of the blob git stores.
func TestAutocrlfPairIsConfirmed(t *testing.T) {
	root := newRepo(t, "")
	t.Setenv("HOME", root)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	gitCmd(t, root, "config", "core.autocrlf", "true")
	put(t, root, "README.md", "hello\nworld\n")
	put(t, root, "README.zh.md", "你好\n世界\n")
	if r := cli(root, "--write", "README.md"); r.code != 0 {
		t.Fatalf("--write: %s%s", r.stdout, r.stderr)
	}
	gitCmd(t, root, "add", ".")
	gitCmd(t, root, "commit", "-q", "-m", "x")
	// A fresh checkout with autocrlf=true writes CRLF line ends.
	os.Remove(filepath.Join(root, "README.md"))
	os.Remove(filepath.Join(root, "README.zh.md"))
	gitCmd(t, root, "checkout", "--", ".")
	if got := get(t, root, "README.md"); got != "hello\r\nworld\r\n" {
		t.Fatalf("checkout wrote %q", got)
	}
	if st := gitCmd(t, root, "status", "--porcelain"); st != "" {
		t.Fatalf("git does not see the tree clean: %q", st)
	}
	if r := cli(root); r.code != 0 {
		t.Errorf("exit %d\n%s", r.code, r.stdout)
	}
	// --json says git converted the side: the hash of its bytes, and why.
	var rep pairing.Report
	if err := json.Unmarshal([]byte(cli(root, "--json").stdout), &rep); err != nil || len(rep.Pairs) != 1 {
		t.Fatalf("--json: %v %+v", err, rep)
	}
	raw := strings.TrimSpace(gitCmd(t, root, "hash-object", "--no-filters", "README.md"))
	c := rep.Pairs[0].Sides[0].Conversion
	if c == nil || c.Raw != raw || c.Raw == rep.Pairs[0].Sides[0].Current || c.Attributes["core.autocrlf"] != "true" {
		t.Errorf("conversion %+v, want raw %s and core.autocrlf true", c, raw)
	}
}

// A set's patterns lie below its record's folder; a side reached through a
// symbolic link out of the repository is never recorded.
func TestSetRecordFolders(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, ".translation-pairing.yaml", "sets:\n  - record: i18n/records/site.yaml\n    languages: {en: \"site/en/*.md\", zh: \"site/zh/*.md\"}\n")
	put(t, root, "site/en/a.md", "a\n")
	put(t, root, "site/zh/a.md", "甲\n")
	put(t, root, "README.md", "x\n")
	// Patterns must lie below the record's folder.
	if r := cli(root); !strings.Contains(r.stdout, "not below the folder of its record") {
		t.Fatalf("%s", r.stdout)
	}
	put(t, root, ".translation-pairing.yaml", "sets:\n  - record: i18n/site.yaml\n    languages: {en: \"i18n/en/*.md\", zh: \"i18n/zh/*.md\"}\n")
	put(t, root, "i18n/en/a.md", "a\n")
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(root, "i18n", "zh"))
	put(t, outside, "a.md", "甲\n")
	r := cli(root, "--write", "i18n/en/a.md")
	if r.code == 0 {
		t.Errorf("a side through a symlink out of the repository was recorded:\n%s", r.stdout)
	}
	os.Remove(filepath.Join(root, "i18n", "zh"))
	put(t, root, "i18n/zh/a.md", "甲\n")
	put(t, root, ".translation-pairing.yaml", "sets:\n  - record: i18n/site.yaml\n    languages: {en: \"i18n/en/*.md\", zh: \"i18n/zh/*.md\"}\n")
	if r := cli(root, "--write", "i18n/zh/a.md"); r.code != 0 || !strings.Contains(r.stdout, "created the record") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// In a linked worktree of a sha256 repository whose history is packed, the
// confirmed blob is found in the shared objects and the diff shown.
func TestLinkedWorktreeSha256Packed(t *testing.T) {
	root := newRepo(t, "sha256")
	put(t, root, "README.md", "one\n")
	put(t, root, "README.zh.md", "一\n")
	if r := cli(root, "--write", "README.md"); r.code != 0 {
		t.Fatal(r.stdout, r.stderr)
	}
	gitCmd(t, root, "add", ".")
	gitCmd(t, root, "commit", "-q", "-m", "confirmed")
	wt := filepath.Join(t.TempDir(), "wt")
	gitCmd(t, root, "worktree", "add", "-q", wt)
	gitCmd(t, root, "gc", "-q")
	wt, _ = filepath.EvalSymlinks(wt)
	if r := cli(wt); r.code != 0 {
		t.Fatalf("worktree: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	put(t, wt, "README.zh.md", "一\n二\n")
	r := cli(wt)
	if r.code != 1 || !strings.Contains(r.stdout, "README.zh.md since confirmation (git diff): +1 -0 lines\n                @@ -1 +1,2 @@\n                 一\n                +二\n") {
		t.Errorf("exit %d\n%s", r.code, r.stdout)
	}
}
