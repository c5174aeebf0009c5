//go:build !unix

package pairing

import "os"

// openNonBlocking opens for reading; systems without O_NONBLOCK have no named
// pipes in the file tree to block on.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
