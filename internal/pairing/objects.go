package pairing

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ObjectSource says where a blob was found: a loose object or a packfile.
type ObjectSource string

// The places readBlob looks.
const (
	FromLoose ObjectSource = "loose"
	FromPack  ObjectSource = "pack"
)

// errNoObject is returned when the repository does not hold the object.
var errNoObject = errors.New("not in the repository's objects")

// maxDeltaChain bounds how many deltas one object may stack (git's default
// pack.depth is 50; 4095 is the most git itself writes).
const maxDeltaChain = 5000

// objectStore reads blobs from a git object database without running git: loose
// objects, and packfiles through their version 1 or 2 index, with OFS_DELTA and
// REF_DELTA resolved. Every object read is checked against its hash, and sizes,
// delta chains and alternates are bounded.
type objectStore struct {
	format ObjectFormat
	dirs   []string // objects folders: the repository's, then its alternates
	packs  []*packIndex
	loaded bool
}

type packIndex struct {
	pack   string // path of the .pack
	names  []byte // sorted hashes, hashLen each
	offs   []uint64
	hashLn int
}

func newObjectStore(format ObjectFormat, objectsDir string) *objectStore {
	s := &objectStore{format: format}
	s.addDir(objectsDir, 0)
	return s
}

func (s *objectStore) addDir(dir string, depth int) {
	for _, d := range s.dirs {
		if d == dir {
			return
		}
	}
	s.dirs = append(s.dirs, dir)
	if depth >= 5 {
		return
	}
	data, err := readRegular(filepath.Join(dir, "info", "alternates"), 1<<20)
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '"' {
			if u, _, ok := cUnquote(line); ok {
				line = u
			}
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		s.addDir(filepath.Clean(line), depth+1)
	}
}

func (s *objectStore) loadPacks() {
	if s.loaded {
		return
	}
	s.loaded = true
	for _, d := range s.dirs {
		idx, _ := filepath.Glob(filepath.Join(d, "pack", "pack-*.idx"))
		sort.Strings(idx)
		for _, p := range idx {
			if pi, err := readPackIndex(p, s.format.HexLen()/2); err == nil {
				s.packs = append(s.packs, pi)
			}
		}
	}
}

// readBlob returns the content of the blob oid and where it was found.
func (s *objectStore) readBlob(oid string) ([]byte, ObjectSource, error) {
	raw, err := hex.DecodeString(oid)
	if err != nil || len(raw) != s.format.HexLen()/2 {
		return nil, "", fmt.Errorf("%q is not a %s object name", oid, s.format)
	}
	for _, d := range s.dirs {
		p := filepath.Join(d, oid[:2], oid[2:])
		typ, data, err := readLoose(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, FromLoose, fmt.Errorf("loose object %s: %w", oid, err)
		}
		if typ != "blob" {
			return nil, FromLoose, fmt.Errorf("object %s is a %s, not a blob", oid, typ)
		}
		if err := s.verify(oid, typ, data); err != nil {
			return nil, FromLoose, err
		}
		return data, FromLoose, nil
	}
	s.loadPacks()
	for _, pi := range s.packs {
		off, ok := pi.find(raw)
		if !ok {
			continue
		}
		typ, data, err := s.readPacked(pi, off, 0)
		if err != nil {
			return nil, FromPack, fmt.Errorf("packed object %s: %w", oid, err)
		}
		if typ != 3 {
			return nil, FromPack, fmt.Errorf("object %s is not a blob", oid)
		}
		if err := s.verify(oid, "blob", data); err != nil {
			return nil, FromPack, err
		}
		return data, FromPack, nil
	}
	return nil, "", errNoObject
}

