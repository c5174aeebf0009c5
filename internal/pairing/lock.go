package pairing

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// LockWait is how long --write waits for another --write of the same record.
var LockWait = 10 * time.Second

// LockError says that another process holds a record's lock.
type LockError struct {
	Lock string // the lock file
	PID  int    // its holder, 0 when unreadable
	Wait time.Duration
}

// Error names the holder and what to do.
func (e *LockError) Error() string {
	return fmt.Sprintf("another --write (process %d) holds %s; waited %v: try again once it is done",
		e.PID, QuotePath(e.Lock), e.Wait)
}

// lockRecord takes the lock of the record at abs: the operating system's lock
// on abs+".lock" (flock, LockFileEx), which ends with its holder however that
// ends, so a killed --write leaves nothing to take over: its lock file, like
// its temporary file, is only a name the next run removes (RemoveStaleTemps).
// It waits up to wait for another holder, then names it: a holder writes its
// pid into the file. It returns the function that releases the lock.
func lockRecord(abs string, wait time.Duration) (func(), error) {
	lock := abs + ".lock"
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		if info, err := os.Lstat(lock); err == nil && !info.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", QuotePath(lock))
		}
		f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err = tryLock(f); err == nil {
			// The lock is the file's, not the name's: a holder removes the name
			// as it releases, and a lock on a file no longer named is none.
			info, _ := f.Stat()
			if now, err := os.Lstat(lock); err == nil && os.SameFile(info, now) {
				n, _ := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
				f.Truncate(int64(n))
				return func() { release(f, lock) }, nil
			}
		}
		f.Close()
		if err != nil && !errors.Is(err, errLocked) {
			return nil, err
		}
		if err != nil && time.Now().After(deadline) {
			data, _ := readRegular(lock, 64) // the holder's pid; 0 when unreadable
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			return nil, &LockError{Lock: lock, PID: pid, Wait: wait}
		}
		time.Sleep(delay)
	}
}
