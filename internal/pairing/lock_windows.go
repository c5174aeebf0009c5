package pairing

import (
	"os"

	"golang.org/x/sys/windows"
)

// removeAfterClose is true: Windows cannot remove a file this process has
// open, and refuses while any other has it open too.
const removeAfterClose = true

// errLocked is what tryLock returns while another holds the lock.
var errLocked = windows.ERROR_LOCK_VIOLATION

// tryLock takes an exclusive LockFileEx lock on f without waiting. Windows
// locks are mandatory, so the locked byte lies far past the pid waiters read.
func tryLock(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
		0, 1, 0, &windows.Overlapped{OffsetHigh: 0x7fffffff})
}
