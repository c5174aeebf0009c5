package pairing

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// ReportVersion is the version of the Report JSON schema. It changes only when a
// field changes meaning or goes away; new fields may appear within a version.
const ReportVersion = 1

// Report is the result of a run, the document `--json` prints.
type Report struct {
	Version      int          `json:"version"`
	Root         string       `json:"root"`
	ObjectFormat ObjectFormat `json:"objectFormat"`
	Discovery    Discovery    `json:"discovery"`
	Write        bool         `json:"write"`
	Pairs        []Pair       `json:"pairs"`
	Summary      Summary      `json:"summary"`
	// RemovedTemps lists the repository-relative temporary files an interrupted
	// --write had left beside a record, which this run removed.
	RemovedTemps []string `json:"removedTemps,omitempty"`
}

// Summary counts the verdicts.
type Summary struct {
	Pairs        int            `json:"pairs"`
	Confirmed    int            `json:"confirmed"`
	NotConfirmed int            `json:"notConfirmed"`
	ByStatus     map[Status]int `json:"byStatus"`
}

// OK reports whether every pair is confirmed.
func (r *Report) OK() bool { return r.Summary.NotConfirmed == 0 }

// Options says what a run checks and whether it writes.
type Options struct {
	// Dir is the folder relative Paths are taken from; "" means the current one.
	Dir string
	// Paths name records or sides of pairs; none means every pair in the repository.
	Paths []string
	// Write re-records the current hashes of the named pairs (Paths must not be empty).
	Write bool
	// OtherSideNeedsNoChange lets Write re-record a pair of which only one side
	// changed since confirmation: a person decided the others need no change.
	// Without it such a pair is refused (Action "refused").
	OtherSideNeedsNoChange bool
	// LockWait is how long Write waits for another writer of a record; 0 means
	// the package's LockWait.
	LockWait time.Duration
}

// UsageError is a mistake in what the user asked for (exit status 2), as opposed to
// a pair that is not confirmed (exit status 1).
type UsageError struct{ Msg string }

// Error returns the message to show the user.
func (e *UsageError) Error() string { return e.Msg }

