package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/internal/pairing"
)

// Repositories where a second implementation of git parted from git (issue 28):
// the tool asks git, so its hashes are git's and its costs are git's.

// A .gitattributes line over 2,048 bytes is ignored by git (with a warning): a
// "-text" on it must not stop core.autocrlf from converting, in a deep folder
// too. The recorded hash is git's.
func TestLongAttributeLineIsIgnoredAsGitDoes(t *testing.T) {
	root := newRepo(t, "")
	gitCmd(t, root, "config", "core.autocrlf", "true")
	var pad []string
	for i := 0; len(strings.Join(pad, " ")) < 2100; i++ {
		pad = append(pad, fmt.Sprintf("attr%d", i))
	}
	put(t, root, ".gitattributes", "*.md "+strings.Join(pad, " ")+" -text\n")
	deep := strings.Repeat("d/", 60)
	put(t, root, deep+"README.md", "# Guide\r\n")
	put(t, root, deep+"README.zh.md", "# 指南\r\n")
	if r := cli(root, "--write", deep+"README.md"); r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// git warns on stderr ("ignoring overly long attributes line"): read stdout only.
	out, err := exec.Command("git", "-C", root, "hash-object", "--", deep+"README.md", deep+"README.zh.md").Output()
	want := strings.Fields(string(out))
	if err != nil || len(want) != 2 {
		t.Fatalf("git hash-object: %v %q", err, out)
	}
	rec := get(t, root, deep+"README.i18n.yaml")
	for _, h := range want {
		if !strings.Contains(rec, h) {
			t.Errorf("the record lacks git's hash %s:\n%s", h, rec)
		}
	}
	// git ignored the line, so it converted CRLF: not the hash of the bytes.
	if raw, _ := exec.Command("git", "-C", root, "hash-object", "--no-filters", deep+"README.md").Output(); strings.TrimSpace(string(raw)) == want[0] {
		t.Error("git applied the long line: the test does not test what it says")
	}
}

// A .git/config that includes itself: git stops with its own error, and so does
// the tool (exit 2, git's words), at once.
func TestSelfIncludingConfigStopsWithGitsError(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "README.md", "x\n")
	put(t, root, "README.zh.md", "y\n")
	record(t, root, ".", "README.md", "README.zh.md")
	put(t, root, ".git/config", get(t, root, ".git/config")+"[include]\n\tpath = config\n\tpath = config\n\tpath = config\n\tpath = config\n")
	r := cliBounded(t, root)
	if r.code != 2 || !strings.Contains(r.stderr, "exceeded maximum include depth") {
		t.Errorf("exit %d, want 2 and git's include-depth error\n%s%s", r.code, r.stdout, r.stderr)
	}
	// git's message spans lines: they stay lines, escaped one by one, not one line of \012.
	if strings.Contains(r.stderr, `\012`) || !strings.Contains(r.stderr, "\n  This might be due to circular includes.") {
		t.Errorf("git's lines are not kept as lines:\n%s", r.stderr)
	}
}

// The confirmed blob at the end of a long delta chain in a pack is read by git:
// the diff and its counts are git's.
func TestDeepDeltaChainIsReadByGit(t *testing.T) {
	root := newRepo(t, "")
	// fast-import deltas each blob against the one before it: one chain.
	var stream strings.Builder
	const n = 300
	body := func(i int) string {
		var b strings.Builder
		for l := 0; l < 200; l++ {
			fmt.Fprintf(&b, "line %d of %d\n", l, min(i, l))
		}
		return b.String()
	}
	for i := 0; i <= n; i++ {
		data := body(i)
		fmt.Fprintf(&stream, "blob\nmark :%d\ndata %d\n%s\n", i+1, len(data), data)
	}
	cmd := exec.Command("git", "-C", root, "fast-import", "--quiet", "--depth=4095")
	cmd.Stdin = strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	put(t, root, "README.md", body(n))
	put(t, root, "README.zh.md", "中文\n")
	record(t, root, ".", "README.md", "README.zh.md")
	if loose, _ := filepath.Glob(filepath.Join(root, ".git/objects/??/*")); len(loose) > 0 {
		gitCmd(t, root, "prune-packed") // the confirmed blob must come from the pack
	}
	longest := 0
	packs, _ := filepath.Glob(filepath.Join(root, ".git/objects/pack/*.idx"))
	for _, p := range packs {
		out := gitCmd(t, root, "verify-pack", "-v", p)
		for _, l := range strings.Split(out, "\n") {
			var d, k int
			if _, err := fmt.Sscanf(l, "chain length = %d: %d", &d, &k); err == nil {
				longest = max(longest, d)
			}
		}
	}
	if longest < n/2 {
		t.Fatalf("the longest delta chain is %d deep, want a deep one", longest)
	}
	put(t, root, "README.md", body(n)+"one more\n")
	put(t, root, "README.zh.md", "中文\n更多\n")
	r := cliBounded(t, root, "--json")
	var rep pairing.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Pairs) != 1 {
		t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	c := rep.Pairs[0].Sides[0].Changes
	if c == nil || c.Source != "git" || c.Added != 1 || c.Removed != 0 || !strings.Contains(c.Diff, "+one more\n") {
		t.Errorf("changes %+v", c)
	}
}

