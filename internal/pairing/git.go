package pairing

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ObjectFormat is a git repository's object format: the hash function that names
// its objects. It decides which hash a record holds.
type ObjectFormat string

// The object formats git knows. SHA1 is git's default and applies outside a repository.
const (
	SHA1   ObjectFormat = "sha1"
	SHA256 ObjectFormat = "sha256"
)

// HexLen is the length of a hash of this format in hexadecimal digits (40 or 64),
// or 0 for an unknown format.
func (f ObjectFormat) HexLen() int { return map[ObjectFormat]int{SHA1: 40, SHA256: 64}[f] }

// GitTimeout bounds every git call the tool makes. Each call is one batch (one
// `git hash-object --stdin-paths` for all sides, one `git cat-file --batch`), so
// even a huge repository takes a fraction of it; a hostile one (a named pipe git
// reads, a hook that hangs) ends with an error naming the call.
var GitTimeout = 30 * time.Second

// errTooLong is the error of a git call stopped at its output limit, errTimeout
// of one stopped at GitTimeout.
var errTooLong, errTimeout = errors.New("output over its limit"), errors.New("timed out")

// Output limits of git calls: a listing, what git says on stderr, and one
// diff, whose text a report clips at maxDiffBytes.
const (
	maxListing   = 256 << 20
	maxStderr    = 8 << 10
	maxDiffBytes = 64 << 10
)

// GitError is a git call that failed: its arguments and git's own words.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

// Error names the call and quotes what git said (its last lines, escaped later
// for the terminal like every message).
func (e *GitError) Error() string {
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), cmp.Or(strings.TrimSpace(e.Stderr), e.Err.Error()))
}

// Unwrap returns the process error (exit status, timeout, missing binary).
func (e *GitError) Unwrap() error { return e.Err }

// capped keeps the first limit bytes written to it and stops the process once
// more arrive: a git that prints without end costs neither memory nor time.
type capped struct {
	buf    bytes.Buffer
	limit  int
	over   bool
	cancel context.CancelFunc
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.limit - c.buf.Len(); room < len(p) {
		c.buf.Write(p[:max(room, 0)])
		if c.cancel != nil {
			c.cancel() // again is harmless
		}
		c.over = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

// runGit runs git in dir with stdin, bounded by GitTimeout and limit bytes of
// output; stopped, git is killed with what it started (runGroup). It returns what git printed; cut at limit, the process is stopped and
// the error is errTooLong (with what was printed up to the limit). core.fsmonitor is off so
// that listing files runs no command a repository's config names.
func runGit(dir string, stdin []byte, limit int, okStatus []int, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), GitTimeout)
	defer cancel()
	full := append([]string{"-c", "core.fsmonitor=false", "-c", "core.safecrlf=false", "-C", dir}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	cmd.WaitDelay = time.Second
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out := &capped{limit: limit, cancel: cancel}
	errOut := &capped{limit: maxStderr}
	cmd.Stdout, cmd.Stderr = out, errOut
	err := runGroup(cmd) // a timeout ends git's filters too

	if out.over {
		return out.buf.Bytes(), &GitError{Args: args, Stderr: fmt.Sprintf("more than %d bytes of output; stopped", limit), Err: errTooLong}
	}
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && slices.Contains(okStatus, exit.ExitCode()) {
		err = nil
	}
	if err != nil {
		ge := &GitError{Args: args, Stderr: errOut.buf.String(), Err: err}
		if ctx.Err() == context.DeadlineExceeded {
			ge.Stderr, ge.Err = fmt.Sprintf("no answer within %v (a named pipe or a hook git waits on?)", GitTimeout), errTimeout
		}
		return nil, ge
	}
	return out.buf.Bytes(), nil
}

// FindRepo finds the work tree holding dir, as git does (`git rev-parse`): its
// top, git directory and object format. Outside a git repository dir itself is
// the root and the format is SHA-1, which `git hash-object` uses there. Anything
// else git refuses (a broken .git file, a config that includes itself, a
// repository owned by someone else) is an error in git's words.
func FindRepo(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	// A named pipe where git reads its first files would hold git until the
	// timeout: say so at once instead.
	for _, p := range []string{".git", ".git/config", ".git/HEAD", ".git/index", ".git/commondir", ".gitattributes", ".gitignore", ".git/info/attributes", ".git/info/exclude"} {
		if info, err := os.Stat(filepath.Join(real, p)); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
			return nil, fmt.Errorf("%s: not a regular file (%s); git would wait on it", p, describeMode(info.Mode()))
		}
	}
	out, err := runGit(real, nil, 1<<16, nil, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--show-object-format")
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "not a git repository (or any") {
			return &Repo{Root: real, Format: SHA1}, nil
		}
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 3 {
		return nil, fmt.Errorf("git rev-parse: unexpected answer %q (outside a work tree?)", out)
	}
	f := ObjectFormat(lines[2])
	if f.HexLen() == 0 {
		return nil, fmt.Errorf("unsupported object format %q (want sha1 or sha256)", lines[2])
	}
	top, err := filepath.EvalSymlinks(lines[0])
	if err != nil {
		return nil, err
	}
	return &Repo{Root: top, Format: f, GitDir: lines[1]}, nil
}

