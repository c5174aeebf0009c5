package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killPids kills the processes whose pids a fake adapter appended to file.
func killPids(file string) {
	b, _ := os.ReadFile(file)
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// runAsync runs the command in a goroutine; the returned function waits for its exit code,
// failing the test if it does not come within d.
func runAsync(t *testing.T, args []string) (wait func(d time.Duration) (int, string, string)) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, strings.NewReader(""), &stdout, &stderr) }()
	return func(d time.Duration) (int, string, string) {
		select {
		case code := <-done:
			return code, stdout.String(), stderr.String()
		case <-time.After(d):
			t.Fatalf("%q did not end within %v", args, d)
			return 0, "", ""
		}
	}
}

// waitFile waits for path to exist: the fake adapter creates it when its fault begins.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
	}
}

// TestSignalsEndTheRun: SIGINT or SIGTERM during a call to a hung adapter (an hour's
// timeout), or during its hello, ends the run at once as interrupted, exit 130 or 143, with
// the reports written: what finished as it was, the rest not run; never "adapter unusable",
// never "run its command by hand".
func TestSignalsEndTheRun(t *testing.T) {
	fake := tool(t, "fakeadapter")
	for _, tc := range []struct {
		sig  syscall.Signal
		mode string
		code int
	}{
		{syscall.SIGINT, "-mode hang -op candidates", 130},
		{syscall.SIGTERM, "-mode hang -op candidates", 143},
		{syscall.SIGINT, "-mode hang-hello", 130},
	} {
		t.Run(tc.sig.String()+tc.mode, func(t *testing.T) {
			dir := t.TempDir()
			ready, js, xml := filepath.Join(dir, "ready"), filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
			// The @candidates checks: the hung op's (the others, before them in a whole run,
			// would only delay the signal).
			wait := runAsync(t, []string{"--adapter", fake + " " + tc.mode + " -ready " + ready, "--timeout", "1h",
				"--checks", "2", "--tags", "@candidates", "--json", js, "--junit", xml, "--progress", "never"})
			waitFile(t, ready) // the run is under way, its signal handler installed
			if err := syscall.Kill(os.Getpid(), tc.sig); err != nil {
				t.Fatal(err)
			}
			code, stdout, _ := wait(time.Minute)
			last := lastLine(stdout)
			if code != tc.code || !strings.HasPrefix(last, "INTERRUPTED in ") || !strings.HasSuffix(last, "(exit "+strconv.Itoa(tc.code)+")") {
				t.Errorf("exit %d, verdict %q", code, last)
			}
			if strings.Contains(stdout, "unusable") || strings.Contains(stdout, "by hand") {
				t.Errorf("an interrupted run blames the adapter:\n%s", stdout)
			}
			var rep struct {
				Interrupted, Unusable string
				Verdict               struct{ Code int }
				Cases                 []struct{ Status, Message string }
			}
			b, err := os.ReadFile(js)
			if err != nil || json.Unmarshal(b, &rep) != nil {
				t.Fatalf("JSON report: %v", err)
			}
			notRun := 0
			for _, c := range rep.Cases {
				if strings.HasPrefix(c.Message, "not run: interrupted") && c.Status == "not-covered" {
					notRun++
				}
			}
			if notRun == 0 || rep.Unusable != "" || rep.Interrupted == "" || rep.Verdict.Code != tc.code {
				t.Errorf("JSON report: %d checks not run, unusable %q, interrupted %q, code %d", notRun, rep.Unusable, rep.Interrupted, rep.Verdict.Code)
			}
			if _, err := os.Stat(xml); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestDiffEscapedHelper: diff with an adapter whose helper escaped its process group,
// holding its stdout and stderr, prints its result and exits, naming the helper.
func TestDiffEscapedHelper(t *testing.T) {
	fake := tool(t, "fakeadapter")
	escaped := filepath.Join(t.TempDir(), "escaped")
	t.Cleanup(func() { killPids(escaped) })
	wait := runAsync(t, []string{"diff", "--adapter", fake + " -escape " + escaped, "--ops", "uri.encode", "--checks", "20", "--out", t.TempDir()})
	code, stdout, stderr := wait(time.Minute)
	if code != 0 || !strings.Contains(lastLine(stdout), "no difference (exit 0)") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	if !strings.Contains(stderr, "outside its process group") {
		t.Errorf("the escaped helper is not named: %s", stderr)
	}
}
