package cases

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// CompiledName is the file of a fixture folder that holds its *.yaml cases compiled
// (Compile): Load reads it instead of the YAML when it was compiled from exactly the YAML
// beside it (same Hash), so a run does not parse two megabytes of YAML (about 100 ms, most
// of a short run) in every process. A folder without it, or with a stale one, is read from
// its YAML: the file is a cache, never the data.
const CompiledName = "cases.bin"

// compiledMagic starts every compiled file; the number is the version of the encoding.
const compiledMagic = "sessionref-kit compiled fixture cases 2\n"

// Compile parses every *.yaml file of fsys and returns the compiled form Load reads from
// CompiledName: the cases exactly as Parse returns them, headed by the Hash of the YAML.
func Compile(fsys fs.FS) ([]byte, error) {
	files, err := loadYAML(fsys)
	if err != nil {
		return nil, err
	}
	h, err := Hash(fsys)
	if err != nil {
		return nil, err
	}
	e := &encoder{b: []byte(compiledMagic + h + "\n")}
	e.uint(uint64(len(files)))
	for _, f := range files {
		e.str(f.Name)
		e.uint(uint64(f.Version))
		e.str(f.Op)
		e.uint(uint64(len(f.Cases)))
		for _, c := range f.Cases {
			if err := e.kase(c); err != nil {
				return nil, fmt.Errorf("%s: %w", f.FullName(c), err)
			}
		}
	}
	return e.b, nil
}

// loadCompiled returns the cases of fsys's CompiledName when it was compiled from the YAML of
// fsys, hash being Hash(fsys).
func loadCompiled(fsys fs.FS, hash string) ([]File, bool) {
	data, err := fs.ReadFile(fsys, CompiledName)
	if err != nil {
		return nil, false
	}
	head := compiledMagic + hash + "\n"
	if !strings.HasPrefix(string(data[:min(len(data), len(head))]), head) {
		return nil, false // stale, or of another encoding: the YAML is read
	}
	d := &decoder{s: string(data[len(head):])}
	files, err := d.files()
	if err != nil || d.s != "" {
		// Compile wrote it from this very YAML, so this is a bug of the kit; the YAML
		// still gives the right cases (TestCompiledUpToDate fails on it).
		return nil, false
	}
	return files, true
}

// The tags of the values of the encoding.
const (
	tagNull byte = iota
	tagFalse
	tagTrue
	tagFloat  // float64 bits, little endian
	tagString // WTF-8 bytes
	tagNumber // wire.Number text
	tagArray  // count, then the elements
	tagObject // count, then key and value pairs in Keys order
	// tagKeptObject is an object marked with wire.Object.KeepOrder: count, then key and
	// value pairs in the order set (KeysAsSet). (Version 2 of the encoding.)
	tagKeptObject
)

type encoder struct{ b []byte }

func (e *encoder) uint(n uint64) { e.b = binary.AppendUvarint(e.b, n) }

func (e *encoder) str(s string) { e.uint(uint64(len(s))); e.b = append(e.b, s...) }

// strs keeps nil apart from empty: a case's lists are copied into reports as they are.
func (e *encoder) strs(l []string) {
	if l == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(l)) + 1)
	for _, s := range l {
		e.str(s)
	}
}

func (e *encoder) float(f float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(f)) }

