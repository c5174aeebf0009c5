package pairing

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuotePath(t *testing.T) {
	for in, want := range map[string]string{
		"docs/README.md":          "docs/README.md",
		"文档/README.zh.md":         "文档/README.zh.md",
		"a\x1b[31mb":              `"a\033[31mb"`,
		"cr\r":                    `"cr\r"`,
		"tab\tnl\n":               `"tab\tnl\n"`,
		`q"b\`:                    `"q\"b\\"`,
		"bad\xff":                 `"bad\377"`,
		"c1\u009b":                `"c1\302\233"`,
		"rtl\u202e":               `"rtl\342\200\256"`,
		"del\x7f":                 `"del\177"`,
		"bell\a\b\v\f":            `"bell\a\b\v\f"`,
		"truncated\xe6\x96":       `"truncated\346\226"`,
		"emoji😀":                  "emoji😀",
		"nul\x00":                 `"nul\000"`,
		"osc\x1b]8;;http://x\x07": `"osc\033]8;;http://x\a"`,
	} {
		if got := QuotePath(in); got != want {
			t.Errorf("QuotePath(%q) = %s, want %s", in, got, want)
		}
	}
	if got := EscapeTerminal("a\x1b[2Jb\r\"\\\tc"); got != `a\033[2Jb\r"\`+"\tc" {
		t.Errorf("EscapeTerminal = %q", got)
	}
}

func TestWildmatch(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          bool
	}{
		{"*.md", "a.md", true},
		{"*.md", "a/b.md", false},
		{"docs/**/*.md", "docs/a.md", true},
		{"docs/**/*.md", "docs/a/b/c.md", true},
		{"docs/**", "docs/a/b", true},
		{"**/x.md", "x.md", true},
		{"**/x.md", "a/b/x.md", true},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a**b", "axxb", true},
		{"a**b", "ax/xb", false},
		{"?.md", "a.md", true},
		{"?.md", "/.md", false},
		{"[a-c].md", "b.md", true},
		{"[!a-c].md", "b.md", false},
		{"[^a-c].md", "d.md", true},
		{"[[:digit:]].md", "7.md", true},
		{`\*.md`, "*.md", true},
		{`\*.md`, "a.md", false},
		{"[.md", "[.md", true},
		{strings.Repeat("*a", 30) + "b", strings.Repeat("a", 60), false},
	}
	for _, tt := range tests {
		if got := wildmatch(tt.pattern, tt.text, true); got != tt.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.pattern, tt.text, got, tt.want)
		}
	}
}

func TestGitConfigParse(t *testing.T) {
	c := &gitConfig{}
	c.parse([]byte("[core]\n\tautocrlf = input ; comment\n[Filter \"LFS\"]\n\tclean = \"git-lfs clean -- %f\"\n"+
		"[filter.old]\n\tsmudge = x\n[core]\n\tbare\n\tname = \"a\\\"b\" \\\n  c # c\n[broken\nkey = v\n"), "", 0)
	for key, want := range map[string]string{
		"core.autocrlf":     "input",
		"filter.LFS.clean":  "git-lfs clean -- %f",
		"filter.old.smudge": "x",
		"core.bare":         "true",
		"core.name":         `a"b   c`,
	} {
		if got, ok := c.get(key); !ok || got != want {
			t.Errorf("%s = %q %v, want %q", key, got, ok, want)
		}
	}
	if _, ok := c.get("broken.key"); ok {
		t.Error("a key after a broken section header was kept")
	}
	// include.path is followed, relative to the including file, with a depth bound.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a"), "[include]\n\tpath = b\n")
	writeFile(t, filepath.Join(dir, "b"), "[core]\n\tautocrlf = true\n[include]\n\tpath = a\n")
	c = &gitConfig{}
	c.readFile(filepath.Join(dir, "a"), 0)
	if v, _ := c.get("core.autocrlf"); v != "true" {
		t.Errorf("include not followed: %q", v)
	}
}

