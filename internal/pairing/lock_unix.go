//go:build unix

package pairing

import (
	"os"
	"syscall"
)

// release removes the lock's name, then the lock: once released, the name
// could be a newer holder's file.
func release(f *os.File, lock string) { os.Remove(lock); f.Close() }

// errLocked is what tryLock returns while another holds the lock.
var errLocked = syscall.EWOULDBLOCK

// tryLock takes flock(2)'s exclusive lock on f without waiting.
func tryLock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }
