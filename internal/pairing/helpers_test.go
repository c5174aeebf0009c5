package pairing

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/internal/gittest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	gittest.Cleanup()
	os.Exit(code)
}

// gitRepo makes a real git repository in a temporary folder, with the given object
// format ("" for git's default) and a user to commit as, and returns its root. It is
// a copy of one git made once per format (see package gittest).
func gitRepo(t *testing.T, format ObjectFormat) string {
	t.Helper()
	dir := t.TempDir()
	gittest.Init(t, dir, string(format), "user.email", "t@example.com", "user.name", "t")
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gitWith(t, dir, []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}, args...)
}

// gitWith runs git in dir with env added to this process's environment.
func gitWith(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		out = append(out, ee.Stderr...)
	}
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitLines runs git in dir as git does, and splits what it prints into one line
// per input: a batch form (`hash-object -- a b c`) answers once for many inputs. It
// fails the test unless there are exactly n lines.
func gitLines(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	return answerLines(t, n, git(t, dir, args...), args)
}

// gitInLines is gitLines with the environment isolateGit set (see gitIn).
func gitInLines(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	return answerLines(t, n, gitIn(t, dir, args...), args)
}

func answerLines(t *testing.T, n int, out string, args []string) []string {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != n {
		t.Fatalf("git %s: %d lines for %d inputs:\n%s", strings.Join(args, " "), len(lines), n, out)
	}
	return lines
}

// gitBatch is one long-running git process that answers a line for each line it is
// given, such as `git hash-object --stdin-paths`: a property test asks git once per
// draw without starting a process per draw. The process runs as git does.
type gitBatch struct {
	cmd    *exec.Cmd
	args   []string
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
}

func startGitBatch(t *testing.T, dir string, args ...string) *gitBatch {
	t.Helper()
	b := &gitBatch{args: args}
	b.cmd = exec.Command("git", append([]string{"-C", dir}, args...)...)
	// GIT_FLUSH: each answer is written out at once, never held in a buffer.
	b.cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_FLUSH=1")
	b.cmd.Stderr = &b.stderr
	var err error
	if b.in, err = b.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := b.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	b.out = bufio.NewReader(out)
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.in.Close()
		b.cmd.Wait()
	})
	return b
}

// fataler is what ask needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// ask sends one line and returns git's one-line answer.
func (b *gitBatch) ask(t fataler, line string) string {
	t.Helper()
	_, err := io.WriteString(b.in, line+"\n")
	var answer string
	if err == nil {
		answer, err = b.out.ReadString('\n')
	}
	if err != nil {
		b.in.Close()
		werr := b.cmd.Wait() // after which stderr is whole
		t.Fatalf("git %s, asked %q: %v (%v)\n%s", strings.Join(b.args, " "), line, err, werr, b.stderr.String())
	}
	return strings.TrimSuffix(answer, "\n")
}

func writeFile(t *testing.T, path string, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const seedDir = "../../../shared/seed/dsh-session-reference-0.0.1-rc.1"

// seed returns the seed package folder, skipping when this checkout has no shared/.
func seed(t *testing.T) string {
	t.Helper()
	for _, d := range []string{seedDir} {
		if _, err := os.Stat(filepath.Join(d, RecordName)); err == nil {
			return d
		}
	}
	t.Skip("shared/seed is not beside this checkout")
	return ""
}

// copySeed copies the seed's README pair and record into dir.
func copySeed(t *testing.T, dir string) {
	t.Helper()
	src := seed(t)
	for _, n := range []string{BaseName, "README.zh.md", RecordName} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, n), string(b))
	}
}
