package pairing

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
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

	commonDir string            // the shared git directory of a linked worktree (GitDir otherwise)
	cfg       *gitConfig        // loaded on first use
	attr      *attributes       // loaded on first use
	index     map[string]string // path → blob hash of the index, loaded on first use
	store     *objectStore      // loaded on first use
	conf      *configState      // the repository-level pairing config, loaded on first use
	listed    *listing          // the repository's files, listed on first use

	readmeNames map[string]map[string]bool // folder → names its README.i18n.yaml records
}

func (r *Repo) config() *gitConfig {
	if r.cfg == nil {
		if r.GitDir == "" {
			r.cfg = &gitConfig{}
		} else {
			r.cfg = loadGitConfig(r.GitDir, r.common())
		}
	}
	return r.cfg
}

func (r *Repo) common() string {
	if r.commonDir == "" && r.GitDir != "" {
		r.commonDir = commonDir(r.GitDir)
	}
	return r.commonDir
}

func (r *Repo) attrs() *attributes {
	if r.attr == nil {
		r.attr = newAttributes(r, r.config())
	}
	return r.attr
}

func (r *Repo) objects() *objectStore {
	if r.store == nil {
		dir := ""
		if r.GitDir != "" {
			dir = filepath.Join(r.common(), "objects")
		}
		r.store = newObjectStore(r.Format, dir)
	}
	return r.store
}

// fixCommand is the command a message offers for re-recording the pair of side.
func (r *Repo) fixCommand(side string) string {
	cmd := r.Fix
	if cmd == "" {
		cmd = "verify-translation-pairing --write"
	}
	return cmd + " " + QuotePath(side)
}

// FindRepo finds the work tree holding dir: the nearest ancestor with a .git entry
// (a folder, or a file pointing elsewhere as in linked worktrees and submodules).
// Outside git, dir itself is the root and the format is SHA-1, as `git hash-object`
// uses there. It reads the object format from the repository's config without
// running git.
func FindRepo(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	for d := real; ; d = filepath.Dir(d) {
		dotGit := filepath.Join(d, ".git")
		if info, err := os.Lstat(dotGit); err == nil {
			gitDir, err := resolveGitDir(dotGit, info)
			if err != nil {
				return nil, err
			}
			format, err := ReadObjectFormat(gitDir)
			if err != nil {
				return nil, err
			}
			return &Repo{Root: d, Format: format, GitDir: gitDir, commonDir: commonDir(gitDir)}, nil
		}
		if parent := filepath.Dir(d); parent == d {
			break
		}
	}
	return &Repo{Root: real, Format: SHA1}, nil
}

// resolveGitDir follows a ".git" file ("gitdir: <path>", relative to the file's folder)
// to the real git directory.
func resolveGitDir(dotGit string, info fs.FileInfo) (string, error) {
	if info.IsDir() {
		return dotGit, nil
	}
	data, err := readRegular(dotGit, 1<<16)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", QuotePath(dotGit), err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok || strings.TrimSpace(target) == "" {
		return "", fmt.Errorf("%s: not a git directory link (want \"gitdir: <path>\")", QuotePath(dotGit))
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(dotGit), target)
	}
	return target, nil
}

// ReadObjectFormat reads extensions.objectformat from the config of the repository
// whose git directory is gitDir. A linked worktree's git directory names the shared
// one in its "commondir" file, and the setting lives there. A missing setting means SHA-1.
func ReadObjectFormat(gitDir string) (ObjectFormat, error) {
	common := commonDir(gitDir)
	data, err := readRegular(filepath.Join(common, "config"), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return SHA1, nil
	}
	if err != nil {
		return "", fmt.Errorf("reading git config %s: %w", QuotePath(filepath.Join(common, "config")), err)
	}
	value, ok := gitConfigValue(data, "extensions", "objectformat")
	if !ok || value == "" {
		return SHA1, nil
	}
	f := ObjectFormat(strings.ToLower(value))
	if f.HexLen() == 0 {
		return "", fmt.Errorf("%s: unsupported extensions.objectformat %q (want sha1 or sha256)", QuotePath(filepath.Join(common, "config")), value)
	}
	return f, nil
}

// commonDir returns the git directory holding the objects and the config: the one
// a linked worktree's "commondir" file names, or gitDir itself. The file is read
// only if it is a regular file, so a named pipe there cannot block.
func commonDir(gitDir string) string {
	data, err := readRegular(filepath.Join(gitDir, "commondir"), 1<<16)
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(data))
	if c == "" {
		return gitDir
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}

// gitConfigValue returns the last value of section.key in a git config file, the
// way git lets later lines win. Section and key names compare case-insensitively;
// subsections ([section "sub"]) never match, as extensions has none. It understands
// only what this setting needs: comments, quotes and "key = value" lines.
func gitConfigValue(data []byte, section, key string) (string, bool) {
	var cur, value string
	found := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				cur = ""
				continue
			}
			cur = strings.ToLower(strings.TrimSpace(line[1:end]))
			// A rest after "]" may hold a key on the same line; git allows it, rarely used.
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		if cur != section {
			continue
		}
		k, v, hasEq := strings.Cut(line, "=")
		if !strings.EqualFold(strings.TrimSpace(k), key) {
			continue
		}
		if !hasEq {
			value, found = "true", true
			continue
		}
		value, found = unquoteConfig(v), true
	}
	return value, found
}

// unquoteConfig strips an unquoted trailing comment and the quotes of a config value.
func unquoteConfig(v string) string {
	var b strings.Builder
	inQuote := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			inQuote = !inQuote
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case (c == '#' || c == ';') && !inQuote:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// Rel turns an absolute path inside the root into the slash-separated,
// repository-relative form every message uses ("." for the root itself).
func (r *Repo) Rel(abs string) string {
	rel, err := filepath.Rel(r.Root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// Abs turns a repository-relative slash path into an absolute path.
func (r *Repo) Abs(rel string) string { return filepath.Join(r.Root, filepath.FromSlash(rel)) }

// inside reports whether the absolute path p lies within the root.
func (r *Repo) inside(p string) bool {
	rel, err := filepath.Rel(r.Root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Discovery names how Discover found the candidate folders.
type Discovery string

// The ways Discover can find folders.
const (
	// DiscoveryGit lists the files git knows: tracked ones plus untracked ones
	// that .gitignore does not exclude, so a new translation shows up before `git add`.
	DiscoveryGit Discovery = "git"
	// DiscoveryWalk walks the folder tree, skipping .git and node_modules; used
	// outside git, or when the git binary is missing or refuses the repository.
	DiscoveryWalk Discovery = "walk"
	// DiscoveryArgs means the folders came from the command line.
	DiscoveryArgs Discovery = "arguments"
)

// Discover returns the repository-relative folders (sorted, "." for the root) that hold
// a README.i18n.yaml, or a README.md with a translation beside it.
func (r *Repo) Discover() ([]string, Discovery, error) {
	files, how, err := r.listFiles()
	if err != nil {
		return nil, how, err
	}
	names := map[string]map[string]bool{}
	for _, f := range files {
		dir, name := path.Split(f)
		dir = strings.TrimSuffix(dir, "/")
		if dir == "" {
			dir = "."
		}
		if name == RecordName || name == BaseName || IsTranslationName(name) {
			if names[dir] == nil {
				names[dir] = map[string]bool{}
			}
			names[dir][name] = true
		}
	}
	var dirs []string
	for dir, set := range names {
		hasTranslation := false
		for n := range set {
			if IsTranslationName(n) {
				hasTranslation = true
			}
		}
		if set[RecordName] || (set[BaseName] && hasTranslation) {
			dirs = append(dirs, dir)
		}
	}
	sort.Strings(dirs)
	return dirs, how, nil
}

// listFiles lists the repository's files, slash-separated and relative to the
// root: git's view when git is at hand, a folder walk otherwise.
// The listing is made once per Repo.
func (r *Repo) listFiles() ([]string, Discovery, error) {
	if r.listed != nil {
		return r.listed.files, r.listed.how, nil
	}
	how := DiscoveryWalk
	var files []string
	var err error
	if r.GitDir != "" && r.gitFilesRegular() {
		if listed, gerr := gitListFiles(r.Root); gerr == nil {
			files, how = listed, DiscoveryGit
		}
	}
	if how == DiscoveryWalk {
		if files, err = walkFiles(r.Root); err != nil {
			return nil, how, err
		}
	}
	r.listed = &listing{files, how}
	return files, how, nil
}

// gitFilesRegular reports whether the files git ls-files reads first are regular
// files where they exist; a named pipe there would block git until its timeout.
func (r *Repo) gitFilesRegular() bool {
	for _, p := range []string{filepath.Join(r.GitDir, "index"), filepath.Join(r.GitDir, "commondir"), filepath.Join(r.common(), "info", "exclude"),
		filepath.Join(r.Root, ".gitignore"), filepath.Join(r.GitDir, "HEAD"), filepath.Join(r.common(), "config")} {
		if info, err := os.Stat(p); err == nil && !info.Mode().IsRegular() {
			return false
		}
	}
	return true
}

type listing struct {
	files []string
	how   Discovery
}

// gitListTimeout bounds `git ls-files`; listing even a huge repository takes
// well under a second.
var gitListTimeout = 30 * time.Second

// gitListFiles lists tracked and unignored untracked files, slash-separated and
// relative to root. Git is optional: any failure sends the caller to walkFiles.
//
// Git reads files of the repository (the index, .gitignore, info/exclude) without
// checking their type, so a named pipe among them would block it: the listing is
// bounded in time, and a timeout sends the caller to the walk like any failure.
func gitListFiles(root string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitListTimeout)
	defer cancel()
	// core.fsmonitor names a command git would run: an unpacked archive's config
	// must not make listing files run anything.
	cmd := exec.CommandContext(ctx, "git", "-c", "core.fsmonitor=false", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
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
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	return files, err
}
