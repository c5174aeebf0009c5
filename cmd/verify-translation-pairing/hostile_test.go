package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cliBounded runs the command and fails the test, rather than hang it, if the
// command does not finish: a named pipe opened for reading blocks forever.
func cliBounded(t *testing.T, dir string, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() { done <- cli(dir, args...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(60 * time.Second):
		t.Fatalf("verify-translation-pairing %v did not finish: it blocked", args)
		return result{}
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	os.RemoveAll(p)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
}

// A named pipe wherever the tool reads a file (.git, commondir, config, a side,
// a record, the config, .gitattributes, the index, an object) never blocks it:
// each ends with a clear status.
func TestNamedPipesNeverBlock(t *testing.T) {
	tests := []struct {
		name, fifo string
		code       int
		want       string
	}{
		{".git file", ".git", 2, ".git: not a regular file (a named pipe)"},
		{"git config", ".git/config", 2, ".git/config: not a regular file (a named pipe); git would wait on it"},
		// git reads these without checking their type: the tool says so rather
		// than let git wait.
		{"commondir", ".git/commondir", 2, ".git/commondir: not a regular file (a named pipe); git would wait on it"},
		{"index", ".git/index", 2, ".git/index: not a regular file (a named pipe); git would wait on it"},
		{"HEAD", ".git/HEAD", 2, ".git/HEAD: not a regular file (a named pipe); git would wait on it"},
		{".gitattributes", ".gitattributes", 2, ".gitattributes: not a regular file (a named pipe); git would wait on it"},
		{".gitignore", ".gitignore", 2, ".gitignore: not a regular file (a named pipe); git would wait on it"},
		{"info/attributes", ".git/info/attributes", 2, ".git/info/attributes: not a regular file (a named pipe); git would wait on it"},
		{"side", "README.zh.md", 1, "unreadable    README.zh.md cannot be read: not a regular file (a named pipe)"},
		{"record", "README.i18n.yaml", 1, "unreadable    README.i18n.yaml cannot be read: not a regular file (a named pipe)"},
		{"config", ".translation-pairing.yaml", 1, "unreadable    .translation-pairing.yaml cannot be read: not a regular file (a named pipe)"},
	}
	// Every case starts from this recorded, staged pair, each in its own copy.
	start := newRepo(t, "")
	put(t, start, "README.md", "hello\n")
	put(t, start, "README.zh.md", "你好\n")
	record(t, start, ".", "README.md", "README.zh.md")
	gitCmd(t, start, "add", ".")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := copyRepo(t, start)
			if tt.name == ".git file" {
				os.RemoveAll(filepath.Join(root, ".git"))
			}
			mkfifo(t, filepath.Join(root, tt.fifo))
			r := cliBounded(t, root)
			out := r.stdout + r.stderr
			if r.code != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, want %d and %q\n%s", r.code, tt.code, tt.want, out)
			}
			// --write too: it reads the same files.
			cliBounded(t, root, "--write", "README.md")
		})
	}
	t.Run("loose object of the confirmed blob", func(t *testing.T) {
		root := newRepo(t, "")
		put(t, root, "README.md", "hello\n")
		put(t, root, "README.zh.md", "你好\n")
		oid := record(t, root, ".", "README.md", "README.zh.md")[0] // git's hash of README.md
		mkfifo(t, filepath.Join(root, ".git", "objects", oid[:2], oid[2:]))
		put(t, root, "README.md", "hello again\n")
		r := cliBounded(t, root)
		if r.code != 1 || !strings.Contains(r.stdout, "README.md: no diff: loose object "+oid+": not a regular file (a named pipe)") {
			t.Errorf("exit %d\n%s", r.code, r.stdout)
		}
	})
}

