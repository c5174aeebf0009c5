package pairing

import (
	"cmp"
	"errors"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Repo is the tree the tool checks: a git work tree, or a plain folder outside git.
// Every path the tool reads or writes must stay inside Root.
type Repo struct {
	// Root is the absolute, symlink-free top of the work tree (or the plain folder).
	Root string
	// Format is the object format whose hashes the records hold.
	Format ObjectFormat
	// GitDir is the repository's git directory, or "" outside git.
	GitDir string
	// Fix is the command a message offers to re-record a pair, followed by a
	// side's path; "" means "verify-translation-pairing --write". A pre-commit
	// hook sets the command that runs the recording hook through pre-commit.
	Fix string
	// FixOneSided is the command a refused one-sided --write offers, followed
	// by a side's path; "" means "verify-translation-pairing --write
	// --other-side-needs-no-change".
	FixOneSided string

	sides map[string]*sideInfo // what a run learned of each side, asked once
	conf  *configState         // the repository-level pairing config, loaded on first use
	files []string             // this run's files: the listing and what the user named

	// readmeNamed holds the paths README records name, so that a set whose
	// patterns also match a README pair leaves that pair to its record.
	readmeNamed map[string]bool
}

// fixCommand is the command a message offers for re-recording the pair of side
// (oneSided: a pair whose other sides need no change).
// A side whose name starts with "-" is written ./-x, so that no command reads it
// as an option.
func (r *Repo) fixCommand(side string, oneSided bool) string {
	q := QuotePath(side)
	if strings.HasPrefix(q, "-") {
		q = "./" + q
	}
	if oneSided {
		return cmp.Or(r.FixOneSided, "verify-translation-pairing --write --other-side-needs-no-change") + " " + q
	}
	return cmp.Or(r.Fix, "verify-translation-pairing --write") + " " + q
}

// Abs turns a repository-relative slash path into an absolute path.
func (r *Repo) Abs(rel string) string { return filepath.Join(r.Root, filepath.FromSlash(rel)) }

// inside reports whether the absolute path p lies within the root.
func (r *Repo) inside(p string) bool {
	rel, err := filepath.Rel(r.Root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Discovery names how a run found the files it checks.
type Discovery string

// The ways a run can find files.
const (
	// DiscoveryGit lists the files git knows: tracked ones plus untracked ones
	// that .gitignore does not exclude, so a new translation shows up before `git add`.
	DiscoveryGit Discovery = "git"
	// DiscoveryWalk walks the folder tree, skipping .git and node_modules;
	// used outside git.
	DiscoveryWalk Discovery = "walk"
	// DiscoveryArgs means the files came from the command line.
	DiscoveryArgs Discovery = "arguments"
)

// groups returns what each record holds, in the order of the report: the
// README folders (sorted, "." for the root), any folder with a README.md or a
// README.i18n.yaml, then the configured sets. A README folder's set holds its
// folder's files, the only ones that can be its sides.
func (r *Repo) groups(files []string) []*pairSet {
	inDir := map[string][]string{}
	for _, f := range files {
		inDir[path.Dir(f)] = append(inDir[path.Dir(f)], f)
	}
	var gs []*pairSet
	for _, d := range slices.Sorted(maps.Keys(inDir)) {
		if slices.ContainsFunc(inDir[d], func(f string) bool { return path.Base(f) == BaseName || path.Base(f) == RecordName }) {
			gs = append(gs, &pairSet{Record: path.Join(d, RecordName), recordDir: d, readme: true, files: inDir[d]})
		}
	}
	return append(gs, r.pairingConfig().sets...)
}

// walkFiles lists every file under root, skipping .git and node_modules folders.
// It does not follow symlinked folders, so it cannot wander out of the tree.
func walkFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != root && errors.Is(err, fs.ErrPermission) {
				return nil // an unreadable folder holds nothing we could check anyway
			}
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p) // p is below root, so it has one
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	return files, err
}
