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
	pack    string   // path of the .pack
	f       *os.File // the open .idx, read on demand
	size    int64
	v2      bool
	fanout  [256]uint32
	n       int64
	namesAt int64
	offsAt  int64
	largeAt int64
	hashLn  int
}

// close releases the open index files.
func (s *objectStore) close() {
	for _, p := range s.packs {
		p.f.Close()
	}
	s.packs, s.loaded = nil, false
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

// readPackIndex opens a .idx file (version 2, or the original version 1). Only
// its fan-out table is read up front; lookups read the few entries a binary
// search visits, so a huge repository's index costs no memory.
func readPackIndex(path string, hashLen int) (*packIndex, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	pi := &packIndex{pack: strings.TrimSuffix(path, ".idx") + ".pack", hashLn: hashLen, f: f, size: info.Size()}
	bad := fmt.Errorf("%s: malformed pack index", filepath.Base(path))
	head := make([]byte, 8)
	if _, err := f.ReadAt(head, 0); err != nil {
		f.Close()
		return nil, bad
	}
	fanoutAt := int64(0)
	if bytes.Equal(head[:4], []byte{0xff, 't', 'O', 'c'}) {
		if binary.BigEndian.Uint32(head[4:8]) != 2 {
			f.Close()
			return nil, bad
		}
		pi.v2, fanoutAt = true, 8
	}
	fan := make([]byte, 1024)
	if _, err := f.ReadAt(fan, fanoutAt); err != nil {
		f.Close()
		return nil, bad
	}
	for i := range pi.fanout {
		pi.fanout[i] = binary.BigEndian.Uint32(fan[4*i:])
		if i > 0 && pi.fanout[i] < pi.fanout[i-1] {
			f.Close()
			return nil, bad
		}
	}
	n := int64(pi.fanout[255])
	pi.n = n
	if pi.v2 {
		pi.namesAt = 8 + 1024
		pi.offsAt = pi.namesAt + n*int64(hashLen) + n*4
		pi.largeAt = pi.offsAt + n*4
		if pi.largeAt > pi.size {
			f.Close()
			return nil, bad
		}
	} else if 1024+n*int64(4+hashLen) > pi.size {
		f.Close()
		return nil, bad
	}
	return pi, nil
}

// name returns the i-th hash of the index.
func (pi *packIndex) name(i int64) ([]byte, error) {
	b := make([]byte, pi.hashLn)
	at := pi.namesAt + i*int64(pi.hashLn)
	if !pi.v2 {
		at = 1024 + i*int64(4+pi.hashLn) + 4
	}
	_, err := pi.f.ReadAt(b, at)
	return b, err
}

func (pi *packIndex) offset(i int64) (uint64, error) {
	var b [8]byte
	if !pi.v2 {
		if _, err := pi.f.ReadAt(b[:4], 1024+i*int64(4+pi.hashLn)); err != nil {
			return 0, err
		}
		return uint64(binary.BigEndian.Uint32(b[:4])), nil
	}
	if _, err := pi.f.ReadAt(b[:4], pi.offsAt+4*i); err != nil {
		return 0, err
	}
	o := uint64(binary.BigEndian.Uint32(b[:4]))
	if o&0x80000000 == 0 {
		return o, nil
	}
	k := int64(o &^ 0x80000000)
	if _, err := pi.f.ReadAt(b[:], pi.largeAt+8*k); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint64(b[:]), nil
}

func (pi *packIndex) find(raw []byte) (uint64, bool) {
	lo := int64(0)
	if raw[0] > 0 {
		lo = int64(pi.fanout[raw[0]-1])
	}
	hi := int64(pi.fanout[raw[0]])
	for lo < hi {
		mid := lo + (hi-lo)/2
		name, err := pi.name(mid)
		if err != nil {
			return 0, false
		}
		switch c := bytes.Compare(name, raw); {
		case c == 0:
			off, err := pi.offset(mid)
			return off, err == nil
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
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
