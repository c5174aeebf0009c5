package pairing

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// maxDocument bounds what the tool reads of one side, one object or one git file:
// a translated document is far smaller, and a bound keeps a hostile tree from
// costing unbounded memory.
const maxDocument = 64 << 20

// openRegular opens path for reading only if it is a regular file (after following
// symbolic links). It opens without blocking (O_NONBLOCK where the system has it)
// and checks the type of what it opened, so a named pipe put in place of a .git
// file, a git config or a side can neither block the open nor be read.
func openRegular(path string) (*os.File, error) {
	// Stat first for the clearer message; the check after opening is the one that counts.
	if info, err := os.Stat(path); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", describeMode(info.Mode()))
	}
	f, err := openForHash(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("not a regular file (%s)", describeMode(info.Mode()))
	}
	return f, nil
}

// readRegular reads the whole regular file at path, refusing one larger than limit.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, nil
}

// openForHash opens a side for reading without waiting for a writer, should the
// file have been replaced by a named pipe between the type check and the open
// (Windows, which has no named pipes in the file tree, ignores O_NONBLOCK). It
// is a variable so tests running as root, whom file modes do not stop, can
// still exercise a permission error.
var openForHash = func(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

func describeMode(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