// listFiles lists the repository's files, slash-separated and relative to the
// root: `git ls-files` (tracked, and untracked ones .gitignore does not exclude,
// so a new translation shows before `git add`), or a folder walk outside git.
func (r *Repo) listFiles() ([]string, error) {
	if r.GitDir == "" {
		return walkFiles(r.Root)
	}
	out, err := runGit(r.Root, nil, maxListing, nil, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	// An unmerged path is listed once per stage, one after the other.
	return slices.Compact(strings.FieldsFunc(string(out), func(c rune) bool { return c == 0 })), err
}

// hashObjects hashes the repository-relative paths as `git add` would store them:
// one `git hash-object --stdin-paths`, git's filters and attributes included
// (or, with the flag --no-filters, the files' own bytes). Each path must
// already be checked (a regular file inside the repository).
func (r *Repo) hashObjects(paths []string, flags ...string) ([]string, error) {
	var in bytes.Buffer
	for _, p := range paths {
		// git reads a line that starts with a quote C-unquoted (QuotePath's
		// escapes): a line break, a trailing CR or a leading quote stays the path's.
		in.WriteString(QuotePath(p) + "\n")
	}
	res, err := runGit(r.Root, in.Bytes(), len(paths)*(r.Format.HexLen()+1), nil, append([]string{"hash-object", "--stdin-paths"}, flags...)...)
	if err != nil {
		return nil, err
	}
	hashes := strings.Fields(string(res))
	if len(hashes) != len(paths) {
		return nil, fmt.Errorf("git hash-object: %d hashes for %d paths", len(hashes), len(paths))
	}
	return hashes, nil
}

// catBlob reads a blob by hash with `git cat-file --batch`; ok is false when
// the repository does not hold it.
func (r *Repo) catBlob(oid string) (data []byte, ok bool, err error) {
	res, err := runGit(r.Root, []byte(oid+"\n"), maxDocument+128, nil, "cat-file", "--batch=%(objecttype) %(objectsize)")
	if err != nil {
		return nil, false, err
	}
	var typ string
	var size int
	head, body, _ := bytes.Cut(res, []byte("\n"))
	if _, err := fmt.Sscanf(string(head), "%s %d", &typ, &size); err != nil {
		return nil, false, nil // "<oid> missing" (or ambiguous)
	}
	if size > maxDocument || len(body) < size {
		return nil, false, fmt.Errorf("git cat-file: bad answer %q", head)
	}
	return body[:size], typ == "blob", nil
}

// checkAttrs asks `git check-attr` which attributes that shape a blob are set on
// each of convs' paths, what explains its conversion, and fills them in: one
// call for all (two calls a side cost 12.9 s for 200 CRLF pairs).
func (r *Repo) checkAttrs(convs map[string][]*Conversion) {
	var in bytes.Buffer
	for p := range convs {
		in.WriteString(p + "\x00")
	}
	res, err := runGit(r.Root, in.Bytes(), maxListing, nil, "check-attr", "-z", "--stdin", "text", "eol", "crlf", "ident", "filter", "working-tree-encoding")
	if err != nil {
		return
	}
	autocrlf, _ := runGit(r.Root, nil, 1<<10, []int{1}, "config", "core.autocrlf")
	attrs := map[string]map[string]string{}
	for p := range convs {
		attrs[p] = map[string]string{}
		if v := strings.TrimSpace(string(autocrlf)); v != "" {
			attrs[p]["core.autocrlf"] = v
		}
	}
	f := strings.Split(string(res), "\x00")
	for i := 0; i+2 < len(f); i += 3 {
		if f[i+2] != "unspecified" && attrs[f[i]] != nil {
			attrs[f[i]][f[i+1]] = f[i+2]
		}
	}
	for p, cs := range convs {
		for _, c := range cs {
			c.Attributes = attrs[p]
		}
	}
}

// Changes is what changed in one side since the confirmed state, when the
// repository holds the confirmed blob.
type Changes struct {
	// Source says where the confirmed blob was read: "git" (`git cat-file`), or
	// "unavailable" with Reason.
	Source string `json:"source"`
	Reason string `json:"reason,omitempty"`
	// Added and Removed count lines as `git diff --numstat` does, against the
	// blob git would store now.
	Added   int `json:"added,omitempty"`
	Removed int `json:"removed,omitempty"`
	// Diff is git's unified diff (a/ the confirmed blob, b/ the current one),
	// clipped to 64 KiB; Truncated says it was.
	Diff      string `json:"diff,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

// gitDiff diffs the confirmed blob old with the side at rel as git would store it
// now: `git diff --no-index` applies the side's filters as `git add` does. It
// returns the counts of --numstat and the patch (the hunks only), cut at
// maxDiffBytes.
func (r *Repo) gitDiff(rel string, old []byte) (Changes, error) {
	dir, err := os.MkdirTemp("", "verify-translation-pairing-*")
	if err != nil {
		return Changes{}, err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "confirmed")
	if err := os.WriteFile(tmp, old, 0o600); err != nil {
		return Changes{}, err
	}
	res, err := runGit(r.Root, nil, maxDiffBytes+4096, []int{1}, "diff", "--no-index", "--no-color", "--no-ext-diff", "--no-textconv",
		"--no-renames", "--numstat", "--patch", "--unified=3", "--", tmp, rel)
	over := errors.Is(err, errTooLong)
	if err != nil && !over {
		return Changes{}, err
	}
	var c Changes
	stat, patch, _ := strings.Cut(string(res), "\n")
	f := strings.SplitN(stat, "\t", 3)
	if len(f) < 3 {
		return Changes{Reason: "no difference git can show (the change is in the file's mode or filters only)"}, nil
	}
	if f[0] == "-" {
		return Changes{Reason: "binary: git shows no line diff"}, nil
	}
	c.Added, _ = strconv.Atoi(f[0])
	c.Removed, _ = strconv.Atoi(f[1])
	if i := strings.Index(patch, "\n@@ "); i >= 0 {
		q, open := QuotePath(rel), "" // a quoted path's quote opens before a/ and b/, as git writes it
		if strings.HasPrefix(q, `"`) {
			q, open = q[1:], `"`
		}
		c.Diff = fmt.Sprintf("--- %sa/%s\n+++ %sb/%s\n", open, q, open, q) + patch[i+1:]
	}
	if over || len(c.Diff) > maxDiffBytes {
		cut := strings.LastIndexByte(c.Diff[:min(len(c.Diff), maxDiffBytes)], '\n') + 1
		c.Diff, c.Truncated = c.Diff[:cut], true
	}
	return c, nil
}