// Folder names holding ESC, CR, an OSC sequence, C1 controls, bidi overrides or
// bytes that are not UTF-8 are printed quoted, as git quotes paths: no line of
// the text output holds a control byte, and none can be made to read "confirmed".
func TestPathsAreQuoted(t *testing.T) {
	names := []string{
		"a\x1b[2K\rconfirmed     fake",
		"osc\x1b]0;title\x07",
		"cr\rx",
		"c1\u009b31m",
		"bidi\u202egnp.exe",
		"bad\xff\xfeutf8",
		"nl\nconfirmed",
		`quote"back\slash`,
	}
	root := newRepo(t, "")
	for _, n := range names {
		put(t, root, n+"/README.md", "x\n")
		put(t, root, n+"/README.zh.md", "y\n")
	}
	r := cliBounded(t, root)
	if r.code != 1 {
		t.Errorf("exit %d\n%s", r.code, r.stdout)
	}
	for i, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		for _, c := range []byte(line) {
			if c < 0x20 && c != '\t' || c == 0x7f {
				t.Errorf("line %d holds control byte %#x: %q", i, c, line)
			}
		}
		if strings.Contains(line, "\u009b") || strings.Contains(line, "\u202e") || !utf8Valid(line) {
			t.Errorf("line %d holds a C1 control, bidi override or invalid UTF-8: %q", i, line)
		}
		if strings.HasPrefix(line, "confirmed") {
			t.Errorf("line %d reads as a confirmation: %q", i, line)
		}
	}
	// Where git with core.quotePath=false quotes (controls, quote, backslash), the
	// tool quotes the same way.
	gitNames := gitCmd(t, root, "-c", "core.quotePath=false", "ls-files", "--others", "--", "*README.md")
	for _, want := range strings.Split(gitNames, "\n") {
		if !utf8Valid(want) || strings.Contains(want, "\u202e") || strings.Contains(want, "\u009b") {
			continue // git leaves these raw with quotePath off; the tool quotes them
		}
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks git's quoting %s:\n%s", want, r.stdout)
		}
	}
	// JSON cannot hold bytes that are not UTF-8: such a path comes quoted too.
	js := cliBounded(t, root, "--json")
	if !strings.Contains(js.stdout, `"pathQuoted": "\"bad\\377\\376utf8/README.md\""`) {
		t.Errorf("--json lacks the quoted form of a non-UTF-8 path:\n%s", js.stdout)
	}
	if !strings.Contains(r.stdout, `"bad\377\376utf8/README.md"`) || !strings.Contains(r.stdout, `"c1\302\23331m/README.md"`) {
		t.Errorf("invalid UTF-8 and C1 controls not quoted as octal bytes:\n%s", r.stdout)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\ufffd") == s }

// --write for a folder whose name is not valid UTF-8 makes a record the tool
// then confirms (the comment names the folder generically), and a config side
// whose name cannot be recorded is refused with a clear status.
func TestWriteUnrecordableNames(t *testing.T) {
	root := newRepo(t, "")
	dir := "bad\xffname"
	put(t, root, dir+"/README.md", "x\n")
	put(t, root, dir+"/README.zh.md", "y\n")
	r := cliBounded(t, root, "--write", dir+"/README.md")
	if r.code != 0 || !strings.Contains(r.stdout, "created the record") {
		t.Fatalf("--write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := cliBounded(t, root); r.code != 0 {
		t.Errorf("the record it wrote does not confirm: exit %d\n%s", r.code, r.stdout)
	}
	put(t, root, ".translation-pairing.yaml", "sets:\n  - record: t.i18n.yaml\n    languages: {en: \"en/*.md\", zh: \"zh/*.md\"}\n")
	put(t, root, "en/\xfe.md", "x\n")
	put(t, root, "zh/\xfe.md", "y\n")
	r = cliBounded(t, root, "--write", "en/\xfe.md")
	if r.code != 1 || !strings.Contains(r.stdout, `--write failed: cannot record "en/\376.md": the name is not valid UTF-8`) {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "t.i18n.yaml")); err == nil {
		t.Error("a record was written anyway")
	}
	noTemps(t, root)
}

func noTemps(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(d.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// A --write killed at any moment leaves the record whole and, at worst, a
// temporary file that the next run removes (and names); one a live --write holds
// is left alone.
func TestKilledWriteLeavesNothingBehind(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "README.md", "hello\n")
	put(t, root, "README.zh.md", "你好\n")
	record(t, root, ".", "README.md", "README.zh.md")
	before := get(t, root, "README.i18n.yaml")
	// What a kill -9 between creating and renaming the temporary file leaves.
	put(t, root, ".README.i18n.yaml.123456.tmp", "half a rec")
	put(t, root, ".README.i18n.yaml.notdigits.tmp", "not ours")
	r := cliBounded(t, root)
	if r.code != 0 || !strings.Contains(r.stdout, "cleaned       .README.i18n.yaml.123456.tmp: removed, left by an interrupted --write\n") {
		t.Errorf("exit %d\n%s", r.code, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(root, ".README.i18n.yaml.123456.tmp")); err == nil {
		t.Error("the stale temporary file is still there")
	}
	if _, err := os.Stat(filepath.Join(root, ".README.i18n.yaml.notdigits.tmp")); err != nil {
		t.Error("a file that is not one of the tool's temporaries was removed")
	}
	if get(t, root, "README.i18n.yaml") != before {
		t.Error("the record changed")
	}
	// The same beside a configured set's record.
	put(t, root, ".translation-pairing.yaml", mirroredConfig)
	put(t, root, "docs/.translations.i18n.yaml.42.tmp", "half")
	r = cliBounded(t, root)
	if !strings.Contains(r.stdout, "cleaned       docs/.translations.i18n.yaml.42.tmp: removed") {
		t.Errorf("set record's leftover not removed:\n%s", r.stdout)
	}
	noTemps(t, filepath.Join(root, "docs"))
}

// kills is how many runs TestKillNineDuringWrite kills: every other kill moment of its
// 0-9 ms cycle in go test ./..., each moment three times over with -kills 30 (.ci/run).
var kills = flag.Int("kills", 5, "TestKillNineDuringWrite: how many --write runs to kill")

// Real kills: a child process running --write is killed with SIGKILL at moments 0 to 9 ms
// after its start, many times; the record is always whole and no temporary file survives
// the next run.
func TestKillNineDuringWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes; not in -short")
	}
	root := newRepo(t, "")
	put(t, root, "README.md", "hello\n")
	put(t, root, "README.zh.md", "你好\n")
	if r := cli(root, "--write", "README.md"); r.code != 0 {
		t.Fatal(r.stdout, r.stderr)
	}
	valid := map[string]bool{get(t, root, "README.i18n.yaml"): true}
	step := max(1, 10 / *kills) // fewer than ten kills spread over the cycle
	for i := 0; i < *kills; i++ {
		put(t, root, "README.md", strings.Repeat("hello\n", i+2))
		cmd := exec.Command(os.Args[0], "-C", root, "--write", "README.md")
		cmd.Env = append(os.Environ(), "VTP_RUN_MAIN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i*step%10) * time.Millisecond)
		cmd.Process.Kill()
		err := cmd.Wait()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		rec := get(t, root, "README.i18n.yaml")
		if r := cli(root, "README.i18n.yaml"); strings.Contains(r.stdout, "malformed") {
			t.Fatalf("kill %d left a malformed record:\n%s", i, rec)
		}
		valid[rec] = true
		cli(root) // removes what the kill left
		noTemps(t, root)
	}
}

// The hooks end their entry with "--", so a staged file whose name looks like an
// option is a file, never an option.
func TestHookFilesNamedLikeOptions(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "README.md", "x\n")
	put(t, root, "README.zh.md", "y\n")
	record(t, root, ".", "README.md", "README.zh.md")
	put(t, root, "--write", "not an option\n")
	put(t, root, "-C", "not an option\n")
	r := cliBounded(t, root, "--pre-commit", "--", "--write", "-C")
	if r.code != 0 || r.stdout != "" {
		t.Errorf("irrelevant files named like options: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := get(t, root, "README.i18n.yaml"); !strings.HasPrefix(got, "# test record\n") {
		t.Errorf("the record changed: %q", got)
	}
	put(t, root, "README.zh.md", "z\n")
	if r := cliBounded(t, root, "--pre-commit", "--", "-C", "README.zh.md"); r.code != 1 ||
		!strings.Contains(r.stdout, "re-record with: pre-commit run record-translation-pairing --hook-stage manual --files README.md") {
		t.Errorf("a relevant file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A repository's config cannot make the check run a command (core.fsmonitor is
// a command git would run while listing files).
func TestRepositoryConfigRunsNothing(t *testing.T) {
	root := newRepo(t, "")
	marker := filepath.Join(t.TempDir(), "ran")
	script := filepath.Join(t.TempDir(), "monitor.sh")
	os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
	gitCmd(t, root, "config", "core.fsmonitor", script)
	put(t, root, "README.md", "x\n")
	put(t, root, "README.zh.md", "y\n")
	record(t, root, ".", "README.md", "README.zh.md")
	os.Remove(marker) // git itself may have run it while the test set up
	if r := cliBounded(t, root); r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the check ran the repository's core.fsmonitor command")
	}
}

// A config of one huge mapping is refused before yaml.v3 decodes it, which
// compares every key of a mapping with every other: 20,000 keys took 4 s, a
// 300 KB config 52 s, 1 MiB about ten minutes.
func TestConfigMappingOfManyKeysRefused(t *testing.T) {
	for name, config := range map[string]string{
		"top":       "",
		"set":       "sets:\n  - record: t.i18n.yaml\n    languages: {en: \"*.md\", zh: \"*.zh.md\"}\n    ",
		"languages": "sets:\n  - record: t.i18n.yaml\n    languages:\n      ",
	} {
		root := newRepo(t, "")
		var b strings.Builder
		for i := range 20000 {
			fmt.Fprintf(&b, "%sk%d: x\n", config[strings.LastIndexByte(config, '\n')+1:], i)
		}
		put(t, root, ".translation-pairing.yaml", config[:strings.LastIndexByte(config, '\n')+1]+b.String())
		start := time.Now()
		r := cliBounded(t, root)
		want := "malformed     .translation-pairing.yaml: line "
		if r.code != 1 || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, " keys; a config has no more than 1000 in one mapping; fix the config") {
			t.Errorf("%s: exit %d\n%s", name, r.code, r.stdout)
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("%s: took %v", name, d)
		}
	}
}

// The command a message offers for a side whose name starts with "-" works as
// printed: it was "--write -h/README.zh.md", which the tool read as an option.
func TestFixCommandForDashNames(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "-h/README.md", "x\n")
	put(t, root, "-h/README.zh.md", "y\n")
	r := cliBounded(t, root)
	i := strings.Index(r.stdout, "verify-translation-pairing --write ")
	if i < 0 {
		t.Fatalf("no command offered:\n%s", r.stdout)
	}
	args := strings.Fields(strings.SplitN(r.stdout[i:], "\n", 2)[0])[1:]
	if w := cliBounded(t, root, args...); w.code != 0 || !strings.Contains(w.stdout, "created the record") {
		t.Errorf("the offered command %q: exit %d\n%s%s", args, w.code, w.stdout, w.stderr)
	}
}
