// Package testgc, imported for its effect by the kit's heaviest test packages, makes their
// garbage collector run less often.
//
// Those tests run whole conformance runs hundreds of times: gigabytes of short-lived
// garbage over a live heap of a few megabytes, which the default GOGC=100 collects every few
// megabytes, at 10 to 20 % of their CPU. GOGC=400 trades some tens of megabytes of heap for
// most of that. A GOGC already in the environment wins; the processes the tests start
// (adapters, the runner as a child) inherit the setting through the environment.
//
// Only test files import it: the kit's own binaries keep Go's default.
package testgc

import (
	"os"
	"runtime/debug"
	"strconv"
)

// Percent is the GOGC the importing test binaries run with.
const Percent = 400

func init() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(Percent)
	os.Setenv("GOGC", strconv.Itoa(Percent))
}
