package pairing

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
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
	// Dir is the folder relative Paths are taken from (itself relative to the
	// current one, or "" for it).
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
	r.sides, r.readmeNamed = nil, map[string]bool{} // files may have changed since the last Run
	files, err := r.listFiles()
	if err != nil {
		return nil, err
	}
	rep.Discovery = DiscoveryWalk
	if r.GitDir != "" {
		rep.Discovery = DiscoveryGit
	}
	// A file named on the command line is checked as it is in the working
	// tree, listed or not (an ignored one too), and so is the record beside it.
	var rels []string
	if len(o.Paths) > 0 {
		rep.Discovery = DiscoveryArgs
		for _, arg := range o.Paths {
			rel, err := r.argPath(o.Dir, arg)
			if err != nil {
				return nil, err
			}
			rels = append(rels, rel)
			for _, f := range []string{rel, path.Join(path.Dir(rel), RecordName)} {
				if _, err := os.Lstat(r.Abs(f)); err == nil && !slices.Contains(files, f) {
					files = append(slices.Clip(files), f)
				}
			}
		}
	}
	r.files = files
	// Every listed file that can be a side is hashed in one git call.
	r.hashes(slices.DeleteFunc(slices.Clone(files), func(f string) bool {
		b := path.Base(f)
		return b != BaseName && !IsTranslationName(b) && !r.covered(f)
	})...)
	// Pairs are grouped by what one write replaces: a record.
	groups := r.groups(files)
	verdicts := map[string][]Pair{}
	for _, s := range groups {
		verdicts[s.Record] = r.checkSet(s)
	}
	var order []*pairSet
	selected := map[string][]Pair{}
	if len(o.Paths) == 0 {
		// Every record's folder is visited, for the temporary files an
		// interrupted --write left there, even when it has no pair yet.
		order, selected = groups, verdicts
		if c := r.pairingConfig(); c.bad != nil {
			order = append(slices.Clip(order), &pairSet{Record: ConfigName, recordDir: "."})
			selected[ConfigName] = []Pair{*c.bad}
		}
	}
	for i, arg := range o.Paths {
		s, pick, err := r.selectArg(arg, rels[i], groups, verdicts)
		if err != nil {
			return nil, err
		}
		if _, seen := selected[s.Record]; !seen {
			order = append(order, s)
		}
		for _, p := range pick {
			if !slices.ContainsFunc(selected[s.Record], func(q Pair) bool { return q.Status == p.Status && q.Label() == p.Label() }) {
				selected[s.Record] = append(selected[s.Record], p)
			}
		}
	}
	for _, s := range order {
		pairs := selected[s.Record]
		for _, n := range RemoveStaleTemps(r.Abs(s.recordDir), path.Base(s.Record)) {
			rep.RemovedTemps = append(rep.RemovedTemps, path.Join(s.recordDir, n))
		}
		if o.Write && len(pairs) > 0 {
			pairs = r.writeGroup(s, pairs, o)
		}
		rep.Pairs = append(rep.Pairs, pairs...)
	}
	rep.Summary.ByStatus = map[Status]int{}
	convs := map[string][]*Conversion{}
	for i := range rep.Pairs {
		p := &rep.Pairs[i]
		if p.Sides == nil {
			p.Sides = []Side{}
		}
		for j := range p.Sides {
			s := &p.Sides[j]
			// What changed since the confirmed blob, for what is reported
			// (a failed or refused --write's pairs are as they were).
			if s.State == SideChanged && p.Action != "failed" && p.Action != refused {
				c := r.changesSince(s.Path, s.Recorded)
				s.Changes = &c
			}
			if s.Conversion != nil {
				convs[s.Path] = append(convs[s.Path], s.Conversion)
			}
			if !utf8.ValidString(s.Path) {
				s.PathQuoted = QuotePath(s.Path)
			}
		}
		rep.Summary.ByStatus[p.Status]++
		if p.OK() {
			rep.Summary.Confirmed++
		}
	}
	if len(convs) > 0 {
		r.checkAttrs(convs)
	}
	rep.Summary.Pairs, rep.Summary.NotConfirmed = len(rep.Pairs), len(rep.Pairs)-rep.Summary.Confirmed
	return rep, nil
}

// argPath turns an argument, relative to base (itself relative to the current
// folder, or "" for it), into a repository-relative path, refusing one outside
// the repository.
func (r *Repo) argPath(base, arg string) (string, error) {
	if arg == "" {
		return "", usageErr("an empty path is not a record or a side of a pair")
	}
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	p, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	// Resolve the folder's symbolic links (the file itself may be missing, or be
	// a link, which the check reports), then insist on staying in the repository.
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", usageErr("%s: no such folder", QuotePath(arg))
	}
	abs := filepath.Join(dir, filepath.Base(p))
	if !r.inside(abs) || abs == r.Root {
		return "", usageErr("%s is outside the repository (%s)", QuotePath(arg), QuotePath(r.Root))
	}
	rel, _ := filepath.Rel(r.Root, abs) // inside, so it has one
	return filepath.ToSlash(rel), nil
}

// selectArg finds the verdicts an argument names: every pair its record holds,
// or the pairs with a side at rel (a configured set's before a README
// folder's), or the verdict on the record that should name it.
func (r *Repo) selectArg(arg, rel string, groups []*pairSet, verdicts map[string][]Pair) (*pairSet, []Pair, error) {
	isRecord := path.Base(rel) == RecordName || slices.ContainsFunc(groups, func(s *pairSet) bool { return rel == s.Record })
	i := slices.IndexFunc(groups, func(s *pairSet) bool { return !s.readme })
	setsFirst := slices.Concat(groups[max(i, 0):], groups[:max(i, 0)])
	for _, s := range setsFirst {
		var pick []Pair
		for _, p := range verdicts[s.Record] {
			if isRecord && p.Record == rel && p.Status != Unrecorded || !isRecord && p.has(rel) {
				pick = append(pick, p)
			}
		}
		if len(pick) > 0 {
			return s, pick, nil
		}
	}
	if isRecord {
		return nil, nil, usageErr("%s: no such record", QuotePath(arg))
	}
	_, statErr := os.Lstat(r.Abs(rel))
	for _, s := range setsFirst {
		if _, _, ok := s.classify(rel); !ok {
			continue
		}
		// A record that cannot be used answers for what it would name.
		for _, p := range verdicts[s.Record] {
			if len(p.Sides) == 0 {
				return s, []Pair{p}, nil
			}
		}
		if s.readme {
			continue
		}
		if errors.Is(statErr, fs.ErrNotExist) {
			return nil, nil, usageErr("%s: no such file", QuotePath(arg))
		}
		return nil, nil, usageErr("%s has no other language yet in set %s: there is nothing to pair", QuotePath(arg), QuotePath(s.Name))
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		return nil, nil, usageErr("%s: no such file, and no %s beside it names it", QuotePath(arg), RecordName)
	}
	return nil, nil, usageErr("%s is not a side of a translation pair: no %s beside it names it, and it is not %s or a README.<lang>.md beside %s",
		QuotePath(arg), RecordName, BaseName, BaseName)
}
