package pairing

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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

	record  *Record // nil unless the record parsed
	doc     string  // the document's key within its set
	refusal string  // why --write refuses a Changed pair without Options.OtherSideNeedsNoChange
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

// has reports whether the pair has a side at the repository-relative path rel.
func (p Pair) has(rel string) bool {
	return slices.ContainsFunc(p.Sides, func(s Side) bool { return s.Path == rel })
}

// resolve returns the absolute path of rel with symbolic links followed, or an error
// if that leaves the repository. A missing file resolves to an fs.ErrNotExist error.
func (r *Repo) resolve(rel string) (string, error) {
	real, err := filepath.EvalSymlinks(r.Abs(rel))
	if err != nil {
		return "", err
	}
	if !r.inside(real) {
		return "", fmt.Errorf("symbolic link leads outside the repository (to %s)", QuotePath(real))
	}
	return real, nil
}

// readParsed reads the record or config at rel, a regular file inside the
// repository through any symbolic links, and parses it; when it cannot, it
// returns the Unreadable or Malformed verdict on it, which says to fix it.
func (r *Repo) readParsed(rel, fix string, parse func([]byte) error) *Pair {
	abs, err := r.resolve(rel)
	var data []byte
	if err == nil {
		data, err = readRegular(abs, 1<<20) // a few lines; refuse something absurd
	}
	if err != nil {
		return &Pair{Status: Unreadable, Record: rel, Message: fmt.Sprintf("%s cannot be read: %s", QuotePath(rel), plainErr(err))}
	}
	if err := parse(data); err != nil {
		p := &Pair{Status: Malformed, Record: rel, Message: fmt.Sprintf("%s: %s; %s", QuotePath(rel), err, fix)}
		var re *RecordError
		if errors.As(err, &re) {
			p.Line = re.Line
		}
		return p
	}
	return nil
}

// judge hashes each side a record lists (its Path and Recorded hash) and gives
// the pair its sides, status and message.
func (r *Repo) judge(p *Pair, sides []Side) {
	var changed, unchanged, missing, unreadable, paths []string
	for _, s := range sides {
		paths = append(paths, s.Path)
	}
	for i, info := range r.hashes(paths...) {
		s := sides[i]
		switch h := info.hash; {
		case errors.Is(info.err, fs.ErrNotExist):
			s.State, s.Problem = SideMissing, plainErr(info.err)
			missing = append(missing, QuotePath(s.Path))
		case info.err != nil:
			s.State, s.Problem = SideUnreadable, plainErr(info.err)
			unreadable = append(unreadable, QuotePath(s.Path)+" cannot be read: "+s.Problem)
		case h == s.Recorded:
			s.State, s.Current = SideUnchanged, h
			unchanged = append(unchanged, QuotePath(s.Path))
		default:
			s.State, s.Current = SideChanged, h
			changed = append(changed, QuotePath(s.Path))
		}
		if info.raw != "" && info.raw != info.hash {
			s.Conversion = &Conversion{Raw: info.raw} // Run asks for its attributes
		}
		p.Sides = append(p.Sides, s)
	}
	writeHint := r.fixCommand(p.Sides[0].Path, false)
	switch {
	case len(missing) > 0:
		p.Status = Missing
		p.Message = fmt.Sprintf("%s %s missing (named in %s); restore it, or delete the record if the translation was dropped",
			list(missing), pronoun(missing, "is", "are"), QuotePath(p.Record))
	case len(unreadable) > 0:
		p.Status = Unreadable
		p.Message = strings.Join(unreadable, "; ")
	case len(changed) == 0:
		p.Status = Confirmed
		p.Message = fmt.Sprintf("%s (%s)", p.Label(), QuotePath(p.Record))
	case len(changed) == 1:
		p.Status = Changed
		p.Message = fmt.Sprintf("%s changed since confirmation; bring %s along, then re-record with: %s (if %s %s no change: %s)",
			changed[0], list(unchanged), writeHint, list(unchanged), pronoun(unchanged, "needs", "need"), r.fixCommand(p.Sides[0].Path, true))
		p.refusal = fmt.Sprintf("only %s changed since confirmation: bring %s along first, or, if %s %s no change, re-record with: %s",
			changed[0], list(unchanged), list(unchanged), pronoun(unchanged, "needs", "need"), r.fixCommand(p.Sides[0].Path, true))
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
		// cat-file --batch says "missing" for an object it cannot read too.
		if _, err := runGit(r.Root, nil, 1<<10, nil, "cat-file", "-t", oid); err != nil && strings.Contains(err.Error(), "error: ") {
			return Changes{Source: "unavailable", Reason: "the confirmed blob " + oid + " is in the repository's objects, but git cannot read it: " + strings.ReplaceAll(err.Error(), "\n", "; ")}
		}
		return Changes{Source: "unavailable", Reason: "the confirmed blob " + oid + " is not in the repository's objects (it was never added, or was pruned)"}
	}
	c, err := r.gitDiff(rel, old)
	if err != nil {
		return Changes{Source: "unavailable", Reason: err.Error()}
	}
	c.Source = "git"
	return c
}

// sideInfo is what a run learned of a side: git's hash of its blob and of its
// bytes (raw), or why there is none.
type sideInfo struct {
	hash, raw string
	err       error
}

// hashes checks each side once a run (checkSide) and hashes, in one git call,
// those that pass and have no hash yet: a repository with many pairs costs one
// `git hash-object` and not one a side. When git refuses the batch, each side
// is asked alone, so that the error names the side git refused; not after a
// timeout, which each side could cost again (a filter that hangs).
func (r *Repo) hashes(rels ...string) []*sideInfo {
	if r.sides == nil {
		r.sides = map[string]*sideInfo{}
	}
	infos := make([]*sideInfo, len(rels))
	var todo []string
	for i, rel := range rels {
		s, ok := r.sides[rel]
		if !ok {
			s = &sideInfo{err: r.checkSide(rel)}
			r.sides[rel] = s
		}
		if s.err == nil && s.hash == "" {
			todo = append(todo, rel)
		}
		infos[i] = s
	}
	if len(todo) == 0 {
		return infos
	}
	hashes, err := r.hashObjects(todo)
	if err != nil && len(todo) > 1 && !errors.Is(err, errTimeout) {
		for _, rel := range todo {
			r.hashes(rel)
		}
		return infos
	}
	raws, rawErr := r.hashObjects(todo, "--no-filters")
	for i, rel := range todo {
		if s := r.sides[rel]; err != nil {
			s.err = err
		} else {
			s.hash = hashes[i]
			if rawErr == nil {
				s.raw = raws[i]
			}
		}
	}
	return infos
}

// checkSide checks that a side stays inside the repository and is a regular
// file it can open: git is given only files it can read without waiting.
func (r *Repo) checkSide(rel string) error {
	abs, err := r.resolve(rel)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(r.Abs(rel)); lerr == nil {
			return fmt.Errorf("%w: a symbolic link to a missing file", fs.ErrNotExist)
		}
	}
	if err != nil {
		return err
	}
	f, err := openRegular(abs)
	if err != nil {
		return err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > maxDocument {
		return fmt.Errorf("larger than %d bytes", maxDocument)
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

// list joins what a message names: "a", "a and b", "a, b and c".
func list(items []string) string {
	switch len(items) {
	case 0:
		return "nothing" // a set's document may have one recorded side
	case 1:
		return items[0]
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
