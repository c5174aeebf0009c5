package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/internal/pairing"
)

const seedFolder = "packages/context/session-reference"

// The upstream package's own record is a confirmed pair, in a git repository and
// outside one, and every hash it holds is the one git computes.
func TestSeedIsConfirmed(t *testing.T) {
	for _, format := range []string{"", "none"} {
		root := newRepo(t, format)
		copySeed(t, root, seedFolder)
		r := cli(root)
		want := "confirmed     " + seedFolder + "/README.md <-> " + seedFolder + "/README.zh.md (" + seedFolder + "/README.i18n.yaml)\n1 pair: 1 confirmed, 0 not confirmed\n"
		if r.code != 0 || r.stdout != want {
			t.Errorf("format %q: exit %d\n%s%s\nwant:\n%s", format, r.code, r.stdout, r.stderr, want)
		}
	}
	root := newRepo(t, "")
	copySeed(t, root, seedFolder)
	rec := get(t, root, seedFolder+"/README.i18n.yaml")
	sides := []string{"README.md", "README.zh.md"}
	hashes := hashObjects(t, root, seedFolder+"/"+sides[0], seedFolder+"/"+sides[1])
	for i, side := range sides {
		h := hashes[i]
		if !strings.Contains(rec, side+": "+h+"\n") {
			t.Errorf("git hash-object %s = %s, not what the seed records", side, h)
		}
	}
}

// Editing one side of the seed names that side and the one to bring along; --write
// then replaces that hash and nothing else in the record.
func TestSeedChangedThenRewritten(t *testing.T) {
	root := newRepo(t, "")
	copySeed(t, root, seedFolder)
	before := get(t, root, seedFolder+"/README.i18n.yaml")
	put(t, root, seedFolder+"/README.zh.md", get(t, root, seedFolder+"/README.zh.md")+"\n新增一段。\n")
	r := cli(root)
	want := "changed       " + seedFolder + "/README.zh.md changed since confirmation; bring " + seedFolder +
		"/README.md along, then re-record with: verify-translation-pairing --write " + seedFolder + "/README.md (if " +
		seedFolder + "/README.md needs no change: verify-translation-pairing --write --other-side-needs-no-change " + seedFolder + "/README.md)\n"
	if r.code != 1 || !strings.HasPrefix(r.stdout, want) || !strings.HasSuffix(r.stdout, "1 pair: 0 confirmed, 1 not confirmed\n") {
		t.Fatalf("exit %d\n%s\nwant prefix:\n%s", r.code, r.stdout, want)
	}
	// Only one side changed: --write alone refuses, and writes nothing.
	if r = cli(filepath.Join(root, seedFolder), "README.md", "--write"); r.code != 1 || !strings.Contains(r.stdout, "--write refused: only ") {
		t.Fatalf("one-sided --write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := get(t, root, seedFolder+"/README.i18n.yaml"); got != before {
		t.Fatalf("a refused --write changed the record:\n%s", got)
	}
	// Run from inside the package folder, as a person would, flags after the path.
	r = cli(filepath.Join(root, seedFolder), "README.md", "--write", "--other-side-needs-no-change")
	if r.code != 0 || !strings.Contains(r.stdout, "re-recorded the current hashes") {
		t.Fatalf("--write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	after := get(t, root, seedFolder+"/README.i18n.yaml")
	wantAfter := strings.Replace(before, "5d528a296ee77dc64b584d0683395cb4df67936a", hashObject(t, root, seedFolder+"/README.zh.md"), 1)
	if diff := cmp.Diff(wantAfter, after); diff != "" {
		t.Errorf("record after --write (-want +got):\n%s", diff)
	}
	if r := cli(root); r.code != 0 {
		t.Errorf("after --write: exit %d\n%s", r.code, r.stdout)
	}
}

// Each way a pair can be wrong gets its own status, message and exit status 1;
// none panics, and a check never writes.
func TestStatuses(t *testing.T) {
	outside := t.TempDir()
	put(t, outside, "secret.md", "not yours\n")
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
		want  []string // substrings of stdout
	}{
		{"both changed", func(t *testing.T, root string) {
			put(t, root, "docs/README.md", "new\n")
			put(t, root, "docs/README.zh.md", "新\n")
		}, []string{"both-changed  docs/README.md and docs/README.zh.md both changed since confirmation; re-confirm they match, then re-record with: verify-translation-pairing --write docs/README.md"}},
		{"side missing", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "docs/README.zh.md"))
		}, []string{"missing       docs/README.zh.md is missing (named in docs/README.i18n.yaml); restore it, or delete the record"}},
		{"malformed YAML", func(t *testing.T, root string) {
			put(t, root, "docs/README.i18n.yaml", "README.md: [unclosed\n")
		}, []string{"malformed     docs/README.i18n.yaml: line 1: not valid YAML"}},
		{"record names a parent path", func(t *testing.T, root string) {
			h := hashObject(t, root, "docs/README.md")
			put(t, root, "docs/README.i18n.yaml", "README.md: "+h+"\n../README.md: "+h+"\n")
		}, []string{`malformed     docs/README.i18n.yaml: line 2: "../README.md" names a path outside the record's folder`}},
		{"record names an absolute path", func(t *testing.T, root string) {
			h := hashObject(t, root, "docs/README.md")
			put(t, root, "docs/README.i18n.yaml", "README.md: "+h+"\n"+outside+"/secret.md: "+h+"\n")
		}, []string{"names a path outside the record's folder"}},
		{"side is a symlink out of the repository", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "docs/README.zh.md"))
			os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "docs/README.zh.md"))
		}, []string{"unreadable    docs/README.zh.md cannot be read: symbolic link leads outside the repository (to " + outside + "/secret.md)\n"}},
		{"record is a symlink out of the repository", func(t *testing.T, root string) {
			put(t, outside, "README.i18n.yaml", "x: y\n")
			os.Remove(filepath.Join(root, "docs/README.i18n.yaml"))
			os.Symlink(filepath.Join(outside, "README.i18n.yaml"), filepath.Join(root, "docs/README.i18n.yaml"))
		}, []string{"unreadable    docs/README.i18n.yaml cannot be read: symbolic link leads outside the repository"}},
		{"side is a dangling symlink", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "docs/README.zh.md"))
			os.Symlink("nowhere.md", filepath.Join(root, "docs/README.zh.md"))
		}, []string{"missing       docs/README.zh.md is missing"}},
		{"side is a directory", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "docs/README.zh.md"))
			os.Mkdir(filepath.Join(root, "docs/README.zh.md"), 0o755)
		}, []string{"docs/README.zh.md cannot be read: not a regular file (a directory)"}},
		{"side is a named pipe", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "docs/README.zh.md"))
			if err := syscall.Mkfifo(filepath.Join(root, "docs/README.zh.md"), 0o644); err != nil {
				t.Skip(err)
			}
		}, []string{"docs/README.zh.md cannot be read: not a regular file (a named pipe)"}},
		{"translation without a record", func(t *testing.T, root string) {
			put(t, root, "guide/README.md", "guide\n")
			put(t, root, "guide/README.ja.md", "ガイド\n")
		}, []string{"unrecorded    guide/README.ja.md is beside guide/README.md with no record (guide/README.i18n.yaml); once they match, record the pair with: verify-translation-pairing --write guide/README.ja.md"}},
		{"translation the record does not name", func(t *testing.T, root string) {
			put(t, root, "docs/README.ko.md", "문서\n")
		}, []string{"confirmed     docs/README.md <-> docs/README.zh.md", "unrecorded    docs/README.ko.md is not named in docs/README.i18n.yaml; once it matches docs/README.md, add it with: verify-translation-pairing --write docs/README.ko.md", "2 pairs: 1 confirmed, 1 not confirmed"}},
	}
	// Every case starts from this recorded pair, each in its own copy.
	start := newRepo(t, "")
	put(t, start, "docs/README.md", "docs\n")
	put(t, start, "docs/README.zh.md", "文档\n")
	record(t, start, "docs", "README.md", "README.zh.md")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := copyRepo(t, start)
			tt.setup(t, root)
			rec, _ := os.ReadFile(filepath.Join(root, "docs/README.i18n.yaml"))
			r := cli(root)
			if r.code != 1 {
				t.Errorf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("output lacks %q:\n%s", w, r.stdout)
				}
			}
			if again, _ := os.ReadFile(filepath.Join(root, "docs/README.i18n.yaml")); string(again) != string(rec) {
				t.Error("a check changed the record")
			}
			// The same verdict when the folder's README is named on the command line.
			if r2 := cli(root, "docs/README.md"); r2.code != 1 && !strings.HasPrefix(tt.name, "translation") {
				t.Errorf("docs/README.md named: exit %d\n%s%s", r2.code, r2.stdout, r2.stderr)
			}
		})
	}
}

// --write creates a record for a new pair whose hashes are git's, in both object
// formats, and the pair is confirmed afterwards.
func TestWriteCreatesRecord(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			root := newRepo(t, format)
			put(t, root, "README.md", "hello\n")
			put(t, root, "README.zh.md", "你好\n")
			put(t, root, "README.pt-BR.md", "olá\n")
			if r := cli(root); r.code != 1 || !strings.Contains(r.stdout, "unrecorded    README.pt-BR.md and README.zh.md are beside README.md with no record") {
				t.Fatalf("before: exit %d\n%s", r.code, r.stdout)
			}
			r := cli(root, "--write", "README.zh.md")
			if r.code != 0 || !strings.Contains(r.stdout, "created the record") {
				t.Fatalf("--write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			h := hashObjects(t, root, "README.md", "README.pt-BR.md", "README.zh.md")
			want := "# Translation-pair record: the git blob hash of each side as of the last state a\n" +
				"# person confirmed consistent. Both languages carry equal authority; after editing\n" +
				"# either side, bring the other along and re-record with:\n" +
				"#   verify-translation-pairing --write README.md\n" +
				"README.md: " + h[0] + "\n" +
				"README.pt-BR.md: " + h[1] + "\n" +
				"README.zh.md: " + h[2] + "\n"
			if diff := cmp.Diff(want, get(t, root, "README.i18n.yaml")); diff != "" {
				t.Errorf("record (-want +got):\n%s", diff)
			}
			if r := cli(root); r.code != 0 || !strings.Contains(r.stdout, "1 pair: 1 confirmed, 0 not confirmed") {
				t.Errorf("after: exit %d\n%s", r.code, r.stdout)
			}
		})
	}
}

// Adding a translation to an existing record appends it and leaves the hashes of
// the sides already there alone: nobody confirmed those again.
func TestWriteAddsTranslation(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "README.md", "hello\n")
	put(t, root, "README.zh.md", "你好\n")
	record(t, root, ".", "README.md", "README.zh.md")
	put(t, root, "README.zh.md", "你好！\n") // changed since confirmation
	put(t, root, "README.ja.md", "こんにちは\n")
	before := get(t, root, "README.i18n.yaml")
	r := cli(root, "--write", "README.ja.md")
	if r.code != 1 || !strings.Contains(r.stdout, "changed       README.zh.md changed since confirmation; bring README.md and README.ja.md along") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Only the new side was written: the message must not claim the pair was re-recorded.
	if strings.Contains(r.stdout, "re-recorded") || !strings.Contains(r.stdout, ": recorded only what is listed below; the pair is still changed\n") {
		t.Errorf("the message does not say that only the new side was recorded:\n%s", r.stdout)
	}
	want := before + "README.ja.md: " + hashObject(t, root, "README.ja.md") + "\n"
	if diff := cmp.Diff(want, get(t, root, "README.i18n.yaml")); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
}

func TestWriteRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
		arg   string
		want  string
	}{
		{"malformed record", func(t *testing.T, root string) {
			put(t, root, "README.i18n.yaml", "README.md: nope\nREADME.zh.md: nope\n")
		}, "README.md", "fix or delete README.i18n.yaml first"},
		{"missing side", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "README.zh.md"))
		}, "README.md", "README.zh.md is missing"},
		{"record is a symlink", func(t *testing.T, root string) {
			os.Rename(filepath.Join(root, "README.i18n.yaml"), filepath.Join(root, "real.yaml"))
			os.Symlink("real.yaml", filepath.Join(root, "README.i18n.yaml"))
			put(t, root, "README.md", "changed\n")
			put(t, root, "README.zh.md", "改了\n")
		}, "README.md", "is a symbolic link; --write replaces only regular files"},
	}
	// Every case starts from this recorded pair, each in its own copy.
	start := newRepo(t, "")
	put(t, start, "README.md", "hello\n")
	put(t, start, "README.zh.md", "你好\n")
	record(t, start, ".", "README.md", "README.zh.md")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := copyRepo(t, start)
			tt.setup(t, root)
			before, _ := os.ReadFile(filepath.Join(root, "README.i18n.yaml"))
			r := cli(root, "--write", tt.arg)
			if r.code != 1 || !strings.Contains(r.stdout, "--write failed: ") || !strings.Contains(r.stdout, tt.want) {
				t.Errorf("exit %d, want 1 and %q\n%s%s", r.code, tt.want, r.stdout, r.stderr)
			}
			if after, _ := os.ReadFile(filepath.Join(root, "README.i18n.yaml")); string(after) != string(before) {
				t.Error("the record changed")
			}
		})
	}
}

// A read-only folder makes --write fail with a clear message and exit 1, leaving
// the record as it was. Root ignores file modes, so as root the command runs in a
// child process as the unprivileged user nobody.
func TestWriteReadOnlyFolder(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "docs/README.md", "hello\n")
	put(t, root, "docs/README.zh.md", "你好\n")
	record(t, root, "docs", "README.md", "README.zh.md")
	put(t, root, "docs/README.md", "hello again\n")
	before := get(t, root, "docs/README.i18n.yaml")
	if err := os.Chmod(filepath.Join(root, "docs"), 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "docs"), 0o755) })
	var r result
	if os.Geteuid() != 0 {
		r = cli(root, "--write", "docs/README.md")
	} else {
		r = runAsNobody(t, root, "--write", "docs/README.md")
	}
	want := "--write failed: cannot write docs/README.i18n.yaml: its folder is not writable (permission denied); the record was left as it was"
	if r.code != 1 || !strings.Contains(r.stdout, want) {
		t.Errorf("exit %d, want 1 and %q\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	if get(t, root, "docs/README.i18n.yaml") != before {
		t.Error("the record changed")
	}
}

// runAsNobody runs the command as uid 65534 in a child process: this test binary,
// copied where that user can execute it.
func runAsNobody(t *testing.T, root string, args ...string) result {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "vtp.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	// Let nobody reach the binary and the repository through the temporary folders.
	for _, p := range []string{bin, root} {
		for d := filepath.Dir(p); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
			info, err := os.Stat(d)
			if err == nil && info.Mode().Perm()&0o005 != 0o005 {
				os.Chmod(d, info.Mode().Perm()|0o005)
			}
		}
	}
	os.Chmod(root, 0o755)
	var out, errOut strings.Builder
	cmd := exec.Command(bin, append([]string{"-C", root}, args...)...)
	// git refuses a repository another user owns unless told it is safe.
	cmd.Env = append(os.Environ(), "VTP_RUN_MAIN=1", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Skipf("cannot run as nobody: %v", err)
	}
	return result{code, out.String(), errOut.String()}
}

func TestUsage(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "README.md", "hello\n")
	put(t, root, "README.zh.md", "你好\n")
	put(t, root, "NOTES.md", "notes\n")
	outside := t.TempDir()
	put(t, outside, "README.md", "x\n")
	tests := []struct {
		args []string
		code int
		want string // substring of stderr (stdout for --help)
	}{
		{[]string{"--help"}, 0, "usage: verify-translation-pairing"},
		{[]string{"-h"}, 0, "Exit status: 0 every pair confirmed"},
		{[]string{"--bogus"}, 2, "unknown option --bogus"},
		{[]string{"--write"}, 2, "--write needs the pair to re-record"},
		{[]string{"NOTES.md"}, 2, "NOTES.md is not a side of a translation pair"},
		{[]string{"gone/README.md"}, 2, "gone/README.md: no such folder"},
		{[]string{"README.i18n.yaml"}, 2, "README.i18n.yaml: no such record"},
		{[]string{"README.fr.md"}, 2, "README.fr.md: no such file, and no README.i18n.yaml beside it names it"},
		{[]string{filepath.Join(outside, "README.md")}, 2, "is outside the repository"},
		{[]string{"../" + filepath.Base(outside) + "/README.md"}, 2, "is outside the repository"},
		{[]string{""}, 2, "an empty path"},
	}
	for _, tt := range tests {
		var out, errOut strings.Builder
		code := run(append([]string{"-C", root}, tt.args...), strings.NewReader(""), &out, &errOut)
		text := errOut.String()
		if tt.code == 0 {
			text = out.String()
		}
		if code != tt.code || !strings.Contains(text, tt.want) {
			t.Errorf("%q: exit %d, want %d and %q\nstdout:%s\nstderr:%s", tt.args, code, tt.code, tt.want, out.String(), errOut.String())
		}
	}
	var out, errOut strings.Builder
	if code := run([]string{"-C", filepath.Join(root, "nope")}, nil, &out, &errOut); code != 2 {
		t.Errorf("-C to a missing folder: exit %d", code)
	}
}