func (e *encoder) value(v any) error {
	switch x := v.(type) {
	case nil:
		e.b = append(e.b, tagNull)
	case bool:
		if x {
			e.b = append(e.b, tagTrue)
		} else {
			e.b = append(e.b, tagFalse)
		}
	case float64:
		e.b = append(e.b, tagFloat)
		e.float(x)
	case string:
		e.b = append(e.b, tagString)
		e.str(x)
	case wire.Number:
		e.b = append(e.b, tagNumber)
		e.str(string(x))
	case []any:
		e.b = append(e.b, tagArray)
		e.uint(uint64(len(x)))
		for _, el := range x {
			if err := e.value(el); err != nil {
				return err
			}
		}
	case *wire.Object:
		if x == nil {
			return errors.New("a nil object")
		}
		keys := x.Keys()
		if x.KeepsOrder() {
			e.b = append(e.b, tagKeptObject)
			keys = x.KeysAsSet()
		} else {
			e.b = append(e.b, tagObject)
		}
		e.uint(uint64(len(keys)))
		for _, k := range keys {
			e.str(k)
			el, _ := x.Get(k)
			if err := e.value(el); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("a value of type %T", v)
	}
	return nil
}

// The bits of a Want's flags byte.
const (
	wantOK byte = 1 << iota
	wantReads
	wantLists
)

func (e *encoder) kase(c Case) error {
	e.str(c.Name)
	e.uint(uint64(c.Line))
	e.strs(c.Requirements)
	e.strs(c.Traps)
	e.strs(c.Profiles)
	e.strs(c.Features)
	if err := e.value(c.Args); err != nil {
		return err
	}
	w := c.Want
	var flags byte
	if w.OK {
		flags |= wantOK
	}
	if w.HasReads {
		flags |= wantReads
	}
	if w.HasLists {
		flags |= wantLists
	}
	e.b = append(e.b, flags)
	if w.OK {
		return e.value(w.Result)
	}
	e.str(w.Code)
	if w.HasReads {
		if w.Reads == nil {
			return errors.New("want.reads is nil")
		}
		if err := e.value(w.Reads); err != nil {
			return err
		}
	}
	if w.HasLists {
		e.float(w.Lists)
	}
	return nil
}

// decoder reads the encoding from s; its strings are substrings of s.
type decoder struct{ s string }

var errCorrupt = errors.New("corrupt compiled fixtures")

// count reads a count, bounded by what is left, so a corrupt one cannot allocate much.
func (d *decoder) count() (int, error) {
	n, err := d.uint()
	if err != nil || n > uint64(len(d.s)) {
		return 0, errCorrupt
	}
	return int(n), nil
}

func (d *decoder) uint() (uint64, error) {
	var n uint64
	for i := 0; i < len(d.s) && i < binary.MaxVarintLen64; i++ {
		b := d.s[i]
		if b < 0x80 {
			if i == binary.MaxVarintLen64-1 && b > 1 {
				return 0, errCorrupt
			}
			d.s = d.s[i+1:]
			return n | uint64(b)<<(7*i), nil
		}
		n |= uint64(b&0x7f) << (7 * i)
	}
	return 0, errCorrupt
}

func (d *decoder) str() (string, error) {
	n, err := d.count()
	if err != nil {
		return "", err
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s, nil
}

func (d *decoder) strs() ([]string, error) {
	n, err := d.count()
	if err != nil || n == 0 {
		return nil, err
	}
	l := make([]string, n-1)
	for i := range l {
		if l[i], err = d.str(); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func (d *decoder) byte() (byte, error) {
	if d.s == "" {
		return 0, errCorrupt
	}
	b := d.s[0]
	d.s = d.s[1:]
	return b, nil
}

func (d *decoder) float() (float64, error) {
	if len(d.s) < 8 {
		return 0, errCorrupt
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64([]byte(d.s[:8])))
	d.s = d.s[8:]
	return f, nil
}

func (d *decoder) value(depth int) (any, error) {
	if depth > wire.MaxDepth {
		return nil, errCorrupt
	}
	tag, err := d.byte()
	if err != nil {
		return nil, err
	}
	switch tag {
	case tagNull:
		return nil, nil
	case tagFalse:
		return false, nil
	case tagTrue:
		return true, nil
	case tagFloat:
		return d.float()
	case tagString:
		return d.str()
	case tagNumber:
		s, err := d.str()
		return wire.Number(s), err
	case tagArray:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		a := make([]any, n)
		for i := range a {
			if a[i], err = d.value(depth + 1); err != nil {
				return nil, err
			}
		}
		return a, nil
	case tagObject, tagKeptObject:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		o := wire.NewObject()
		for range n {
			k, err := d.str()
			if err != nil {
				return nil, err
			}
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			o.Set(k, v)
		}
		if tag == tagKeptObject {
			o.KeepOrder()
		}
		return o, nil
	}
	return nil, errCorrupt
}

func (d *decoder) files() ([]File, error) {
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	files := make([]File, n)
	for i := range files {
		f := &files[i]
		if f.Name, err = d.str(); err != nil {
			return nil, err
		}
		v, err := d.uint()
		if err != nil {
			return nil, err
		}
		f.Version = int(v)
		if f.Op, err = d.str(); err != nil {
			return nil, err
		}
		nc, err := d.count()
		if err != nil {
			return nil, err
		}
		if nc > 0 {
			f.Cases = make([]Case, nc)
		}
		for j := range f.Cases {
			if f.Cases[j], err = d.kase(); err != nil {
				return nil, err
			}
		}
	}
	return files, nil
}

func (d *decoder) kase() (Case, error) {
	var c Case
	var err error
	if c.Name, err = d.str(); err != nil {
		return c, err
	}
	line, err := d.uint()
	if err != nil {
		return c, err
	}
	c.Line = int(line)
	for _, l := range []*[]string{&c.Requirements, &c.Traps, &c.Profiles, &c.Features} {
		if *l, err = d.strs(); err != nil {
			return c, err
		}
	}
	args, err := d.value(0)
	if err != nil {
		return c, err
	}
	var ok bool
	if c.Args, ok = args.(*wire.Object); !ok {
		return c, errCorrupt
	}
	flags, err := d.byte()
	if err != nil {
		return c, err
	}
	w := &c.Want
	w.OK, w.HasReads, w.HasLists = flags&wantOK != 0, flags&wantReads != 0, flags&wantLists != 0
	if w.OK {
		w.Result, err = d.value(0)
		return c, err
	}
	if w.Code, err = d.str(); err != nil {
		return c, err
	}
	if w.HasReads {
		r, err := d.value(0)
		if err != nil {
			return c, err
		}
		if w.Reads, ok = r.([]any); !ok {
			return c, errCorrupt
		}
	}
	if w.HasLists {
		if w.Lists, err = d.float(); err != nil {
			return c, err
		}
	}
	return c, nil
}
