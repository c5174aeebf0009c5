package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// TestDiffScripts runs testdata/diff/*.txtar with the buggy port (internal/testadapters/buggy:
// the reference with a JSON escaping bug in uri.encode) on $PATH.
func TestDiffScripts(t *testing.T) { runScripts(t, "testdata/diff") }

// TestDiffExitCodes checks diff's exit code for each kind of outcome.
func TestDiffExitCodes(t *testing.T) {
	buggy := tool(t, "buggy")
	fake := tool(t, "fakeadapter")
	out := t.TempDir()
	tests := []struct {
		args []string
		code int
		last string
	}{
		{[]string{"--adapter", "reference", "--against", fake + " -mode hang -op config", "--timeout", "300ms", "--ops", "config", "--checks", "5"}, 3, "config: B: "},
		{[]string{"--adapter", "reference", "--ops", "uri.encode,prepare", "--checks", "20"}, 0, "no difference (exit 0)"},
		{[]string{"--adapter", buggy, "--ops", "uri.encode", "--checks", "300", "--seed", "7", "--out", out}, 1, "1 op(s) differ"},
		{[]string{"--adapter", fake + " -mode crash -op uri.decode", "--ops", "uri.encode,uri.decode", "--checks", "20"}, 3, "an adapter is unusable: uri.decode: A: "},
		{[]string{"--adapter", fake + " -mode exit-early", "--ops", "uri.encode"}, 3, "unusable"},
		{[]string{"--adapter", fake + " -mode unsupported", "--ops", "prepare", "--checks", "5"}, 2, "nothing was compared"},
		{[]string{"--adapter", "reference", "--ops", "host.send", "--against", fake + " -mode ok", "--checks", "5"}, 0, ""},
		{[]string{"--adapter", "reference", "extra"}, 2, ""},
	}
	// Side by side, as in TestExitCodes; the group ends when they all have. The exit codes
	// need an op or two each (--ops): testdata/diff/reference.txtar compares every op.
	t.Run("each", func(t *testing.T) {
		for _, tt := range tests {
			t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
				t.Parallel()
				var stdout, stderr bytes.Buffer
				code := run(append([]string{"diff"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
				if code != tt.code {
					t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout.String(), stderr.String())
				}
				if tt.last != "" && !strings.Contains(lastLine(stdout.String()), tt.last) {
					t.Errorf("last line %q, want it to contain %q", lastLine(stdout.String()), tt.last)
				}
				if tt.code == 2 && stderr.Len() == 0 && stdout.Len() == 0 {
					t.Error("usage error without a message")
				}
			})
		}
	})

	// The fixture the buggy run wrote: small, loadable, failing against the port and passing
	// against the reference, run by the kit's own fixture runner.
	entries, err := os.ReadDir(out)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one fixture in %s, got %v %v", out, entries, err)
	}
	files, err := cases.Load(os.DirFS(out))
	if err != nil {
		t.Fatal(err)
	}
	c := files[0].Cases[0]
	id, _ := c.Args.Get("sessionId")
	// A difference found on the fixture corpus is that fixture case's input (small by
	// construction); a generated one is shrunk to a few units.
	if s, _ := id.(string); len(c.Traps) == 0 && len(wire.UTF16(s)) > 4 || !strings.ContainsAny(s, "<>&'\u2028\u2029") || c.Args.Len() != 1 {
		t.Errorf("fixture request not shrunk: %v", c.Args)
	}
	for _, side := range []struct {
		name string
		c    adapter.Caller
		want result.Status
	}{{"reference", adapter.InProcess{H: &refadapter.Reference{}}, result.Pass}, {"buggy", startProcess(t, buggy), result.Fail}} {
		cl, err := adapter.Connect(context.Background(), side.c)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := cases.Run(context.Background(), cl, os.DirFS(out), cases.Options{})
		if err != nil || len(rs) != 1 || rs[0].Status != side.want {
			t.Errorf("fixture against %s: %+v %v, want %s", side.name, rs, err, side.want)
		}
	}
}

func startProcess(t *testing.T, argv ...string) *adapter.Process {
	t.Helper()
	p, err := adapter.StartProcess(argv, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestDiffHonoursDir: diff runs its adapters in --dir, as a certification run does.
func TestDiffHonoursDir(t *testing.T) {
	buggy := tool(t, "buggy")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The adapter starts only where the marker is.
	adapterCmd := "sh -c 'test -f marker && exec " + buggy + "'"
	for _, tt := range []struct {
		dir  string
		code int
	}{{dir, 1}, {"", 3}} {
		var stdout, stderr bytes.Buffer
		args := []string{"diff", "--adapter", adapterCmd, "--ops", "uri.encode", "--checks", "300", "--seed", "7", "--out", t.TempDir()}
		if tt.dir != "" {
			args = append(args, "--dir", tt.dir)
		}
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != tt.code {
			t.Errorf("--dir %q: exit %d, want %d\n%s%s", tt.dir, code, tt.code, stdout.String(), stderr.String())
		}
	}
}
