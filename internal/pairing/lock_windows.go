package pairing

import (
	"os"

	"golang.org/x/sys/windows"
)

// release closes the lock, then removes its name: Windows cannot remove a
// file while any process has it open, so a newer holder's file stays.
func release(f *os.File, lock string) { f.Close(); os.Remove(lock) }

// errLocked is what tryLock returns while another holds the lock.
var errLocked = windows.ERROR_LOCK_VIOLATION

// tryLock takes an exclusive LockFileEx lock on f without waiting. Windows
// locks are mandatory, so the locked byte lies far past the pid waiters read.
func tryLock(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
		0, 1, 0, &windows.Overlapped{OffsetHigh: 0x7fffffff})
}
