package pairing

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// fileOps are the file-system calls WriteFileAtomic makes. Tests replace them to
// interrupt a write at each step, and to fail as a read-only folder does even when
// they run as root, whom file modes do not stop.
type fileOps struct {
	createTemp func(dir, pattern string) (*os.File, error)
	write      func(f *os.File, data []byte) (int, error)
	rename     func(from, to string) error
}

var ops = fileOps{
	createTemp: os.CreateTemp,
	write:      func(f *os.File, data []byte) (int, error) { return f.Write(data) },
	rename:     os.Rename,
}

// WriteFileAtomic replaces the file at path with data so that a reader, or a crash,
// sees either the old file whole or the new file whole, never a mix: it writes a
// temporary file in the same folder (so the rename cannot cross file systems),
// flushes it to disk, renames it over path, then flushes the folder so the rename
// itself survives a power cut. On any failure the temporary file is removed and
// path is untouched.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// The leading dot and trailing .tmp keep a leftover from a crash from ever
	// being taken for a record.
	tmp, err := ops.createTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
	}()
	n, err := ops.write(tmp, data)
	if err == nil && n != len(data) {
		err = fmt.Errorf("short write (%d of %d bytes)", n, len(data))
	}
	if err != nil {
		return err
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = ops.rename(name, path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir flushes a folder's entries. Some systems cannot sync a folder; the file
// is already in place then, so this is best effort.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// write re-records the pairs selected in one folder. selected holds the verdicts
// of that folder the user named: its record pair, its unrecorded translations, or
// both. Only the sides of a selected pair get current hashes: adding a new
// translation to a record leaves the hashes of the sides already in it alone.
func (r *Repo) write(folder string, selected []Pair) (action string, err error) {
	var recPair, newPair *Pair
	for i := range selected {
		if selected[i].Status == Unrecorded {
			newPair = &selected[i]
		} else {
			recPair = &selected[i]
		}
	}
	recRel := join(folder, RecordName)
	recAbs := r.Abs(recRel)
	var rec *Record
	if recPair != nil {
		switch recPair.Status {
		case Malformed, Unreadable:
			return "", fmt.Errorf("%s; fix or delete %s first", strings.TrimPrefix(recPair.Message, recRel+": "), recRel)
		case Missing:
			return "", fmt.Errorf("%s", recPair.Message)
		}
		rec = recPair.record
	} else if newPair != nil {
		// The user named only a new translation; the folder may still have a record.
		for _, p := range r.CheckFolder(folder) {
			if p.Status == Malformed || p.Status == Unreadable {
				return "", fmt.Errorf("%s; fix or delete %s first", p.Message, recRel)
			}
			if p.record != nil {
				rec = p.record
			}
		}
	}
	var add []Entry
	if newPair != nil {
		for _, s := range newPair.Sides {
			if s.Current == "" {
				return "", fmt.Errorf("cannot record %s: %s", s.Path, s.Problem)
			}
			if rec == nil || rec.Hash(filepathBase(s.Path)) == "" {
				add = append(add, Entry{Name: filepathBase(s.Path), Hash: s.Current})
			}
		}
	}
	hashes := map[string]string{}
	if recPair != nil {
		for _, s := range recPair.Sides {
			hashes[filepathBase(s.Path)] = s.Current
		}
	}
	if rec == nil {
		// A fresh record: README.md first, then the translations by name.
		sort.SliceStable(add, func(i, j int) bool {
			return add[i].Name == BaseName && add[j].Name != BaseName
		})
		hint := add[0].Name
		if folder != "." {
			hint = folder + "/" + hint
		}
		if strings.ContainsFunc(hint, func(c rune) bool { return c < 0x20 || c == 0x7f }) {
			hint = "<this folder>/README.md"
		}
		if err := r.checkWritable(recAbs); err != nil {
			return "", err
		}
		if err := WriteFileAtomic(recAbs, NewRecord(add, hint), 0o644); err != nil {
			return "", writeErr(recRel, err)
		}
		return "created", nil
	}
	if len(add) == 0 && recPair != nil && recPair.Status == Confirmed {
		return "unchanged", nil
	}
	data, err := rec.Rewrite(hashes, add, r.Format)
	if err != nil {
		return "", fmt.Errorf("cannot rewrite %s: %w", recRel, err)
	}
	if err := r.checkWritable(recAbs); err != nil {
		return "", err
	}
	perm := fs.FileMode(0o644)
	if info, err := os.Stat(recAbs); err == nil {
		perm = info.Mode().Perm()
	}
	if err := WriteFileAtomic(recAbs, data, perm); err != nil {
		return "", writeErr(recRel, err)
	}
	return "rewrote", nil
}

func filepathBase(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[i+1:]
	}
	return rel
}

// checkWritable refuses to replace a record that is a symbolic link (renaming over
// it would silently turn it into a regular file) or whose folder leads out of the
// repository.
func (r *Repo) checkWritable(recAbs string) error {
	if info, err := os.Lstat(recAbs); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link; --write replaces only regular files", r.Rel(recAbs))
	}
	real, err := filepath.EvalSymlinks(filepath.Dir(recAbs))
	if err != nil {
		return err
	}
	if !r.inside(real) {
		return fmt.Errorf("the folder of %s: %w (to %s)", r.Rel(recAbs), errOutside, real)
	}
	return nil
}

func writeErr(recRel string, err error) error {
	reason := plainErr(err)
	if errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "read-only file system") {
		reason = "its folder is not writable (" + reason + ")"
	}
	return fmt.Errorf("cannot write %s: %s; the record was left as it was", recRel, reason)
}
