//go:build unix

package pairing

import (
	"os"
	"syscall"
)

// errLocked is what tryLock returns while another holds the lock.
var errLocked = syscall.EWOULDBLOCK

// tryLock takes flock(2)'s exclusive lock on f without waiting.
func tryLock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }
