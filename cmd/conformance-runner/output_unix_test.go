//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// small is a quick, conformant selection.
var small = []string{"--part", "fixtures", "--run", "uri-encode/", "--progress", "never"}

// runner runs conformance-runner as a process of its own, whose stdout is a file or pipe
// of the test's choosing, and returns its exit code, stdout and stderr.
func runnerProcess(t *testing.T, stdout io.Writer, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(tool(t, "conformance-runner"), args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// runnerInProcess is runnerProcess for what does not need a process of its own (a report's
// path, not the process's stdout): run in this process, as "runner" in the scripts.
func runnerInProcess(t *testing.T, stdout io.Writer, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := run(args, strings.NewReader(""), stdout, &stderr)
	return code, stderr.String()
}

// TestReportPaths: every report flag takes "-" for stdout; a device, a FIFO or a link to
// /dev/stdout is written through and stays what it was; an existing 0600 report keeps its
// mode; a report that cannot be written changes the exit code the last line states.
func TestReportPaths(t *testing.T) {
	dir := t.TempDir()

	t.Run("dash", func(t *testing.T) {
		for _, flag := range []string{"--json", "--junit", "--markdown", "--html"} {
			var out bytes.Buffer
			code, stderr := runnerInProcess(t, &out, append([]string{flag, "-"}, small...)...)
			if code != 0 {
				t.Fatalf("%s -: exit %d: %s", flag, code, stderr)
			}
			if _, err := os.Stat("-"); err == nil {
				t.Fatalf("%s - wrote a file named -", flag)
			}
			if flag == "--json" && !json.Valid(out.Bytes()) {
				t.Errorf("--json -: stdout is not the JSON report alone:\n%.300s", out.String())
			}
			if !strings.Contains(out.String(), "conform") || !strings.Contains(stderr, "OK in ") {
				t.Errorf("%s -: stdout %.200q; the text report on stderr: %.300q", flag, out.String(), stderr)
			}
		}
	})

	t.Run("dev-null", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Log("not root: /dev/null could not be replaced anyway")
		}
		code, stderr := runnerInProcess(t, io.Discard, append([]string{"--json", os.DevNull, "--html", os.DevNull}, small...)...)
		st, err := os.Stat(os.DevNull)
		if code != 0 || err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("exit %d (%s); %s is %v", code, stderr, os.DevNull, st.Mode())
		}
	})

	t.Run("dev-null-as-stdout", func(t *testing.T) {
		// The same run with this process's stdout sent to the null device as well, as a
		// shell's > /dev/null does: discarded reports, not two reports on stdout (exit 2).
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer null.Close()
		stdout := os.Stdout
		os.Stdout = null // the subtests of TestReportPaths run one at a time
		code, stderr := runnerInProcess(t, io.Discard, append([]string{"--json", os.DevNull, "--html", os.DevNull}, small...)...)
		os.Stdout = stdout
		if code != 0 {
			t.Fatalf("exit %d (%s)", code, stderr)
		}
	})

	t.Run("fifo", func(t *testing.T) {
		fifo := filepath.Join(dir, "report.fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		got := make(chan []byte, 1)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- nil
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- b
		}()
		code, stderr := runnerInProcess(t, io.Discard, append([]string{"--json", fifo}, small...)...)
		select {
		case b := <-got:
			if code != 0 || !json.Valid(b) {
				t.Errorf("exit %d (%s); the reader got %d bytes", code, stderr, len(b))
			}
		case <-time.After(time.Minute):
			t.Fatal("the FIFO's reader got nothing")
		}
		if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("the FIFO was replaced: %v", st.Mode())
		}
	})

	t.Run("link-to-stdout", func(t *testing.T) {
		link := filepath.Join(dir, "out.json")
		if err := os.Symlink("/dev/stdout", link); err != nil {
			t.Fatal(err)
		}
		// stdout a pipe, then a file: either way the link stays and the report reaches it,
		// alone (the text report goes to stderr, as with --json -).
		var out bytes.Buffer
		code, stderr := runnerProcess(t, &out, append([]string{"--json", link}, small...)...)
		if code != 0 || !strings.Contains(out.String(), `"$schema"`) {
			t.Errorf("pipe: exit %d (%s); stdout %.200q", code, stderr, out.String())
		}
		f, err := os.Create(filepath.Join(dir, "stdout.txt"))
		if err != nil {
			t.Fatal(err)
		}
		code, stderr = runnerProcess(t, f, append([]string{"--json", link}, small...)...)
		f.Close()
		b, _ := os.ReadFile(f.Name())
		if code != 0 || !json.Valid(b) {
			t.Errorf("file: exit %d (%s); stdout %.300q", code, stderr, b)
		}
		if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
			t.Error("the link was replaced")
		}
	})

	t.Run("mode-kept", func(t *testing.T) {
		p := filepath.Join(dir, "private.json")
		os.WriteFile(p, nil, 0o600)
		os.Chmod(p, 0o600)
		code, stderr := runnerInProcess(t, io.Discard, append([]string{"--json", p}, small...)...)
		st, _ := os.Stat(p)
		if code != 0 || st.Mode().Perm() != 0o600 || st.Size() == 0 {
			t.Errorf("exit %d (%s); mode %v, %d bytes", code, stderr, st.Mode().Perm(), st.Size())
		}
	})

	t.Run("missing-folder", func(t *testing.T) {
		var out bytes.Buffer
		start := time.Now()
		code, stderr := runnerInProcess(t, &out, append([]string{"--json", filepath.Join(dir, "no", "r.json")}, small...)...)
		if code != 2 || out.Len() != 0 || !strings.Contains(stderr, "no such file or directory") {
			t.Errorf("exit %d in %v; stdout %q; stderr %q", code, time.Since(start), out.String(), stderr)
		}
	})

	t.Run("disk-full", func(t *testing.T) {
		if _, err := os.Stat("/dev/full"); err != nil {
			t.Skip("no /dev/full")
		}
		var out bytes.Buffer
		code, stderr := runnerInProcess(t, &out, append([]string{"--json", "/dev/full"}, small...)...)
		last := lastLine(out.String())
		if code != 2 || !strings.HasSuffix(last, "(exit 2)") || !strings.HasPrefix(last, "REPORT NOT WRITTEN") {
			t.Errorf("exit %d, last line %q; stderr %q", code, last, stderr)
		}
	})
}

