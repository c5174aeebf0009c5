package pairing

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
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
// and path is untouched. A process killed or interrupted (no signal is caught
// but while git runs, and then it is forwarded to git and raised again at once: the
// rename is what makes the new record, so stopping anywhere leaves the old
// one or the new one whole) leaves at most the temporary file, which the next
// run removes (RemoveStaleTemps).
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	// The leading dot and trailing .tmp keep a leftover from a crash from ever
	// being taken for a record.
	tmp, err := ops.createTemp(dir, "."+filepath.Base(path)+".*.tmp")
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
	if err = readBack(name, data); err != nil {
		return err
	}
	if err = ops.rename(name, path); err != nil {
		return err
	}
	// The lock goes with the descriptor; the name is the record's now.
	tmp.Close()
	// Some systems cannot sync a folder; the file is in place then anyway.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
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

// RemoveStaleTemps removes, in dir, the temporary files a --write of base left
// when its process was killed before it could clean up (".README.i18n.yaml.
// <digits>.tmp", and the lock file its system released). It takes the record's
// lock first, without waiting: while another --write holds it, its files are
// live and stay. It returns the names it removed.
func RemoveStaleTemps(dir, base string) []string {
	entries, _ := os.ReadDir(dir) // what cannot be listed is not removed
	var stale []string
	temp := regexp.MustCompile(`^(\.` + regexp.QuoteMeta(base) + `\.[0-9]+\.tmp|` + regexp.QuoteMeta(base) + `\.lock)$`)
	for _, e := range entries {
		if temp.MatchString(e.Name()) && e.Type().IsRegular() {
			stale = append(stale, e.Name())
		}
	}
	if len(stale) == 0 {
		return nil
	}
	unlock, err := lockRecord(filepath.Join(dir, base), 0)
	if err != nil {
		return nil
	}
	defer unlock()
	var removed []string
	for _, n := range stale {
		if os.Remove(filepath.Join(dir, n)) == nil {
			removed = append(removed, n)
		}
	}
	return removed
}

// Written is one hash a --write put in a record.
type Written struct {
	Path string `json:"path"`
	From string `json:"from,omitempty"` // the hash it replaced; "" for a side added
	To   string `json:"to"`
}

// A write refused by decision rather than failed: one side changed and nobody
// said the other needs no change.
const refused = "refused"

