// Package sweep gates the kit's sweeps: tests that repeat, at a larger volume or against
// an outside program (the published package under Node, one hostile adapter per fault, the
// command line's hostile scripts), what the fixed checks of go test ./... already check.
//
// go test ./... skips them, each saying what it leaves out and how to run it (go test -v
// shows the line); with SESSIONREF_SWEEPS=1 in the environment they run, and .ci/run runs
// them so. A sweep is never the only check of a behaviour: it widens one.
//
// Only test files import it.
package sweep

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the sweeps on when it is "1".
const Env = "SESSIONREF_SWEEPS"

// On reports whether the sweeps run.
func On() bool { return os.Getenv(Env) == "1" }

// Skip skips t unless the sweeps run, naming what the skipped sweep checks.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !On() {
		t.Skipf("a sweep (%s): run with %s=1, as .ci/run does", what, Env)
	}
}