// A path named under a relative -C is taken from that folder, as git -C does.
func TestRelativeFolder(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "README.md", "hello\n")
	put(t, root, "README.zh.md", "你好\n")
	t.Chdir(filepath.Dir(root))
	if r := cli(filepath.Base(root), "--write", "README.md"); r.code != 0 || !strings.Contains(r.stdout, "created the record") {
		t.Errorf("--write under a relative -C: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := cli(filepath.Base(root), "README.zh.md"); r.code != 0 {
		t.Errorf("a check under a relative -C: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// --json prints the documented schema; decoding it gives back the verdicts.
func TestJSON(t *testing.T) {
	root := newRepo(t, "sha256")
	put(t, root, "README.md", "hello\n")
	put(t, root, "README.zh.md", "你好\n")
	record(t, root, ".", "README.md", "README.zh.md")
	gitCmd(t, root, "add", "README.md", "README.zh.md") // the confirmed blobs become loose objects
	put(t, root, "README.md", "hello, world\n")
	r := cli(root, "--json")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	rec := strings.Fields(get(t, root, "README.i18n.yaml"))
	current := hashObjects(t, root, "README.md", "README.zh.md")
	want := map[string]any{
		"version": 1.0, "root": root, "objectFormat": "sha256", "discovery": "git", "write": false,
		"pairs": []any{map[string]any{
			"status": "changed", "record": "README.i18n.yaml",
			"sides": []any{
				map[string]any{"path": "README.md", "state": "changed", "recorded": rec[len(rec)-3], "current": current[0],
					"changes": map[string]any{"source": "git", "added": 1.0, "removed": 1.0,
						"diff": "--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-hello\n+hello, world\n"}},
				map[string]any{"path": "README.zh.md", "state": "unchanged", "recorded": rec[len(rec)-1], "current": current[1]},
			},
			"message": "README.md changed since confirmation; bring README.zh.md along, then re-record with: verify-translation-pairing --write README.md (if README.zh.md needs no change: verify-translation-pairing --write --other-side-needs-no-change README.md)",
		}},
		"summary": map[string]any{"pairs": 1.0, "confirmed": 0.0, "notConfirmed": 1.0, "byStatus": map[string]any{"changed": 1.0}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("--json (-want +got):\n%s", diff)
	}
	var rep pairing.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Pairs[0].Status != pairing.Changed {
		t.Errorf("decoding into pairing.Report: %v %+v", err, rep)
	}
}

// With no arguments, git's view decides what is in the repository: ignored
// folders are skipped, untracked new translations are not.
func TestDiscovery(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, ".gitignore", "node_modules/\nbuild/\n")
	for _, d := range []string{"node_modules/pkg", "build", "a", "b/c"} {
		put(t, root, d+"/README.md", "x\n")
		put(t, root, d+"/README.zh.md", "y\n")
	}
	record(t, root, "a", "README.md", "README.zh.md")
	gitCmd(t, root, "add", "a")
	r := cli(root)
	want := "confirmed     a/README.md <-> a/README.zh.md (a/README.i18n.yaml)\n" +
		"unrecorded    b/c/README.zh.md is beside b/c/README.md with no record (b/c/README.i18n.yaml); once they match, record the pair with: verify-translation-pairing --write b/c/README.zh.md\n" +
		"2 pairs: 1 confirmed, 1 not confirmed\n"
	if diff := cmp.Diff(want, r.stdout); diff != "" || r.code != 1 {
		t.Errorf("exit %d (-want +got):\n%s", r.code, diff)
	}
	// Outside git, a walk skips node_modules (but has no .gitignore to read).
	plain := newRepo(t, "none")
	put(t, plain, "node_modules/p/README.md", "x\n")
	put(t, plain, "node_modules/p/README.zh.md", "y\n")
	if r := cli(plain); r.code != 0 || r.stdout != "no translation pairs found\n" {
		t.Errorf("walk: exit %d\n%s", r.code, r.stdout)
	}
	// A symlink inside the repository is followed, as git hash-object follows it.
	put(t, plain, "README.md", "x\n")
	put(t, plain, "zh.md", "y\n")
	os.Symlink("zh.md", filepath.Join(plain, "README.zh.md"))
	if r := cli(plain, "--write", "README.md"); r.code != 0 {
		t.Fatalf("write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(get(t, plain, "README.i18n.yaml"), "README.zh.md: "+hashObject(t, plain, "README.zh.md")+"\n") {
		t.Errorf("symlinked side's hash is not git's:\n%s", get(t, plain, "README.i18n.yaml"))
	}
}
