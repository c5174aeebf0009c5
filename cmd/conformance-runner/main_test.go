package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(cleanup{m}, map[string]func(){
		"conformance-runner": main,
	})
}

// cleanup removes the tools built for the tests once they have all run.
type cleanup struct{ m *testing.M }

func (c cleanup) Run() int {
	flag.Parse()
	// Many of these tests wait on an adapter (its timeouts, a hang, a signal): unless
	// -parallel says otherwise, run more side by side than there are processors, so that a
	// waiting test does not hold back one that computes.
	if !flagSet("test.parallel") {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	code := c.m.Run()
	tools.Lock()
	defer tools.Unlock()
	for _, dir := range tools.dirs {
		os.RemoveAll(dir)
	}
	return code
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func buildFake(t *testing.T) string {
	t.Helper()
	return buildTool(t, "../../conformance/testdata/fakeadapter", "fakeadapter")
}

// tools are the Go programs built for the tests, by package: each is built once per run
// of the tests (every build links a binary), in a folder of its own.
var tools struct {
	sync.Mutex
	dirs map[string]string
}

// pkgDir is this package's folder, the tests' working directory when they start.
var pkgDir, _ = os.Getwd()

// buildTool builds the Go program in pkg as name in a folder of its own, once, and returns
// the folder, to be put on $PATH.
func buildTool(t *testing.T, pkg, name string) string {
	t.Helper()
	tools.Lock()
	defer tools.Unlock()
	if dir, ok := tools.dirs[pkg]; ok {
		return dir
	}
	dir, err := os.MkdirTemp("", name)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg)
	cmd.Dir = pkgDir // not the working directory of the moment: see runnerCmd
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		t.Fatalf("building %s: %v\n%s", name, err, out)
	}
	if tools.dirs == nil {
		tools.dirs = map[string]string{}
	}
	tools.dirs[pkg] = dir
	return dir
}

// TestScripts runs testdata/script/*.txtar: the real main, with the fake adapter on $PATH.
func TestScripts(t *testing.T) { runScripts(t, "testdata/script", buildFake(t)) }

// runScripts runs the testscripts in dir with the tools built in binDir first on $PATH.
//
// A script runs the command two ways: "exec conformance-runner ARGS" in a process of its
// own, where the process is what it tests (its stdin, a real exit, an adapter that hangs
// for a while), and "runner ARGS" in this process (runnerCmd) everywhere else: the same
// run, output and exit status, without a process start and a load of the fixtures each.
func runScripts(t *testing.T, dir, binDir string) {
	// Absolute: runnerCmd changes the working directory while scripts run side by side.
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: dir,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			return nil
		},
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
	fake := filepath.Join(buildFake(t), "fakeadapter")
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
		// First the run that waits longest (its timeouts), while the others compute.
		{[]string{"--checks", "5", "--timeout", "300ms", "--adapter", fake + " -mode hang -op prepare"}, 3, "no response within 300ms"},
		{[]string{"--checks", "5"}, 0, "conformant"},
		{[]string{"--checks", "5", "--adapter", fake + " -mode wrong-result"}, 1, "not conformant"},
		{[]string{"--checks", "5", "--adapter", fake + " -mode wrong-code"}, 1, "SESSION_REFERENCE_INVALID_CONFIG"},
		{[]string{"--checks", "5", "--adapter", fake + " -mode crash -op uri.decode"}, 3, "exited without answering"},
		{[]string{"--checks", "5", "--adapter", fake + " -mode invalid-json"}, 3, "invalid response line"},
		{[]string{"--adapter", fake + " -mode exit-early"}, 3, "adapter unusable"},
		{[]string{"--bogus"}, 2, ""},
		{[]string{"--shard", "3/2"}, 2, ""},
		{[]string{"--adapter", "'unterminated"}, 2, ""},
		{[]string{"--part", "properties", "--tags", "@nothing-has-this"}, 2, "no check was run"},
		{[]string{"extra"}, 2, ""},
		{[]string{"--run", "("}, 2, ""},
		{[]string{"--run", "^fixtures/uri-encode/ascii-id$", "--adapter", fake + " -mode wrong-result -op uri.encode"}, 1, "1 check failed: not conformant; first: fixtures uri-encode/ascii-id"},
		{[]string{"--run", "zzz-no-such-check"}, 2, "no check was run"},
		{[]string{"--skip", "["}, 2, ""},
		{[]string{"--skip", "^fixtures/(traps-)?uri-encode(-stryker)?/", "--adapter", fake + " -mode wrong-result -op uri.encode", "--part", "fixtures"}, 0, "partial"},
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