func usageErr(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// Run checks, and with Options.Write re-records, the pairs of the repository. It
// returns a *UsageError for a bad request; every problem with a pair is a verdict
// in the report, never an error.
func (r *Repo) Run(o Options) (*Report, error) {
	rep := &Report{Version: ReportVersion, Root: r.Root, ObjectFormat: r.Format, Write: o.Write, Pairs: []Pair{}}
	if o.Write && len(o.Paths) == 0 {
		return nil, usageErr("--write needs the pair to re-record: name its record or one of its sides (re-recording every pair at once would confirm what nobody checked)")
	}
	// Pairs are grouped by what one write replaces: a README folder's record, or
	// a configured set's record (group key setGroup + its path).
	var folders []string
	selected := map[string][]Pair{}
	r.hashes, r.checked = nil, nil // files may have changed since the last Run
	r.prefetchAll()
	r.noDiff = o.Write // what is written is checked again, with diffs, afterwards
	if len(o.Paths) == 0 {
		dirs, how, err := r.Discover()
		if err != nil {
			return nil, err
		}
		rep.Discovery = how
		for _, d := range dirs {
			selected[d] = r.CheckFolder(d)
			folders = append(folders, d)
		}
		files, _, err := r.listFiles()
		if err != nil {
			return nil, err
		}
		for _, p := range r.checkSets(files) {
			g := groupOf(p)
			if _, seen := selected[g]; !seen {
				folders = append(folders, g)
			}
			selected[g] = append(selected[g], p)
		}
		// Every set's record folder is visited, for the temporary files an
		// interrupted --write left there, even when the set has no pair yet.
		for _, s := range r.pairingConfig().sets {
			if g := setGroup + s.Record; selected[g] == nil {
				folders = append(folders, g)
				selected[g] = []Pair{}
			}
		}
	} else {
		rep.Discovery = DiscoveryArgs
		base := o.Dir
		if base == "" {
			var err error
			if base, err = os.Getwd(); err != nil {
				return nil, err
			}
		}
		checked := map[string][]Pair{}
		for _, arg := range o.Paths {
			folder, pick, err := r.selectArg(base, arg, checked)
			if err != nil {
				return nil, err
			}
			if _, seen := selected[folder]; !seen {
				folders = append(folders, folder)
			}
			for _, p := range pick {
				if !hasPair(selected[folder], p) {
					selected[folder] = append(selected[folder], p)
				}
			}
		}
	}
	r.noDiff = false
	for _, g := range folders {
		pairs := selected[g]
		recRel, _ := groupRecord(g)
		dir, base := path.Split(recRel)
		dir = path.Clean(dir)
		for _, n := range RemoveStaleTemps(r.Abs(dir), base) {
			rep.RemovedTemps = append(rep.RemovedTemps, join(dir, n))
		}
		if o.Write && len(pairs) > 0 {
			pairs = r.writeGroup(g, pairs, o)
		}
		rep.Pairs = append(rep.Pairs, pairs...)
	}
	rep.Summary.ByStatus = map[Status]int{}
	for i := range rep.Pairs {
		p := &rep.Pairs[i]
		if p.Sides == nil {
			p.Sides = []Side{}
		}
		for j := range p.Sides {
			if !utf8.ValidString(p.Sides[j].Path) {
				p.Sides[j].PathQuoted = QuotePath(p.Sides[j].Path)
			}
		}
		rep.Summary.Pairs++
		rep.Summary.ByStatus[p.Status]++
		if p.OK() {
			rep.Summary.Confirmed++
		} else {
			rep.Summary.NotConfirmed++
		}
	}
	return rep, nil
}

// prefetchAll hashes, in one git call, every listed file that can be a side:
// README.md, README.<lang>.md, and the documents of configured sets.
func (r *Repo) prefetchAll() {
	files, _, err := r.listFiles()
	if err != nil {
		return
	}
	var sides []string
	for _, f := range files {
		if b := path.Base(f); b == BaseName || IsTranslationName(b) || r.covered(f) {
			sides = append(sides, f)
		}
	}
	r.prefetch(sides)
}

// setGroup prefixes the group key of a configured set's pairs; no folder name
// holds a NUL byte.
const setGroup = "\x00set:"

// groupRecord returns the repository-relative record of group key g, and
// whether it is a configured set's.
func groupRecord(g string) (string, bool) {
	if set, ok := strings.CutPrefix(g, setGroup); ok {
		return set, true
	}
	return join(g, RecordName), false
}

func groupOf(p Pair) string {
	if p.Set != "" || p.Record == ConfigName {
		return setGroup + p.Record
	}
	return p.folder
}

// selectSetArg finds the verdicts of configured sets an argument names: a set's
// record, or a language file of one of its documents.
func (r *Repo) selectSetArg(arg, rel string, checked map[string][]Pair) (string, []Pair, bool, error) {
	c := r.pairingConfig()
	if c.err != nil || len(c.sets) == 0 {
		return "", nil, false, nil
	}
	pairs, ok := checked[setGroup]
	if !ok {
		files, _, err := r.listFiles()
		if err != nil {
			return "", nil, false, err
		}
		pairs = r.checkSets(files)
		checked[setGroup] = pairs
	}
	for _, s := range c.sets {
		if rel != s.Record {
			continue
		}
		var pick []Pair
		for _, p := range pairs {
			if p.Record == rel && p.Status != Unrecorded {
				pick = append(pick, p)
			}
		}
		if len(pick) == 0 {
			return "", nil, false, usageErr("%s: no such record, or it records nothing yet", QuotePath(arg))
		}
		return setGroup + rel, pick, true, nil
	}
	if pick := withSide(pairs, rel); len(pick) > 0 {
		return groupOf(pick[0]), pick, true, nil
	}
	if r.readmeRecordNames(map[string]string{"": rel}) {
		return "", nil, false, nil // a README.i18n.yaml pairs it: the README default answers
	}
	for _, s := range c.sets {
		if _, _, ok := s.classify(rel); ok {
			// A malformed or unreadable set record answers for its documents.
			for _, p := range pairs {
				if p.Record == s.Record && (p.Status == Malformed || p.Status == Unreadable) && p.record == nil {
					return groupOf(p), []Pair{p}, true, nil
				}
			}
			if _, err := os.Lstat(r.Abs(rel)); err != nil {
				return "", nil, false, usageErr("%s: no such file", QuotePath(arg))
			}
			return "", nil, false, usageErr("%s has no other language yet in set %s: there is nothing to pair", QuotePath(arg), QuotePath(s.Name))
		}
	}
	return "", nil, false, nil
}

// withSide returns the pairs that have a side at rel.
func withSide(pairs []Pair, rel string) []Pair {
	var pick []Pair
	for _, p := range pairs {
		if p.Has(rel) {
			pick = append(pick, p)
		}
	}
	return pick
}

func hasPair(ps []Pair, p Pair) bool {
	for _, q := range ps {
		if q.Record == p.Record && q.Status == p.Status && q.Label() == p.Label() {
			return true
		}
	}
	return false
}

// selectArg finds the verdicts an argument names: a record, or a side of a pair.
func (r *Repo) selectArg(base, arg string, checked map[string][]Pair) (string, []Pair, error) {
	if arg == "" {
		return "", nil, usageErr("an empty path is not a record or a side of a pair")
	}
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	p = filepath.Clean(p)
	// Resolve the folder's symbolic links (the file itself may be missing, or be
	// a link, which the check reports), then insist on staying in the repository.
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", nil, usageErr("%s: no such folder", QuotePath(arg))
	}
	abs := filepath.Join(dir, filepath.Base(p))
	if !r.inside(abs) || abs == r.Root {
		return "", nil, usageErr("%s is outside the repository (%s)", QuotePath(arg), QuotePath(r.Root))
	}
	rel := r.Rel(abs)
	if g, pick, ok, err := r.selectSetArg(arg, rel, checked); ok || err != nil {
		return g, pick, err
	}
	folder, name := path.Split(rel)
	folder = path.Clean(folder)
	pairs, ok := checked[folder]
	if !ok {
		pairs = r.CheckFolder(folder)
		checked[folder] = pairs
	}
	_, statErr := os.Lstat(abs)
	if name == RecordName {
		if errors.Is(statErr, fs.ErrNotExist) {
			return "", nil, usageErr("%s: no such record", QuotePath(arg))
		}
		for _, p := range pairs {
			if p.Status != Unrecorded {
				return folder, []Pair{p}, nil
			}
		}
	}
	pick := withSide(pairs, rel)
	if len(pick) == 0 && (name == BaseName || IsTranslationName(name)) {
		// A malformed or unreadable record names nothing we can read; its verdict
		// is the answer for every README in its folder.
		for _, p := range pairs {
			if p.Status == Malformed || p.Status == Unreadable && p.record == nil {
				pick = append(pick, p)
			}
		}
	}
	if len(pick) > 0 {
		return folder, pick, nil
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		return "", nil, usageErr("%s: no such file, and no %s beside it names it", QuotePath(arg), RecordName)
	}
	return "", nil, usageErr("%s is not a side of a translation pair: no %s beside it names it, and it is not %s or a README.<lang>.md beside %s",
		QuotePath(arg), RecordName, BaseName, BaseName)
}
