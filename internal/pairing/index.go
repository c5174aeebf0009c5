package pairing

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
)

// maxIndex bounds the index file the tool reads (git's own for a very large
// repository is a few hundred MB; a documentation check has no need for more).
const maxIndex = 256 << 20

// indexEntry returns the blob hash the index holds for rel at stage 0, reading
// $GIT_DIR/index (versions 2, 3 and 4) without running git. An index it cannot
// read gives no entry.
func (r *Repo) indexEntry(rel string) (string, bool) {
	if r.GitDir == "" {
		return "", false
	}
	if r.index == nil {
		r.index = map[string]string{}
		data, err := readRegular(r.indexPath(), maxIndex)
		if err == nil {
			parseIndex(data, r.Format.HexLen()/2, r.index)
		}
	}
	oid, ok := r.index[rel]
	return oid, ok
}

// indexPath is the index git uses: $GIT_INDEX_FILE when set (git sets it for
// hooks during `git commit -a` or a partial commit, pointing at the index being
// committed), else $GIT_DIR/index.
func (r *Repo) indexPath() string {
	if p := os.Getenv("GIT_INDEX_FILE"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.Root, p)
		}
		return p
	}
	return filepath.Join(r.GitDir, "index")
}

// parseIndex fills entries with path → hash for stage-0 entries, stopping at the
// first thing it cannot read: a truncated or hostile index yields fewer entries,
// never a panic.
func parseIndex(data []byte, hashLen int, entries map[string]string) {
	if len(data) < 12 || !bytes.Equal(data[:4], []byte("DIRC")) {
		return
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return
	}
	count := binary.BigEndian.Uint32(data[8:12])
	off := 12
	prev := ""
	for n := uint32(0); n < count; n++ {
		start := off
		fixed := 40 + hashLen + 2
		if off+fixed > len(data) {
			return
		}
		oid := hex.EncodeToString(data[off+40 : off+40+hashLen])
		flags := binary.BigEndian.Uint16(data[off+40+hashLen:])
		off += fixed
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > len(data) {
				return
			}
			off += 2
		}
		stage := (flags >> 12) & 3
		var name string
		if version == 4 {
			strip, k := indexVarint(data[off:])
			if k == 0 || strip > uint64(len(prev)) { // compared unconverted: a huge varint is no negative int
				return
			}
			off += k
			end := bytes.IndexByte(data[off:], 0)
			if end < 0 {
				return
			}
			name = prev[:len(prev)-int(strip)] + string(data[off:off+end])
			off += end + 1
		} else {
			end := bytes.IndexByte(data[off:], 0)
			if end < 0 {
				return
			}
			name = string(data[off : off+end])
			// Entries are padded with 1–8 NULs to a multiple of 8 bytes.
			size := (off - start + end + 8) &^ 7
			off = start + size
			if off > len(data) {
				return
			}
		}
		prev = name
		if stage == 0 {
			entries[name] = oid
		}
	}
}

// indexVarint decodes git's offset varint (index v4 path prefixes, OFS_DELTA).
func indexVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || i > 9 {
			return 0, 0
		}
		v++
		c = b[i]
		v = v<<7 | uint64(c&127)
		i++
	}
	return v, i
}
