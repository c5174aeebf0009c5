package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sessionref-kit/sessionref-kit/internal/sweep"
	"github.com/sessionref-kit/sessionref-kit/internal/testadapters"
	"github.com/sessionref-kit/sessionref-kit/internal/testpar"
)

// TestMain makes this test binary a multi-call one: started as conformance-runner, or as
// fakeadapter or buggy (internal/testadapters), it runs that program (testscript.Main puts
// those names on $PATH, copies of the binary), so that nothing is built at test time.
func TestMain(m *testing.M) {
	cmds := testadapters.Commands()
	cmds["conformance-runner"] = main
	testscript.Main(runTests{m}, cmds)
}

// runTests runs the tests themselves (this binary started as itself).
type runTests struct{ m *testing.M }

func (r runTests) Run() int {
	flag.Parse()
	// Many of these tests wait on an adapter (its timeouts, a hang, a signal): unless
	// -parallel says otherwise, run more side by side than there are processors, so that a
	// waiting test does not hold back one that computes.
	testpar.Widen(4)
	return r.m.Run()
}

// tool is the absolute path of the command name of TestMain (testadapters.Path).
func tool(t *testing.T, name string) string {
	t.Helper()
	path, err := testadapters.Path(name)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestScripts runs testdata/script/*.txtar: the real main, with the fake adapter on $PATH.
func TestScripts(t *testing.T) { runScripts(t, "testdata/script") }

// TestSweepScripts runs the scripts whose runs mostly wait on a hostile adapter (its
// timeouts, the run's deadline, its restarts): the command line's side of what package
// conformance's TestHostileAdapters and TestTimeBudget check in go test ./... .
func TestSweepScripts(t *testing.T) {
	sweep.Skip(t, "the budget and hostile-adapter scripts of testdata/sweep")
	runScripts(t, "testdata/sweep")
}

// runScripts runs the testscripts in dir, with the commands of TestMain on $PATH.
//
// A script runs the command two ways: "exec conformance-runner ARGS" in a process of its
// own, where the process is what it tests (its stdin, a real exit, an adapter that hangs
// for a while), and "runner ARGS" in this process (runnerCmd) everywhere else: the same
// run, output and exit status, without a process start and a load of the fixtures each.
//
// The script tests are parallel: they run once the tests that are not have ended
// (TestSignalsEndTheRun signals the whole process, TestExitCodes runs run in this process's
// working directory), side by side, so that the wait of the scripts on a hung adapter
// (budget, hostile: seconds of timeouts) is shared by the tests' scripts.
func runScripts(t *testing.T, dir string) {
	// Absolute, before the test pauses: runnerCmd changes the working directory while
	// scripts run side by side.
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:  dir,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"runner": runnerCmd},
	})
}

// inProcess serialises runnerCmd: run reads its working directory and environment from the
// process, which are one script's only while its command runs.
var inProcess sync.Mutex

// runnerCmd is the script command "runner ARGS": run(ARGS) in this process, in the
// script's directory with the script's $PATH (where the adapter command is looked up) and
// $GITHUB_STEP_SUMMARY, stdin empty; its exit status is the command's, as for exec.
func runnerCmd(ts *testscript.TestScript, neg bool, args []string) {
	inProcess.Lock()
	defer inProcess.Unlock()
	wd, err := os.Getwd()
	ts.Check(err)
	ts.Check(os.Chdir(ts.MkAbs(".")))
	defer os.Chdir(wd)
	for _, key := range []string{"PATH", "GITHUB_STEP_SUMMARY"} {
		defer setenv(key, ts.Getenv(key))()
	}
	code := run(args, strings.NewReader(""), ts.Stdout(), ts.Stderr())
	switch {
	case code != 0 && !neg:
		ts.Fatalf("exit status %d", code)
	case code == 0 && neg:
		ts.Fatalf("unexpected success")
	}
}

// setenv sets key to value in the process ("" unsets it) and returns what restores it.
func setenv(key, value string) (restore func()) {
	old, had := os.LookupEnv(key)
	if value == "" {
		os.Unsetenv(key)
	} else {
		os.Setenv(key, value)
	}
	return func() {
		if had {
			os.Setenv(key, old)
		} else {
			os.Unsetenv(key)
		}
	}
}

// TestExitCodes checks run's exit code and one-line verdict for each kind of adapter.
func TestExitCodes(t *testing.T) {
	fake := tool(t, "fakeadapter")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	_ = self
	tests := []struct {
		args []string
		code int
		out  string
	}{
		// First the run that waits longest (its timeouts), while the others compute. A fault
		// that one op shows is met on that op's checks (--tags): the ones before them would
		// be the same whatever the adapter. The runs that end in a verdict run the @uri
		// checks: the exit code does not depend on the size of the run (the reference's
		// whole run is conformant in package conformance's tests).
		{[]string{"--checks", "5", "--tags", "@prepare", "--timeout", "300ms", "--adapter", fake + " -mode hang -op prepare"}, 3, "no response within 300ms"},
		{[]string{"--checks", "5", "--tags", "@uri"}, 0, "conformant"},
		{[]string{"--checks", "5", "--tags", "@uri", "--adapter", fake + " -mode wrong-result"}, 1, "not conformant"},
		{[]string{"--checks", "5", "--tags", "@uri", "--adapter", fake + " -mode wrong-code"}, 1, "SESSION_REFERENCE_INVALID_CONFIG"},
		{[]string{"--checks", "5", "--tags", "@uri", "--adapter", fake + " -mode crash -op uri.decode"}, 3, "exited without answering"},
		{[]string{"--checks", "5", "--tags", "@uri", "--adapter", fake + " -mode invalid-json"}, 3, "invalid response line"},
		{[]string{"--tags", "@uri", "--adapter", fake + " -mode exit-early"}, 3, "adapter unusable"},
		{[]string{"--bogus"}, 2, ""},
		{[]string{"--shard", "3/2"}, 2, ""},
		{[]string{"--adapter", "'unterminated"}, 2, ""},
		{[]string{"--part", "properties", "--tags", "@nothing-has-this"}, 2, "no check was run"},
		{[]string{"extra"}, 2, ""},
		{[]string{"--run", "("}, 2, ""},
		{[]string{"--run", "^fixtures/uri-encode/ascii-id$", "--adapter", fake + " -mode wrong-result -op uri.encode"}, 1, "not conformant: 1 of 1 check failed; first: fixtures uri-encode/ascii-id"},
		{[]string{"--run", "zzz-no-such-check"}, 2, "no check was run"},
		{[]string{"--skip", "["}, 2, ""},
		// Found before the run: flags at 0, a shard of nothing, a missing --dir or
		// report folder, an adapter program that is not there.
		{[]string{"--timeout", "0"}, 2, ""},
		{[]string{"--deadline", "0s"}, 2, ""},
		{[]string{"--max-timeouts", "0"}, 2, ""},
		{[]string{"--max-restarts", "0"}, 2, ""},
		{[]string{"--checks", "0"}, 2, ""},
		{[]string{"--shard", "0/0"}, 2, ""},
		{[]string{"--dir", "/nonexistent-sessionref-dir"}, 2, ""},
		{[]string{"--json", "/nonexistent-sessionref-dir/r.json"}, 2, ""},
		{[]string{"--html", "-", "--json", "-"}, 2, ""},
		{[]string{"--adapter", "no-such-sessionref-program --x"}, 2, ""},
		{[]string{"--adapter", "./main_test.go"}, 2, ""}, // not executable
		// hello's protocol of another type is named as such.
		{[]string{"--adapter", fake + ` -mode bad-protocol -protocol '"1"'`}, 3, `"protocol" is the string "1", not a number`},
		{[]string{"--adapter", fake + " -mode bad-protocol -protocol null"}, 3, `"protocol" is null, not a number`},
		{[]string{"--skip", "^fixtures/((traps-)?uri-encode(-stryker)?|traps-numbers-uri|traps-(depth|key-order|noncharacter)-uri-encode)/", "--adapter", fake + " -mode wrong-result -op uri.encode", "--part", "fixtures", "--tags", "@uri"}, 0, "partial"},
	}
	// The runs are side by side (this test is not parallel: TestSignalsEndTheRun signals
	// the whole process, so no run of another test may be under way then).
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := run(tt.args, strings.NewReader(""), &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout.String(), stderr.String())
			}
			if tt.out != "" {
				last := lastLine(stdout.String())
				if !strings.Contains(last, tt.out) || !strings.Contains(last, fmt.Sprintf("(exit %d)", tt.code)) {
					t.Errorf("verdict line %q, want it to contain %q", last, tt.out)
				}
			}
			if tt.code == 2 && stderr.Len() == 0 && tt.out == "" {
				t.Error("usage error without a message")
			}
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		`go run ./cmd/x adapter`:   {"go", "run", "./cmd/x", "adapter"},
		`node 'my adapter.js'`:     {"node", "my adapter.js"},
		`sh -c "echo \"hi\" \\ x"`: {"sh", "-c", `echo "hi" \ x`},
		`a\ b  c`:                  {"a b", "c"},
		`C:\tools\port.exe --x`:    {`C:\tools\port.exe`, "--x"},
		`"C:\Program Files\p.exe"`: {`C:\Program Files\p.exe`},
		`a\'b \"c`:                 {`a'b`, `"c`},
		`''`:                       {""},
	} {
		got, err := splitCommand(in)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("splitCommand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "   ", `"open`, `'open`} {
		if _, err := splitCommand(bad); err == nil {
			t.Errorf("splitCommand(%q) succeeded", bad)
		}
	}
}

func TestList(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"list", "--tags", "@SR-PREP-7", "--skip", "unknown"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var skipped int
	for _, l := range lines {
		if !strings.Contains(l, "SR-PREP-7") {
			t.Errorf("line %q does not name SR-PREP-7", l)
		}
		if strings.HasSuffix(l, "\t(skipped)") {
			skipped++
			if !strings.Contains(strings.Split(l, "\t")[0], "unknown") {
				t.Errorf("skipped %q does not match the skip list", l)
			}
		}
	}
	if len(lines) < 5 || skipped == 0 || skipped == len(lines) {
		t.Errorf("%d lines, %d skipped:\n%s", len(lines), skipped, stdout.String())
	}

	stdout.Reset()
	if code := run([]string{"list", "--json", "--part", "properties"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("--json: exit %d: %s", code, stderr.String())
	}
	var checks []struct {
		Part, Name   string
		Requirements []string
	}
	if err := json.Unmarshal(stdout.Bytes(), &checks); err != nil || len(checks) < 10 {
		t.Fatalf("--json: %v, %d checks", err, len(checks))
	}
	for _, c := range checks {
		if c.Part != "properties" || c.Name == "" {
			t.Errorf("--json check %+v", c)
		}
	}

	stderr.Reset()
	if code := run([]string{"list", "--run", "zzz-no-such-check"}, strings.NewReader(""), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "matches no check") {
		t.Errorf("empty selection: exit %d, %q", code, stderr.String())
	}
}
