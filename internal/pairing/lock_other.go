//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package pairing

import (
	"io/fs"
	"os"
	"time"
)

func lockTemp(*os.File) {}

// staleTemp, without file locks, takes a temporary file untouched for a minute
// for one whose writer is gone: a write takes milliseconds.
func staleTemp(_ string, info fs.FileInfo) bool { return time.Since(info.ModTime()) > time.Minute }
