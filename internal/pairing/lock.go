package pairing

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
	return fmt.Sprintf("another --write (process %d) holds %s; waited %v: try again once it is done, or remove the lock if no --write is running",
		e.PID, QuotePath(e.Lock), e.Wait)
}

// held are the locks and temporary files this process holds, for a signal
// handler to release (Release).
var held = struct {
	sync.Mutex
	paths map[string]bool
}{paths: map[string]bool{}}

func hold(p string, on bool) {
	held.Lock()
	defer held.Unlock()
	if on {
		held.paths[p] = true
	} else {
		delete(held.paths, p)
	}
}

// Release removes the locks and temporary files of a write in progress: a
// command calls it when a signal tells it to stop, so an interrupted --write
// leaves the record as it was and no lock behind.
func Release() {
	held.Lock()
	defer held.Unlock()
	for p := range held.paths {
		os.Remove(p)
		delete(held.paths, p)
	}
}

// lockRecord takes the lock of the record at abs: abs+".lock", made at once
// with the holder's pid in it (a hard link of a finished file, so no reader sees
// it empty), waiting up to wait for another holder. A lock whose process is gone
// (killed) is taken over. It returns the function that releases the lock.
func lockRecord(abs string, wait time.Duration) (func(), error) {
	lock := abs + ".lock"
	tmp, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".*.pid")
	if err != nil {
		return nil, err
	}
	hold(tmp.Name(), true)
	defer func() { os.Remove(tmp.Name()); hold(tmp.Name(), false) }()
	_, err = fmt.Fprintf(tmp, "%d\n", os.Getpid())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		hold(lock, true)
		err := os.Link(tmp.Name(), lock)
		if err == nil {
			return func() { os.Remove(lock); hold(lock, false) }, nil
		}
		hold(lock, false)
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		pid := lockHolder(lock)
		if pid > 0 && processGone(pid) && breakLock(lock, pid) {
			continue
		}
		if time.Now().After(deadline) {
			return nil, &LockError{Lock: lock, PID: pid, Wait: wait}
		}
		time.Sleep(delay)
	}
}

// lockHolder reads the pid in a lock file, 0 when it cannot.
func lockHolder(lock string) int {
	data, err := readRegular(lock, 64)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

// breakLock removes a lock whose holder pid is gone. Only one process breaks it,
// the one that makes lock+".break": without that, two could each see the dead
// pid, one take the lock, and the other remove that fresh lock.
func breakLock(lock string, pid int) bool {
	guard := lock + ".break"
	f, err := os.OpenFile(guard, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		// A guard left by a process killed while breaking is old: remove it.
		if info, err := os.Stat(guard); err == nil && time.Since(info.ModTime()) > 5*time.Second {
			os.Remove(guard)
		}
		return false
	}
	f.Close()
	defer os.Remove(guard)
	if lockHolder(lock) != pid {
		return false
	}
	return os.Remove(lock) == nil
}
