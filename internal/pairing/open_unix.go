//go:build unix

package pairing

import (
	"os"
	"syscall"
)

// openNonBlocking opens for reading without waiting for a writer, should the
// file have been replaced by a named pipe between the type check and the open.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
