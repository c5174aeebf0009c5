// Package testadapters holds the adapters the kit's tests start, as commands of the test
// binary itself: a test package registers Commands with testscript.Main, which puts each
// name on $PATH as a copy of the binary, and imports this package, whose init runs the
// command the binary was started as. Nothing is built at test time.
//
// The dispatch is in this package's init, not left to testscript.Main in TestMain, so that an
// adapter's start skips the init of the packages only the tests need, godog's builder (which
// runs `go env`, a process) and jsonschema (which compiles its meta-schemas): a start then
// takes ~4 ms of CPU, not ~17. Go initializes, step by step, the first package in import-path
// order whose imports are all initialized; this package's imports are ready before those
// two's, so its init runs, and exits, first. That follows from the import graphs, not from a
// promise: CheckStart checks it in a test binary.
package testadapters

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/internal/testadapters/buggy"
	"github.com/sessionref-kit/sessionref-kit/internal/testadapters/fakeadapter"
)

// Commands returns the adapters by command name, for testscript.Main: fakeadapter (the
// hostile adapter) and buggy (a port with one bug).
func Commands() map[string]func() {
	return map[string]func(){"fakeadapter": fakeadapter.Main, "buggy": buggy.Main}
}

func init() {
	if main := Commands()[commandName()]; main != nil {
		main()
		os.Exit(0)
	}
}

// Path is the absolute path of the command name (one of Commands) on $PATH, where
// testscript.Main put it: for the tests that start an adapter by path, not by name.
func Path(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is not on $PATH (is testscript.Main given testadapters.Commands in TestMain?): %w", name, err)
	}
	return filepath.Abs(path)
}

// commandName is the name the binary was started as, read as testscript.Main reads it.
func commandName() string {
	name := filepath.Base(os.Args[0])
	if runtime.GOOS == "windows" {
		name = strings.TrimSuffix(name, ".exe")
	}
	return name
}

// HeavyInits are the packages whose init an adapter's start must skip: godog's builder runs
// `go env GOTOOLDIR`, jsonschema compiles its meta-schemas.
var HeavyInits = []string{
	"github.com/cucumber/godog/internal/builder",
	"github.com/santhosh-tekuri/jsonschema/v6",
}

// CheckStart checks that the test binary, started as the fakeadapter command at adapter (a
// hello, then the end of its input), runs none of HeavyInits that it runs when started as
// itself (with -test.run=^$, no test): so that the check can fail, each of HeavyInits must run
// in the latter.
func CheckStart(t testing.TB, adapter string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	all := inits(t, self, "-test.run=^$")
	started := inits(t, adapter, "-mode", "ok")
	for _, p := range HeavyInits {
		if !slices.Contains(all, p) {
			t.Errorf("%s: init did not run in the test binary itself (%d inits ran): link it or drop it from HeavyInits", p, len(all))
		}
		if slices.Contains(started, p) {
			t.Errorf("%s: init ran in an adapter's start (see package testadapters)", p)
		}
	}
}

// inits runs exe with args, a hello as its input, and returns the packages whose init ran,
// in order, as GODEBUG=inittrace=1 reports them.
func inits(t testing.TB, exe string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	cmd.Stdin = strings.NewReader(`{"id":1,"op":"hello","args":{"protocol":1}}` + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", exe, strings.Join(args, " "), err, stderr.Bytes())
	}
	var pkgs []string
	for line := range strings.Lines(stderr.String()) {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			pkgs = append(pkgs, f[1])
		}
	}
	return pkgs
}
