//go:build unix

package pairing

import (
	"errors"
	"syscall"
)

// processGone reports whether no process has the id pid on this machine, so
// that a lock it left when it was killed can be taken over.
func processGone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }
