package pairing

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Status is the one verdict a pair gets.
type Status string

// The verdicts, from good to bad. Only Confirmed counts as confirmed.
const (
	// Confirmed: every side still has the hash recorded when a person confirmed the pair.
	Confirmed Status = "confirmed"
	// Changed: exactly one side changed since confirmation; the others must be brought along.
	Changed Status = "changed"
	// BothChanged: more than one side changed, so no side can be taken as the
	// reference any more: a person must re-confirm them against each other.
	BothChanged Status = "both-changed"
	// Missing: a side named by the record does not exist.
	Missing Status = "missing"
	// Malformed: the record cannot be read as a record (bad YAML, a path outside its
	// folder, a bad hash); nothing about the sides is known.
	Malformed Status = "malformed"
	// Unreadable: the record or a side exists but cannot be read: permissions, not a
	// regular file, or a symbolic link leading out of the repository.
	Unreadable Status = "unreadable"
	// Unrecorded: README.<lang>.md files sit beside a README.md, but no record names them.
	Unrecorded Status = "unrecorded"
)

// SideState is what happened to one side since confirmation.
type SideState string

// The states of a side.
const (
	SideUnchanged  SideState = "unchanged"
	SideChanged    SideState = "changed"
	SideMissing    SideState = "missing"
	SideUnreadable SideState = "unreadable"
	SideUnrecorded SideState = "unrecorded"
)

// Side is one file of a pair. Paths are slash-separated and repository-relative.
type Side struct {
	Path string `json:"path"`
	// PathQuoted is the path quoted as QuotePath quotes it, set only when the path
	// is not valid UTF-8: JSON cannot carry those bytes, and would print U+FFFD.
	PathQuoted string    `json:"pathQuoted,omitempty"`
	State      SideState `json:"state"`
	Recorded   string    `json:"recorded,omitempty"` // the hash in the record; "" when unrecorded
	Current    string    `json:"current,omitempty"`  // the hash of the file now; "" when it cannot be read
	Problem    string    `json:"problem,omitempty"`  // why it is missing or unreadable
	// Conversion is set when the blob git would store differs from the file's
	// bytes: the hashes are of git's blob.
	Conversion *Conversion `json:"conversion,omitempty"`
	// Changes says what changed since the confirmed state, for a changed side.
	Changes *Changes `json:"changes,omitempty"`
}

// Pair is the verdict on one record, or on one set of unrecorded translations.
type Pair struct {
	Status Status `json:"status"`
	// Record is the repository-relative path of the record (which may not exist yet
	// for an unrecorded pair).
	Record string `json:"record"`
	Sides  []Side `json:"sides"`
	// Message is the one-line explanation printed after the status, with the next step.
	Message string `json:"message"`
	// Line is the record line a Malformed verdict points at, 0 when none applies.
	Line int `json:"line,omitempty"`
	// Action says what --write did: "rewrote", "created", "unchanged", "failed",
	// or "refused" (one side changed, and Options.OtherSideNeedsNoChange not given).
	Action string `json:"action,omitempty"`
	// Wrote lists every hash --write changed or added in the record for this pair.
	Wrote []Written `json:"wrote,omitempty"`
	// WriteError explains a failed --write.
	WriteError string `json:"writeError,omitempty"`
	// Set names the configured set (ConfigName) the pair belongs to; "" for a
	// README pair.
	Set string `json:"set,omitempty"`

	record *Record // nil unless the record parsed
	doc    string  // the document's key within its set
}

// OK reports whether the pair is confirmed (and, under --write, was written).
func (p Pair) OK() bool { return p.Status == Confirmed && p.Action != "failed" && p.Action != refused }

// Label names the pair's sides for output: "docs/README.md <-> docs/README.zh.md".
func (p Pair) Label() string {
	var names []string
	for _, s := range p.Sides {
		names = append(names, QuotePath(s.Path))
	}
	if len(names) == 0 {
		return QuotePath(p.Record)
	}
	return strings.Join(names, " <-> ")
}

// Has reports whether the pair has a side at the repository-relative path rel.
func (p Pair) Has(rel string) bool {
	for _, s := range p.Sides {
		if s.Path == rel {
			return true
		}
	}
	return false
}

// readRecord reads a record after checking that it, through any symbolic links,
// stays inside the repository and is a regular file.
func (r *Repo) readRecord(recRel string) ([]byte, error) {
	abs, err := r.resolve(recRel)
	if err != nil {
		return nil, err
	}
	// A record is a few lines; refuse something absurd rather than read it all.
	return readRegular(abs, 1<<20)
}

