//go:build unix

package bench

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used (user and system, every thread: the
// garbage collector's workers too). On a shared machine it varies far less with the load
// than wall time does.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