// The index is read in versions 2, 3 and 4 (prefix-compressed paths), as git
// writes them, with extended flags and paths longer than the name field. One
// repository per format is rewritten in each version in turn: git writes the
// same entries each time, only in another version.
func TestParseIndexVersions(t *testing.T) {
	isolateGit(t)
	for _, format := range []ObjectFormat{SHA1, SHA256} {
		root := gitRepo(t, format)
		files := []string{"a.md", "docs/guide.md", "docs/guide.zh.md", strings.Repeat("ab/", 100) + "x.md"}
		for _, f := range files {
			writeFile(t, filepath.Join(root, f), f+"\n")
		}
		gitIn(t, root, "add", ".")
		for _, version := range []int{2, 3, 4} {
			if version == 3 {
				// An intent-to-add entry has an extended flag (without one git
				// writes version 2 when asked for 3); sorted first, every entry
				// after it is read past it.
				writeFile(t, filepath.Join(root, "0-new.md"), "n\n")
				gitIn(t, root, "add", "-N", "0-new.md")
			}
			gitIn(t, root, "update-index", "--index-version", strconv.Itoa(version))
			if index := readFile(t, filepath.Join(root, ".git", "index")); len(index) < 8 || index[4:8] != string([]byte{0, 0, 0, byte(version)}) {
				t.Fatalf("%s: git wrote the index in another version than %d: %q", format, version, index[:min(len(index), 8)])
			}
			// One ls-files for all the files: "<mode> <oid> <stage>\t<path>" each.
			staged := map[string][]string{}
			for _, entry := range strings.Split(strings.TrimSuffix(gitIn(t, root, append([]string{"ls-files", "-s", "-z", "--"}, files...)...), "\x00"), "\x00") {
				_, path, _ := strings.Cut(entry, "\t")
				staged[path] = strings.Fields(entry)
			}
			repo, _ := FindRepo(root)
			for _, f := range files {
				want := staged[f]
				got, ok := repo.indexEntry(f)
				if len(want) < 2 || !ok || got != want[1] {
					t.Errorf("%s v%d: %s: got %s %v, want %v", format, version, f[:min(len(f), 20)], got, ok, want)
				}
			}
		}
	}
	// Hostile bytes: never a panic.
	for _, data := range []string{"", "DIRC", "DIRC\x00\x00\x00\x04\x00\x00\x00\x05", "DIRC\x00\x00\x00\x02\xff\xff\xff\xff" + strings.Repeat("\x00", 80)} {
		parseIndex([]byte(data), 20, map[string]string{})
	}
}

func FuzzParseIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01" + strings.Repeat("\x00", 62) + "\x00a\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parseIndex(data, 20, map[string]string{})
	})
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("sets:\n  - record: t.yaml\n    languages: {en: \"en/**/*.md\", zh: \"zh/**/*.md\"}\n"))
	f.Add([]byte("sets: [{record: a, languages: {en: '*.md', zh: '*.zh.md'}, exclude: ['x']}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sets, _, err := parseConfig(data)
		if err == nil {
			for _, s := range sets {
				s.classify("en/a.md")
			}
		}
	})
}

func TestAttributesParse(t *testing.T) {
	s := parseAttributes("# comment\n\"sp ace.md\" text\n*.md -text eol=lf\n!neg text\n[attr]doc text eol=crlf\ndocs/ binary\n", "sub", true)
	if len(s.lines) != 3 || s.lines[0].pattern != "sp ace.md" || !s.lines[2].mustDir || s.macros["doc"] == nil {
		t.Errorf("parsed %+v", s)
	}
	if !s.lines[1].matches("sub/x/a.md") || s.lines[2].matches("sub/docs") {
		t.Error("matching")
	}
	_ = os.Remove
}

// Whatever a path holds, its quoted form is printable valid UTF-8 with no control
// byte, and reads back (C-unquoted, as git's quoting does) as the same bytes.
func FuzzQuotePath(f *testing.F) {
	for _, s := range []string{"a", "a\x1b[2K\r", "bad\xff", "c1\u009b", "\u202e", `q"\`, "文档", "\x00\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := QuotePath(s)
		if !utf8.ValidString(q) {
			t.Fatalf("QuotePath(%q) = %q is not UTF-8", s, q)
		}
		for _, r := range q {
			if r < 0x20 || r == 0x7f || unsafeRune(r) {
				t.Fatalf("QuotePath(%q) = %q holds %U", s, q, r)
			}
		}
		if q == s {
			return
		}
		back, n, ok := cUnquote(q)
		if !ok || n != len(q) || back != s {
			t.Fatalf("QuotePath(%q) = %q reads back as %q (%v)", s, q, back, ok)
		}
	})
}
