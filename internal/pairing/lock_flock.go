//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package pairing

import (
	"io/fs"
	"os"
	"syscall"
)

// lockTemp holds an exclusive lock on a temporary file while it is written.
func lockTemp(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// staleTemp reports whether no process holds the temporary file's lock: its
// writer is gone.
func staleTemp(path string, _ fs.FileInfo) bool {
	f, err := openRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
