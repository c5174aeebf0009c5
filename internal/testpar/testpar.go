// Package testpar widens -test.parallel for the test packages whose tests mostly wait: on git,
// on an adapter's timeouts, on a process to start or end. With Go's default (GOMAXPROCS
// tests side by side) a waiting test holds back one that would compute, and the package's
// binary holds one of go test's slots for the sum of those waits.
//
// Only test files import it.
package testpar

import (
	"flag"
	"runtime"
	"strconv"
)

// Widen sets -test.parallel to factor × GOMAXPROCS unless the command line gave -parallel.
// Call it from TestMain before m.Run; it parses the command line if nothing has yet.
func Widen(factor int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(factor*runtime.GOMAXPROCS(0)))
	}
}
