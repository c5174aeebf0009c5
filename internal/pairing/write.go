package pairing

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
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
// flushes it to disk, reads it back and compares, renames it over path, then
// flushes the folder so the rename itself survives a power cut, and reads path
// back once more. On any failure before the rename the temporary file is removed
// and path is untouched. A temporary file is locked while it lives, so
// RemoveStaleTemps can tell one a killed run left from one being written, and it
// is removed by RemoveLiveTemps when the process is told to stop.
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
	live.add(name)
	defer live.remove(name)
	lockTemp(tmp)
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
	if err = readBack(name, data); err != nil {
		return err
	}
	if err = ops.rename(name, path); err != nil {
		return err
	}
	// The lock goes with the descriptor; the name is the record's now.
	tmp.Close()
	syncDir(dir)
	if err := readBack(path, data); err != nil {
		return fmt.Errorf("after the rename: %w", err)
	}
	return nil
}

// readBack checks that the file at path holds exactly data.
func readBack(path string, data []byte) error {
	got, err := readRegular(path, int64(len(data))+1)
	if err != nil {
		return fmt.Errorf("reading back what was written: %w", err)
	}
	if !bytes.Equal(got, data) {
		return errors.New("what was written does not read back the same")
	}
	return nil
}

// liveTemps are the temporary files this process is writing right now.
type liveTemps struct {
	mu    sync.Mutex
	names map[string]bool
}

var live = &liveTemps{names: map[string]bool{}}

func (l *liveTemps) add(n string) {
	l.mu.Lock()
	l.names[n] = true
	l.mu.Unlock()
}

func (l *liveTemps) remove(n string) {
	l.mu.Lock()
	delete(l.names, n)
	l.mu.Unlock()
}

// RemoveLiveTemps removes the temporary files a write in progress has created: a
// command calls it when a signal tells it to stop, so an interrupted --write
// leaves nothing behind but the record as it was.
func RemoveLiveTemps() {
	live.mu.Lock()
	defer live.mu.Unlock()
	for n := range live.names {
		os.Remove(n)
		delete(live.names, n)
	}
}

