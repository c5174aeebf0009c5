package pairing

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// noTempLeft fails if a temporary record is left in dir.
func noTempLeft(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func withOps(t *testing.T, o fileOps) {
	old := ops
	ops = o
	t.Cleanup(func() { ops = old })
}

func TestWriteFileAtomicInterrupted(t *testing.T) {
	const old = "README.md: " + h1 + "\nREADME.zh.md: " + h2 + "\n"
	const next = "README.md: " + h3 + "\nREADME.zh.md: " + h4 + "\n"
	boom := errors.New("disk full")
	tests := map[string]fileOps{
		"create fails": {createTemp: func(string, string) (*os.File, error) {
			return nil, &fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES}
		}, write: ops.write, rename: ops.rename},
		"write stops halfway": {createTemp: ops.createTemp, write: func(f *os.File, data []byte) (int, error) {
			n, _ := f.Write(data[:len(data)/2])
			return n, boom
		}, rename: ops.rename},
		"short write": {createTemp: ops.createTemp, write: func(f *os.File, data []byte) (int, error) {
			return f.Write(data[:3])
		}, rename: ops.rename},
		"rename fails": {createTemp: ops.createTemp, write: ops.write, rename: func(string, string) error { return boom }},
	}
	for name, o := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, RecordName)
			writeFile(t, p, old)
			withOps(t, o)
			if err := WriteFileAtomic(p, []byte(next), 0o644); err == nil {
				t.Fatal("want an error")
			}
			if got := readFile(t, p); got != old {
				t.Errorf("record changed to %q", got)
			}
			noTempLeft(t, dir)
		})
	}
	t.Run("success keeps mode", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, RecordName)
		writeFile(t, p, old)
		if err := WriteFileAtomic(p, []byte(next), 0o640); err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(p)
		if got := readFile(t, p); got != next || info.Mode().Perm() != 0o640 {
			t.Errorf("got %q mode %v", got, info.Mode())
		}
		noTempLeft(t, dir)
	})
}

// A process killed in the middle of writing leaves the old record whole: the
// helper below is this test binary, started again, killing itself after half the
// new record reached the temporary file.
func TestWriteFileAtomicKilledMidWrite(t *testing.T) {
	if os.Getenv("PAIRING_KILL_HELPER") != "" {
		ops.write = func(f *os.File, data []byte) (int, error) {
			f.Write(data[:len(data)/2])
			f.Sync()
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		WriteFileAtomic(os.Getenv("PAIRING_KILL_HELPER"), []byte("README.md: "+h3+"\nREADME.zh.md: "+h4+"\n"), 0o644)
		os.Exit(0) // not reached
	}
	dir := t.TempDir()
	p := filepath.Join(dir, RecordName)
	const old = "# keep me\nREADME.md: " + h1 + "\nREADME.zh.md: " + h2 + "\n"
	writeFile(t, p, old)
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFileAtomicKilledMidWrite$")
	cmd.Env = append(os.Environ(), "PAIRING_KILL_HELPER="+p)
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper: %v, want death by SIGKILL", err)
	}
	if got := readFile(t, p); got != old {
		t.Errorf("record is %q after the crash, want the old one", got)
	}
	// The leftover temporary file is not a record: a check of the folder ignores it.
	repo := &Repo{Root: dir, Format: SHA1}
	writeFile(t, filepath.Join(dir, BaseName), "x")
	writeFile(t, filepath.Join(dir, "README.zh.md"), "y")
	rep, err := repo.Run(Options{})
	if err != nil || len(rep.Pairs) != 1 || rep.Pairs[0].Record != RecordName || rep.Pairs[0].Status == Malformed {
		t.Errorf("Run = %+v, %v; want just the one pair of the old record", rep, err)
	}
}

// Running as root, file modes stop nothing; these inject the errors a read-only
// folder and an unreadable file give, through the same seams the real calls use.
func TestPermissionErrorsAreVerdicts(t *testing.T) {
	root := gitRepo(t, SHA1)
	writeFile(t, filepath.Join(root, BaseName), "hello\n")
	writeFile(t, filepath.Join(root, "README.zh.md"), "你好\n")
	repo, err := FindRepo(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("read-only folder under --write", func(t *testing.T) {
		withOps(t, fileOps{createTemp: func(dir, _ string) (*os.File, error) {
			return nil, &fs.PathError{Op: "open", Path: dir, Err: syscall.EROFS}
		}, write: ops.write, rename: ops.rename})
		rep, err := repo.Run(Options{Dir: root, Paths: []string{"README.zh.md"}, Write: true})
		if err != nil {
			t.Fatal(err)
		}
		p := rep.Pairs[0]
		if rep.OK() || p.Action != "failed" || !strings.Contains(p.WriteError, "not writable") {
			t.Errorf("got %+v, want a failed write naming the unwritable folder", p)
		}
		if _, err := os.Stat(filepath.Join(root, RecordName)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a record appeared: %v", err)
		}
	})
	t.Run("unreadable side", func(t *testing.T) {
		writeFile(t, filepath.Join(root, RecordName), "README.md: "+h1+"\nREADME.zh.md: "+h2+"\n")
		t.Cleanup(func() { os.Remove(filepath.Join(root, RecordName)) })
		old := openForHash
		openForHash = func(p string) (*os.File, error) {
			if strings.HasSuffix(p, "README.zh.md") {
				return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.EACCES}
			}
			return old(p)
		}
		t.Cleanup(func() { openForHash = old })
		rep, err := repo.Run(Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := rep.Pairs[0]
		if p.Status != Unreadable || !strings.Contains(p.Message, "README.zh.md cannot be read: permission denied") {
			t.Errorf("got %s %q", p.Status, p.Message)
		}
	})
	t.Run("unreadable record", func(t *testing.T) {
		writeFile(t, filepath.Join(root, RecordName), "README.md: "+h1+"\nREADME.zh.md: "+h2+"\n")
		t.Cleanup(func() { os.Remove(filepath.Join(root, RecordName)) })
		old := openForHash
		openForHash = func(p string) (*os.File, error) {
			return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.EACCES}
		}
		t.Cleanup(func() { openForHash = old })
		rep, err := repo.Run(Options{Dir: root, Paths: []string{"README.md"}, Write: true})
		if err != nil {
			t.Fatal(err)
		}
		p := rep.Pairs[0]
		if p.Status != Unreadable || p.Action != "failed" || !strings.Contains(p.Message, "README.i18n.yaml cannot be read: permission denied") {
			t.Errorf("got %+v", p)
		}
	})
}
