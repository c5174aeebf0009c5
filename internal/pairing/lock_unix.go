//go:build unix

package pairing

import (
	"os"
	"syscall"
)

// removeAfterClose is false: removing the name of a released lock could
// remove a file another process has just made and locked.
const removeAfterClose = false

// errLocked is what tryLock returns while another holds the lock.
var errLocked = syscall.EWOULDBLOCK

// tryLock takes flock(2)'s exclusive lock on f without waiting.
func tryLock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }
