package pairing

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"
)

// ObjectFormat is a git repository's object format: the hash function that names
// its objects. It decides which hash a record holds.
type ObjectFormat string

// The object formats git knows. SHA1 is git's default and applies outside a repository.
const (
	SHA1   ObjectFormat = "sha1"
	SHA256 ObjectFormat = "sha256"
)

// HexLen is the length of a hash of this format in hexadecimal digits (40 or 64),
// or 0 for an unknown format.
func (f ObjectFormat) HexLen() int {
	switch f {
	case SHA1:
		return 40
	case SHA256:
		return 64
	}
	return 0
}

func (f ObjectFormat) newHash() (hash.Hash, error) {
	switch f {
	case SHA1:
		return sha1.New(), nil
	case SHA256:
		return sha256.New(), nil
	}
	return nil, fmt.Errorf("unsupported git object format %q (want sha1 or sha256)", string(f))
}

// BlobHash returns the git blob hash of data, as `git hash-object --no-filters` prints it:
// the hash of "blob <size>\x00" followed by the bytes.
func BlobHash(f ObjectFormat, data []byte) (string, error) {
	h, err := f.newHash()
	if err != nil {
		return "", err
	}
	writeBlobHeader(h, int64(len(data)))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil)), nil
}

func writeBlobHeader(h hash.Hash, size int64) {
	h.Write([]byte("blob " + strconv.FormatInt(size, 10) + "\x00"))
}

// HashFile returns the git blob hash of the regular file at path, following symbolic
// links as `git hash-object` does. It refuses anything but a regular file, so a named
// pipe can never make it block, and it fails rather than return a hash of bytes that
// changed while it read them.
func HashFile(f ObjectFormat, path string) (string, error) {
	h, err := f.newHash()
	if err != nil {
		return "", err
	}
	// Stat before opening: opening a FIFO for reading would wait for a writer.
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file (%s)", describeMode(info.Mode()))
	}
	file, err := openForHash(path)
	if err != nil {
		return "", err
	}
	defer file.Close()
	// The header needs the size up front; take it from the open file, then make sure
	// exactly that many bytes arrive.
	info, err = file.Stat()
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file (%s)", describeMode(info.Mode()))
	}
	size := info.Size()
	writeBlobHeader(h, size)
	n, err := io.Copy(h, io.LimitReader(file, size+1))
	if err != nil {
		return "", err
	}
	if n != size {
		return "", fmt.Errorf("file changed while it was read (%d bytes, expected %d)", n, size)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// openForHash opens a side for reading. It is a variable so tests running as root,
// whom file modes do not stop, can still exercise a permission error.
var openForHash = openNonBlocking

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