// errOutside marks a path that leads out of the repository through a symbolic link.
var errOutside = errors.New("symbolic link leads outside the repository")

// resolve returns the absolute path of rel with symbolic links followed, or an error
// if that leaves the repository. A missing file resolves to an fs.ErrNotExist error.
func (r *Repo) resolve(rel string) (string, error) {
	abs := r.Abs(rel)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	if !r.inside(real) {
		return "", fmt.Errorf("%w (to %s)", errOutside, QuotePath(real))
	}
	return real, nil
}

// loadRecord reads and parses p's record into p.record (a set's record, whose
// keys are paths, with paths). When it cannot, p becomes the record's
// Unreadable or Malformed verdict and loadRecord returns false.
func (r *Repo) loadRecord(p *Pair, paths bool) bool {
	data, err := r.readRecord(p.Record)
	if err != nil {
		p.Status = Unreadable
		p.Message = fmt.Sprintf("%s cannot be read: %s", QuotePath(p.Record), plainErr(err))
		return false
	}
	rec, err := parseRecord(data, r.Format, paths)
	if err != nil {
		var re *RecordError
		p.Status = Malformed
		if errors.As(err, &re) {
			p.Line = re.Line
		}
		p.Message = fmt.Sprintf("%s: %s; fix the record, or delete it and re-record with --write", QuotePath(p.Record), err)
		return false
	}
	p.record = rec
	return true
}

// judge hashes each side a record lists (its Path and Recorded hash) and gives
// the pair its sides, status and message.
func (r *Repo) judge(p *Pair, sides []Side) {
	recRel := p.Record
	var changed, unchanged, missing, unreadable, paths []string
	for _, s := range sides {
		paths = append(paths, s.Path)
	}
	r.prefetch(paths)
	for _, s := range sides {
		h, err := r.hashSide(s.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			s.State, s.Problem = SideMissing, plainErr(err)
			missing = append(missing, QuotePath(s.Path))
		case err != nil:
			s.State, s.Problem = SideUnreadable, plainErr(err)
			unreadable = append(unreadable, QuotePath(s.Path)+" cannot be read: "+s.Problem)
		case h == s.Recorded:
			s.State, s.Current = SideUnchanged, h
			unchanged = append(unchanged, QuotePath(s.Path))
		default:
			s.State, s.Current = SideChanged, h
			changed = append(changed, QuotePath(s.Path))
		}
		if s.Current != "" {
			s.Conversion = r.conversion(s.Path, s.Current)
		}
		p.Sides = append(p.Sides, s)
	}
	writeHint := r.fixCommand(p.Sides[0].Path, false)
	switch {
	case len(missing) > 0:
		p.Status = Missing
		p.Message = fmt.Sprintf("%s %s missing (named in %s); restore it, or delete the record if the translation was dropped",
			list(missing), pronoun(missing, "is", "are"), QuotePath(recRel))
	case len(unreadable) > 0:
		p.Status = Unreadable
		p.Message = strings.Join(unreadable, "; ")
	case len(changed) == 0:
		p.Status = Confirmed
		p.Message = fmt.Sprintf("%s (%s)", p.Label(), QuotePath(recRel))
	case len(changed) == 1:
		p.Status = Changed
		p.Message = fmt.Sprintf("%s changed since confirmation; bring %s along, then re-record with: %s (if %s %s no change: %s)",
			changed[0], list(unchanged), writeHint, list(unchanged), pronoun(unchanged, "needs", "need"), r.fixCommand(p.Sides[0].Path, true))
	default:
		p.Status = BothChanged
		adverb := ""
		if len(changed) == len(p.Sides) {
			adverb = "both "
			if len(changed) > 2 {
				adverb = "all "
			}
		}
		p.Message = fmt.Sprintf("%s %schanged since confirmation; re-confirm they match, then re-record with: %s",
			list(changed), adverb, writeHint)
	}
}

// changesSince diffs the confirmed blob, read through `git cat-file`, with the
// side as git would store it now.
func (r *Repo) changesSince(rel, oid string) Changes {
	if r.GitDir == "" {
		return Changes{Source: "unavailable", Reason: "not a git repository: the confirmed state is not stored anywhere"}
	}
	// git opens a loose object without checking its type: a named pipe there
	// would hold it until the timeout.
	if info, err := os.Stat(filepath.Join(r.GitDir, "objects", oid[:2], oid[2:])); err == nil && !info.Mode().IsRegular() {
		return Changes{Source: "unavailable", Reason: fmt.Sprintf("loose object %s: not a regular file (%s)", oid, describeMode(info.Mode()))}
	}
	old, ok, err := r.catBlob(oid)
	if err != nil {
		return Changes{Source: "unavailable", Reason: err.Error()}
	}
	if !ok {
		return Changes{Source: "unavailable", Reason: "the confirmed blob " + oid + " is not in the repository's objects (it was never added, or was pruned)"}
	}
	c, err := r.gitDiff(rel, old)
	if err != nil {
		return Changes{Source: "unavailable", Reason: err.Error()}
	}
	c.Source = "git"
	return c
}