func (s *objectStore) verify(oid, typ string, data []byte) error {
	h, err := s.format.newHash()
	if err != nil {
		return err
	}
	h.Write([]byte(typ + " " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	if got := hex.EncodeToString(h.Sum(nil)); got != oid {
		return fmt.Errorf("object %s is corrupt (its content hashes to %s)", oid, got)
	}
	return nil
}

// readLoose inflates a loose object: "<type> <size>\x00<content>".
func readLoose(path string) (string, []byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	zr, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return "", nil, err
	}
	br := bufio.NewReader(io.LimitReader(zr, maxDocument+64))
	header, err := br.ReadString(0)
	if err != nil {
		return "", nil, errors.New("no object header")
	}
	typ, sizeStr, ok := strings.Cut(strings.TrimSuffix(header, "\x00"), " ")
	size, perr := strconv.ParseInt(sizeStr, 10, 64)
	if !ok || perr != nil || size < 0 {
		return "", nil, errors.New("bad object header")
	}
	if size > maxDocument {
		return "", nil, fmt.Errorf("larger than %d bytes", maxDocument)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(br, data); err != nil {
		return "", nil, errors.New("truncated object")
	}
	return typ, data, nil
}

// readPackIndex reads a .idx file (version 2, or the original version 1).
func readPackIndex(path string, hashLen int) (*packIndex, error) {
	data, err := readRegular(path, 1<<30)
	if err != nil {
		return nil, err
	}
	pi := &packIndex{pack: strings.TrimSuffix(path, ".idx") + ".pack", hashLn: hashLen}
	bad := fmt.Errorf("%s: malformed pack index", filepath.Base(path))
	if len(data) >= 8 && bytes.Equal(data[:4], []byte{0xff, 't', 'O', 'c'}) {
		if binary.BigEndian.Uint32(data[4:8]) != 2 || len(data) < 8+1024 {
			return nil, bad
		}
		n := int(binary.BigEndian.Uint32(data[8+1020:]))
		names := 8 + 1024
		crcs := names + n*hashLen
		offs := crcs + n*4
		large := offs + n*4
		if n < 0 || large > len(data) {
			return nil, bad
		}
		pi.names = data[names:crcs]
		pi.offs = make([]uint64, n)
		for i := 0; i < n; i++ {
			o := uint64(binary.BigEndian.Uint32(data[offs+4*i:]))
			if o&0x80000000 != 0 {
				k := int(o &^ 0x80000000)
				if large+8*k+8 > len(data) {
					return nil, bad
				}
				o = binary.BigEndian.Uint64(data[large+8*k:])
			}
			pi.offs[i] = o
		}
		return pi, nil
	}
	// Version 1: fanout, then (4-byte offset, hash) per object.
	if len(data) < 1024 {
		return nil, bad
	}
	n := int(binary.BigEndian.Uint32(data[1020:]))
	if n < 0 || 1024+n*(4+hashLen) > len(data) {
		return nil, bad
	}
	pi.names = make([]byte, 0, n*hashLen)
	pi.offs = make([]uint64, n)
	for i := 0; i < n; i++ {
		e := 1024 + i*(4+hashLen)
		pi.offs[i] = uint64(binary.BigEndian.Uint32(data[e:]))
		pi.names = append(pi.names, data[e+4:e+4+hashLen]...)
	}
	return pi, nil
}

func (pi *packIndex) find(raw []byte) (uint64, bool) {
	n := len(pi.offs)
	i := sort.Search(n, func(i int) bool {
		return bytes.Compare(pi.names[i*pi.hashLn:(i+1)*pi.hashLn], raw) >= 0
	})
	if i < n && bytes.Equal(pi.names[i*pi.hashLn:(i+1)*pi.hashLn], raw) {
		return pi.offs[i], true
	}
	return 0, false
}

// Pack object types.
const (
	objOfsDelta = 6
	objRefDelta = 7
)

// readPacked reads the object at off of pi's pack, resolving deltas.
func (s *objectStore) readPacked(pi *packIndex, off uint64, depth int) (int, []byte, error) {
	if depth > maxDeltaChain {
		return 0, nil, errors.New("delta chain too deep")
	}
	f, err := openRegular(pi.pack)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, nil, err
	}
	if off < 12 || off >= uint64(info.Size()) {
		return 0, nil, errors.New("offset outside the pack")
	}
	br := bufio.NewReader(io.NewSectionReader(f, int64(off), info.Size()-int64(off)))
	c, err := br.ReadByte()
	if err != nil {
		return 0, nil, err
	}
	typ := int(c>>4) & 7
	size := uint64(c & 15)
	shift := uint(4)
	for c&0x80 != 0 {
		if c, err = br.ReadByte(); err != nil || shift > 60 {
			return 0, nil, errors.New("bad object header")
		}
		size |= uint64(c&0x7f) << shift
		shift += 7
	}
	if size > maxDocument {
		return 0, nil, fmt.Errorf("larger than %d bytes", maxDocument)
	}
	var baseType int
	var base []byte
	switch typ {
	case 1, 2, 3, 4:
	case objOfsDelta:
		var hdr [10]byte
		n := 0
		for ; n < len(hdr); n++ {
			if hdr[n], err = br.ReadByte(); err != nil {
				return 0, nil, err
			}
			if hdr[n]&0x80 == 0 {
				n++
				break
			}
		}
		rel, k := indexVarint(hdr[:n])
		if k == 0 || rel == 0 || rel > off {
			return 0, nil, errors.New("bad delta base offset")
		}
		if baseType, base, err = s.readPacked(pi, off-rel, depth+1); err != nil {
			return 0, nil, err
		}
	case objRefDelta:
		raw := make([]byte, pi.hashLn)
		if _, err := io.ReadFull(br, raw); err != nil {
			return 0, nil, err
		}
		boff, ok := pi.find(raw)
		if !ok {
			return 0, nil, errors.New("delta base not in the same pack")
		}
		if baseType, base, err = s.readPacked(pi, boff, depth+1); err != nil {
			return 0, nil, err
		}
	default:
		return 0, nil, fmt.Errorf("unknown object type %d", typ)
	}
	zr, err := zlib.NewReader(br)
	if err != nil {
		return 0, nil, err
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(zr, data); err != nil {
		return 0, nil, errors.New("truncated object data")
	}
	if typ == objOfsDelta || typ == objRefDelta {
		out, err := applyDelta(base, data)
		if err != nil {
			return 0, nil, err
		}
		return baseType, out, nil
	}
	return typ, data, nil
}

// applyDelta applies a git delta (source size, target size, copy and insert
// instructions) to base.
func applyDelta(base, delta []byte) ([]byte, error) {
	bad := errors.New("malformed delta")
	srcSize, n := leb128(delta)
	if n == 0 || srcSize != uint64(len(base)) {
		return nil, bad
	}
	delta = delta[n:]
	dstSize, n := leb128(delta)
	if n == 0 || dstSize > maxDocument {
		return nil, bad
	}
	delta = delta[n:]
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, size uint64
			for i := 0; i < 4; i++ {
				if op&(1<<i) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					off |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			for i := 0; i < 3; i++ {
				if op&(0x10<<i) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					size |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) || uint64(len(out))+size > dstSize {
				return nil, bad
			}
			out = append(out, base[off:off+size]...)
		case op != 0:
			if int(op) > len(delta) || uint64(len(out))+uint64(op) > dstSize {
				return nil, bad
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, bad
		}
	}
	if uint64(len(out)) != dstSize {
		return nil, bad
	}
	return out, nil
}

func leb128(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}