// TestHostileTextCannotForgeTheVerdict: an adapter whose hello name, version and error
// messages hold escape sequences, CR, LF and U+2028 cannot make any line of the report
// read "OK ... (exit 0)", nor put a control character on the terminal; the Markdown
// summary holds no live link.
func TestHostileTextCannotForgeTheVerdict(t *testing.T) {
	md := filepath.Join(t.TempDir(), "summary.md")
	var out bytes.Buffer
	code, stderr := runnerProcess(t, &out, "--adapter", tool(t, "fakeadapter")+" -mode hostile-text", "--checks", "2", "--tags", "@uri", "--markdown", md, "--progress", "never")
	text := out.String()
	if last := lastLine(text); code != 1 || !strings.HasPrefix(last, "FAIL in ") || !strings.HasSuffix(last, "(exit 1)") {
		t.Errorf("exit %d, last line %q", code, last)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "OK in") {
			t.Errorf("a forged verdict line: %q", l)
		}
	}
	for _, bad := range []string{"\x1b", "\r", "\u2028", "\a"} {
		if strings.Contains(text, bad) || strings.Contains(stderr, bad) {
			t.Errorf("the report holds %q", bad)
		}
	}
	if !strings.Contains(text, `\u001b[2K`) {
		t.Errorf("the escapes are not shown as such:\n%.2000s", text)
	}
	m, _ := os.ReadFile(md)
	if len(m) == 0 || strings.Contains(string(m), "](https") || strings.Contains(string(m), "\x1b") {
		t.Errorf("markdown:\n%s", m)
	}
}