// sideInfo is what a run learned of a side: its absolute path once checked
// (checkSide), git's hash of its blob and of its bytes (raw), or why there is
// none.
type sideInfo struct {
	abs, hash, raw string
	err            error
}

// side checks rel, once a run, and returns what is known of it.
func (r *Repo) side(rel string) *sideInfo {
	if s, ok := r.sides[rel]; ok {
		return s
	}
	s := &sideInfo{}
	s.abs, s.err = r.checkSide(rel)
	if r.sides == nil {
		r.sides = map[string]*sideInfo{}
	}
	r.sides[rel] = s
	return s
}

// checkSide checks that a side stays inside the repository and is a regular
// file it can open, and returns its resolved absolute path: git is given only
// files it can read without waiting.
func (r *Repo) checkSide(rel string) (string, error) {
	abs, err := r.resolve(rel)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(r.Abs(rel)); lerr == nil {
			return "", fmt.Errorf("%w: a symbolic link to a missing file", fs.ErrNotExist)
		}
	}
	if err != nil {
		return "", err
	}
	f, err := openRegular(abs)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > maxDocument {
		return "", fmt.Errorf("larger than %d bytes", maxDocument)
	}
	return abs, nil
}

// hashSide returns git's hash of a side after checking it (checkSide).
func (r *Repo) hashSide(rel string) (string, error) {
	r.prefetch([]string{rel})
	s := r.side(rel)
	return s.hash, s.err
}

// prefetch hashes, in one git call, every path that checks out as a side and
// has no hash yet, so that a repository with many pairs costs one `git
// hash-object` and not one a side. A failing batch is left to the calls for
// single sides, which then name the side git refused.
func (r *Repo) prefetch(rels []string) {
	var todo []string
	for _, rel := range rels {
		if s := r.side(rel); s.err == nil && s.hash == "" {
			todo = append(todo, rel)
		}
	}
	if len(todo) == 0 {
		return
	}
	hashes, err := r.hashObjects(todo)
	for i, rel := range todo {
		if err == nil {
			r.sides[rel].hash = hashes[i]
		} else if len(todo) == 1 {
			r.sides[rel].err = err
		}
		if err == nil {
			// The file's own bytes hashed here, not by a second git process.
			if raw, rawErr := r.Format.blobHash(r.sides[rel].abs); rawErr == nil {
				r.sides[rel].raw = raw
			}
		}
	}
}

// conversion says how git's blob of a side differs from the file's bytes, or
// nil when it does not.
func (r *Repo) conversion(rel, gitHash string) *Conversion {
	if raw := r.side(rel).raw; raw != "" && raw != gitHash {
		return &Conversion{Raw: raw, Attributes: r.checkAttrs(rel)}
	}
	return nil
}

// Conversion is set on a side whose blob, as git would store it, differs from
// the file's bytes (end-of-line conversion, ident, a clean filter).
type Conversion struct {
	// Raw is the hash of the file's own bytes (`git hash-object --no-filters`).
	Raw string `json:"raw"`
	// Attributes are the settings that shape the blob, as `git check-attr`
	// and `git config core.autocrlf` give them.
	Attributes map[string]string `json:"attributes,omitempty"`
}

// unrecordedSide is a side no record names yet, with its hash now.
func (r *Repo) unrecordedSide(rel string) Side {
	s := Side{Path: rel, State: SideUnrecorded}
	var err error
	if s.Current, err = r.hashSide(rel); err != nil {
		s.Problem = plainErr(err)
	}
	return s
}

func list(items []string) string {
	switch len(items) {
	case 0:
		return "nothing"
	case 1:
		return items[0]
	case 2:
		return items[0] + " and " + items[1]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func pronoun(items []string, one, many string) string {
	if len(items) == 1 {
		return one
	}
	return many
}

// plainErr turns an error into a short reason without the path that the message
// around it already names: "permission denied", not "open /x/y: permission denied".
func plainErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if strings.Contains(err.Error(), "symbolic link") {
			return err.Error()
		}
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}