// writeGroup re-records the selected pairs of one record (a README folder's, or
// a set's) under the record's lock: the record is read again once the lock is
// held, so a --write that ran meanwhile is built on, not undone. It writes the
// record (rewritten, or created for a new pair) only if a hash changes, and
// returns the verdicts as they are on disk afterwards.
func (r *Repo) writeGroup(s *pairSet, selected []Pair, o Options) []Pair {
	fail := func(action string, err error) []Pair {
		for i := range selected {
			selected[i].Action, selected[i].WriteError = action, err.Error()
		}
		return selected
	}
	recRel, dir := s.Record, path.Dir(s.Record)
	if err := r.makeRecordFolder(recRel); err != nil {
		return fail("failed", err)
	}
	unlock, err := lockRecord(r.Abs(recRel), cmp.Or(o.LockWait, LockWait))
	if err != nil {
		var le *LockError
		if !errors.As(err, &le) {
			err = writeErr(recRel, err)
		}
		return fail("failed", err)
	}
	defer unlock()
	var now []Pair // the fresh verdicts of what the user named
	for _, p := range r.checkSet(s) {
		// A record that cannot be used answers for all it would name.
		if len(p.Sides) == 0 || slices.ContainsFunc(selected, func(q Pair) bool {
			return p.doc == q.doc && (p.Status == Unrecorded) == (q.Status == Unrecorded)
		}) {
			now = append(now, p)
		}
	}
	if len(now) == 0 {
		return fail("failed", errors.New("what was named changed while waiting for the lock; check again"))
	}
	rec := now[0].record // every pair of the group holds the same record, or none
	hashes := map[string]string{}
	var add []Entry // sides no record names yet (checkSet names none it lists)
	for _, p := range now {
		switch {
		case p.Status == Malformed || p.Status == Unreadable:
			msg := strings.TrimPrefix(p.Message, QuotePath(recRel)+": ")
			if len(p.Sides) == 0 {
				msg += "; fix or delete " + QuotePath(recRel) + " first"
			}
			return fail("failed", errors.New(msg))
		case p.Status == Missing:
			return fail("failed", errors.New(p.Message))
		case p.Status == Changed && !o.OtherSideNeedsNoChange:
			return fail(refused, errors.New(p.refusal))
		}
		for _, side := range p.Sides {
			name := strings.TrimPrefix(side.Path, dir+"/")
			if p.Status != Unrecorded {
				hashes[name] = side.Current
			} else if side.Current == "" {
				return fail("failed", fmt.Errorf("cannot record %s: %s", QuotePath(side.Path), side.Problem))
			} else if err := recordableName(name); err != nil {
				return fail("failed", err)
			} else {
				add = append(add, Entry{Name: name, Hash: side.Current})
			}
		}
	}
	action, perm := "rewrote", fs.FileMode(0o644)
	if rec == nil {
		if len(add) < 2 {
			return fail("failed", fmt.Errorf("a record pairs at least two files; %s has no other language yet", QuotePath(path.Join(dir, add[0].Name))))
		}
		// README.md first, then the translations by name.
		sort.SliceStable(add, func(i, j int) bool { return add[i].Name == BaseName && add[j].Name != BaseName })
		hint := path.Join(dir, add[0].Name)
		if QuotePath(hint) != hint {
			// A comment cannot hold what a terminal would act on, or bytes that are
			// not UTF-8 (the record would not parse): name the side generically.
			hint = "<a side of the pair>"
		}
		action, rec = "created", newRecord(hint, !s.readme)
	} else if info, err := os.Stat(r.Abs(recRel)); err == nil {
		perm = info.Mode().Perm()
	}
	var wrote []Written
	for _, e := range rec.Entries {
		if h, ok := hashes[e.Name]; ok && h != e.Hash {
			wrote = append(wrote, Written{Path: path.Join(dir, e.Name), From: e.Hash, To: h})
		}
	}
	for _, e := range add {
		wrote = append(wrote, Written{Path: path.Join(dir, e.Name), To: e.Hash})
	}
	if len(wrote) == 0 {
		action = "unchanged"
	} else if err := r.writeRecord(recRel, rec, hashes, add, perm); err != nil {
		return fail("failed", err)
	}
	var out []Pair
	for _, p := range r.checkSet(s) {
		if !slices.ContainsFunc(now, func(q Pair) bool { return p.doc == q.doc && (p.Status != Unrecorded || q.Status == Unrecorded) }) {
			continue
		}
		if p.Status != Unrecorded {
			p.Action = action
			for _, w := range wrote {
				if p.has(w.Path) {
					p.Wrote = append(p.Wrote, w)
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// makeRecordFolder creates the folders of a set's record, only below an
// existing one inside the repository: a symbolic link on the way must not lead
// the new folders out of it.
func (r *Repo) makeRecordFolder(recRel string) error {
	existing := path.Dir(recRel)
	for existing != "." {
		if _, err := os.Lstat(r.Abs(existing)); err == nil {
			break
		}
		existing = path.Dir(existing)
	}
	if _, err := r.resolve(existing); err != nil {
		return fmt.Errorf("the folder of %s: %w", QuotePath(recRel), err)
	}
	if err := os.MkdirAll(r.Abs(path.Dir(recRel)), 0o755); err != nil {
		return writeErr(recRel, err)
	}
	return nil
}

// writeRecord replaces the record at recRel with rec, its hashes replaced and
// add appended, refusing to replace a symbolic link.
func (r *Repo) writeRecord(recRel string, rec *Record, hashes map[string]string, add []Entry, perm fs.FileMode) error {
	data, err := rec.Rewrite(hashes, add, r.Format)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", QuotePath(recRel), err)
	}
	if info, err := os.Lstat(r.Abs(recRel)); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		// Renaming over a link would silently turn it into a regular file.
		return fmt.Errorf("%s is a symbolic link; --write replaces only regular files", QuotePath(recRel))
	}
	if err := WriteFileAtomic(r.Abs(recRel), data, perm); err != nil {
		return writeErr(recRel, err)
	}
	return nil
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

func writeErr(recRel string, err error) error {
	reason := plainErr(err)
	if errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "read-only file system") {
		reason = "its folder is not writable (" + reason + ")"
	}
	return fmt.Errorf("cannot write %s: %s; the record was left as it was", QuotePath(recRel), reason)
}