// RemoveStaleTemps removes, in dir, the temporary files WriteFileAtomic leaves
// for base when its process is killed before it can clean up (".README.i18n.yaml.
// <digits>.tmp"). A file another process is still writing is locked and left
// alone; where locks are not available, only files older than a minute go.
// It returns the names it removed.
func RemoveStaleTemps(dir, base string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	prefix := "." + base + "."
	var removed []string
	for _, e := range entries {
		n := e.Name()
		mid, ok := strings.CutPrefix(n, prefix)
		if !ok {
			continue
		}
		digits, ok := strings.CutSuffix(mid, ".tmp")
		if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
			continue
		}
		p := filepath.Join(dir, n)
		info, err := os.Lstat(p)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if !staleTemp(p, info) {
			continue
		}
		if os.Remove(p) == nil {
			removed = append(removed, n)
		}
	}
	return removed
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
			return "", fmt.Errorf("%s; fix or delete %s first", strings.TrimPrefix(recPair.Message, QuotePath(recRel)+": "), QuotePath(recRel))
		case Missing:
			return "", fmt.Errorf("%s", recPair.Message)
		}
		rec = recPair.record
	} else if newPair != nil {
		// The user named only a new translation; the folder may still have a record.
		for _, p := range r.CheckFolder(folder) {
			if p.Status == Malformed || p.Status == Unreadable {
				return "", fmt.Errorf("%s; fix or delete %s first", p.Message, QuotePath(recRel))
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
		if QuotePath(hint) != hint {
			// A comment cannot hold what a terminal would act on, or bytes that are
			// not UTF-8 (the record would not parse): name the folder generically.
			hint = "<this folder>/" + add[0].Name
		}
		for _, e := range add {
			if err := recordableName(e.Name); err != nil {
				return "", err
			}
		}
		data := NewRecord(add, hint)
		if err := checkNewRecord(data, add, r.Format); err != nil {
			return "", fmt.Errorf("cannot create %s: %w", QuotePath(recRel), err)
		}
		if err := r.checkWritable(recAbs); err != nil {
			return "", err
		}
		if err := WriteFileAtomic(recAbs, data, 0o644); err != nil {
			return "", writeErr(recRel, err)
		}
		return "created", nil
	}
	if len(add) == 0 && recPair != nil && recPair.Status == Confirmed {
		return "unchanged", nil
	}
	for _, e := range add {
		if err := recordableName(e.Name); err != nil {
			return "", err
		}
	}
	data, err := rec.Rewrite(hashes, add, r.Format)
	if err != nil {
		return "", fmt.Errorf("cannot rewrite %s: %w", QuotePath(recRel), err)
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

// recordableName refuses a name a record cannot hold as written: a record is
// UTF-8 YAML, and a name that is not valid UTF-8 (or holds control characters)
// would make a record the tool itself then rejects as malformed.
func recordableName(name string) error {
	if !utf8.ValidString(name) {
		return fmt.Errorf("cannot record %s: the name is not valid UTF-8, and a record is UTF-8; rename the file", QuotePath(name))
	}
	if strings.ContainsFunc(name, func(c rune) bool { return c < 0x20 || c == 0x7f }) {
		return fmt.Errorf("cannot record %s: the name holds control characters; rename the file", QuotePath(name))
	}
	return nil
}

// checkNewRecord parses a record about to be created: it must list exactly add.
func checkNewRecord(data []byte, add []Entry, f ObjectFormat) error {
	back, err := ParseRecord(data, f)
	if err != nil {
		return fmt.Errorf("the new record would not read back: %w", err)
	}
	if len(back.Entries) != len(add) {
		return errors.New("the new record would not read back with the same sides")
	}
	for i, e := range back.Entries {
		if e.Name != add[i].Name || e.Hash != add[i].Hash {
			return fmt.Errorf("the new record would not read back as intended (side %s)", QuotePath(add[i].Name))
		}
	}
	return nil
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
		return fmt.Errorf("%s is a symbolic link; --write replaces only regular files", QuotePath(r.Rel(recAbs)))
	}
	real, err := filepath.EvalSymlinks(filepath.Dir(recAbs))
	if err != nil {
		return err
	}
	if !r.inside(real) {
		return fmt.Errorf("the folder of %s: %w (to %s)", QuotePath(r.Rel(recAbs)), errOutside, QuotePath(real))
	}
	return nil
}

func writeErr(recRel string, err error) error {
	reason := plainErr(err)
	if errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "read-only file system") {
		reason = "its folder is not writable (" + reason + ")"
	}
	return fmt.Errorf("cannot write %s: %s; the record was left as it was", QuotePath(recRel), reason)
}

// writeSet re-records the selected documents of a configured set in its record
// and returns the fresh verdicts of those documents.
func (r *Repo) writeSet(s *pairSet, pairs []Pair) []Pair {
	action, err := r.writeSetRecord(s, pairs)
	if err != nil {
		for i := range pairs {
			pairs[i].Action, pairs[i].WriteError = "failed", err.Error()
		}
		return pairs
	}
	docs := map[string]bool{}
	newDocs := map[string]bool{}
	for _, p := range pairs {
		docs[p.doc] = true
		if p.Status == Unrecorded {
			newDocs[p.doc] = true
		}
	}
	r.conf = nil // read the config and the record again, as they are on disk now
	files, _, _ := r.listFiles()
	var out []Pair
	for _, p := range r.checkSets(files) {
		if p.Record != s.Record || !docs[p.doc] {
			continue
		}
		if p.Status == Unrecorded && !newDocs[p.doc] {
			continue // languages the user did not name stay as they were, unreported
		}
		if p.Status != Unrecorded {
			p.Action = action
		}
		out = append(out, p)
	}
	return out
}

func (r *Repo) writeSetRecord(s *pairSet, selected []Pair) (string, error) {
	var rec *Record
	hashes := map[string]string{}
	var add []Entry
	allConfirmed := true
	name := func(rel string) string {
		if s.recordDir == "." {
			return rel
		}
		return strings.TrimPrefix(rel, s.recordDir+"/")
	}
	for _, p := range selected {
		switch p.Status {
		case Malformed, Unreadable:
			if p.record == nil {
				return "", fmt.Errorf("%s; fix or delete %s first", p.Message, QuotePath(s.Record))
			}
			return "", errors.New(p.Message)
		case Missing:
			return "", errors.New(p.Message)
		}
		if p.record != nil {
			rec = p.record
		}
		if p.Status == Unrecorded {
			for _, sd := range p.Sides {
				if sd.Current == "" {
					return "", fmt.Errorf("cannot record %s: %s", QuotePath(sd.Path), sd.Problem)
				}
				if err := recordableName(sd.Path); err != nil {
					return "", err
				}
				add = append(add, Entry{Name: name(sd.Path), Hash: sd.Current})
			}
			allConfirmed = false
			continue
		}
		if p.Status != Confirmed {
			allConfirmed = false
		}
		for _, sd := range p.Sides {
			hashes[name(sd.Path)] = sd.Current
		}
	}
	recAbs := r.Abs(s.Record)
	if rec == nil {
		if len(add) < 2 {
			return "", fmt.Errorf("a record pairs at least two files; %s has no other language yet", QuotePath(selected[0].Label()))
		}
		hint := selected[0].Sides[0].Path
		if QuotePath(hint) != hint {
			hint = "<a side of the document>"
		}
		data := NewRecord(add, hint)
		back, err := ParseSetRecord(data, r.Format)
		if err == nil && len(back.Entries) != len(add) {
			err = errors.New("the new record would not read back with the same sides")
		}
		if err != nil {
			return "", fmt.Errorf("cannot create %s: %w", QuotePath(s.Record), err)
		}
		// Create missing folders only below an existing one inside the repository:
		// a symbolic link on the way must not lead the new folders out of it.
		existing := filepath.Dir(recAbs)
		for {
			if _, err := os.Lstat(existing); err == nil || existing == r.Root {
				break
			}
			existing = filepath.Dir(existing)
		}
		if real, err := filepath.EvalSymlinks(existing); err != nil || !r.inside(real) {
			return "", fmt.Errorf("the folder of %s: %w", QuotePath(s.Record), errOutside)
		}
		if err := os.MkdirAll(filepath.Dir(recAbs), 0o755); err != nil {
			return "", writeErr(s.Record, err)
		}
		if err := r.checkWritable(recAbs); err != nil {
			return "", err
		}
		if err := WriteFileAtomic(recAbs, data, 0o644); err != nil {
			return "", writeErr(s.Record, err)
		}
		return "created", nil
	}
	var fresh []Entry
	for _, e := range add {
		if rec.Hash(e.Name) == "" {
			fresh = append(fresh, e)
		}
	}
	if len(fresh) == 0 && allConfirmed {
		return "unchanged", nil
	}
	data, err := rec.Rewrite(hashes, fresh, r.Format)
	if err != nil {
		return "", fmt.Errorf("cannot rewrite %s: %w", QuotePath(s.Record), err)
	}
	if err := r.checkWritable(recAbs); err != nil {
		return "", err
	}
	perm := fs.FileMode(0o644)
	if info, err := os.Stat(recAbs); err == nil {
		perm = info.Mode().Perm()
	}
	if err := WriteFileAtomic(recAbs, data, perm); err != nil {
		return "", writeErr(s.Record, err)
	}
	return "rewrote", nil
}