// A 2,100-line change in a large file is counted as git counts it, not as
// everything removed and added.
func TestLargeChangeCountedByGit(t *testing.T) {
	root := newRepo(t, "")
	var old, now strings.Builder
	for i := 0; i < 30000; i++ {
		fmt.Fprintf(&old, "line %d\n", i)
		if i%10 == 0 && i/10 < 2100 {
			fmt.Fprintf(&now, "line %d, edited\n", i)
		} else {
			fmt.Fprintf(&now, "line %d\n", i)
		}
	}
	put(t, root, "README.md", old.String())
	put(t, root, "README.zh.md", "中文\n")
	record(t, root, ".", "README.md", "README.zh.md")
	gitCmd(t, root, "add", "README.md")
	put(t, root, "README.md", now.String())
	r := cliBounded(t, root, "--json")
	var rep pairing.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Pairs) != 1 {
		t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	c := rep.Pairs[0].Sides[0].Changes
	if c == nil || c.Added != 2100 || c.Removed != 2100 || !c.Truncated {
		t.Errorf("changes: %+v", c)
	}
}

// A repository git refuses (bare, owned by another user, a broken .git file)
// is exit 2 with git's words and no "--help for usage": the command line was right.
func TestRefusedRepositoryIsNotAUsageError(t *testing.T) {
	bare := t.TempDir()
	gitCmd(t, bare, "init", "--bare", "-q")
	broken := t.TempDir()
	put(t, broken, ".git", "gitdir: "+filepath.Join(broken, "nowhere")+"\n")
	for dir, want := range map[string]string{
		bare:   "fatal: this operation must be run in a work tree",
		broken: "fatal: not a git repository: ",
	} {
		r := cliBounded(t, dir)
		if r.code != 2 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "for usage") {
			t.Errorf("%s: exit %d, want 2 and %q without a usage hint\n%s", dir, r.code, want, r.stderr)
		}
	}
}

// A clean filter that hangs costs one git timeout, not one more per side: a
// batch that timed out is not asked again side by side (3 pairs took 7 timeouts).
func TestHangingFilterCostsOneTimeout(t *testing.T) {
	defer func(d time.Duration) { pairing.GitTimeout = d }(pairing.GitTimeout)
	pairing.GitTimeout = time.Second
	root := newRepo(t, "")
	for _, d := range []string{"a", "b", "c"} {
		put(t, root, d+"/README.md", "x\n")
		put(t, root, d+"/README.zh.md", "y\n")
		record(t, root, d, "README.md", "README.zh.md")
	}
	put(t, root, ".gitattributes", "*.md filter=hang\n")
	gitCmd(t, root, "config", "filter.hang.clean", "sleep 5") // outlives the 1 s timeout (which ends it: TestGitTimeoutEndsTheFilterAndItsChild)
	start := time.Now()
	r := cliBounded(t, root)
	if d := time.Since(start); r.code != 1 || d > 4*time.Second || !strings.Contains(r.stdout, "no answer within 1s") {
		t.Errorf("exit %d after %v\n%s%s", r.code, d, r.stdout, r.stderr)
	}
}

// A corrupt loose object of the confirmed blob is named corrupt in git's words,
// not "not in the repository's objects" (what cat-file --batch answers for both).
func TestCorruptConfirmedBlobQuotesGit(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "README.md", "hello\n")
	put(t, root, "README.zh.md", "你好\n")
	oid := record(t, root, ".", "README.md", "README.zh.md")[0]
	gitCmd(t, root, "add", ".")
	obj := filepath.Join(root, ".git", "objects", oid[:2], oid[2:])
	os.Chmod(obj, 0o644)
	if err := os.WriteFile(obj, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	put(t, root, "README.md", "hello again\n")
	r := cliBounded(t, root)
	if r.code != 1 || !strings.Contains(r.stdout, "is in the repository's objects, but git cannot read it: git cat-file -t "+oid+": error: ") {
		t.Errorf("exit %d\n%s", r.code, r.stdout)
	}
}

// The attributes that explain a conversion are asked of git once a run, not
// twice a side: 200 CRLF pairs under core.autocrlf took 12.9 s, 800 git calls.
func TestConversionAttributesAskedOnce(t *testing.T) {
	root := newRepo(t, "")
	gitCmd(t, root, "config", "core.autocrlf", "true")
	for i := range 20 {
		d := fmt.Sprintf("d%d", i)
		put(t, root, d+"/README.md", "a\r\n")
		put(t, root, d+"/README.zh.md", "b\r\n")
		record(t, root, d, "README.md", "README.zh.md")
	}
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
	os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho \"$@\" >> "+log+"\nexec "+real+" \"$@\"\n"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	r := cliBounded(t, root, "--json")
	calls, _ := os.ReadFile(log)
	if n := strings.Count(string(calls), " check-attr "); r.code != 0 || n != 1 || !strings.Contains(r.stdout, `"core.autocrlf": "true"`) {
		t.Errorf("exit %d, %d check-attr calls, want 1\n%s", r.code, n, r.stdout[:min(len(r.stdout), 2000)])
	}
}
