//go:build unix

package report_test

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestWriteFileKeepsWhatIsNotARegularFile: a device, a FIFO and links to them are written
// through, never replaced; a regular file keeps its mode; a folder, a socket and a missing
// folder are refused, before the run (CheckPath) as after it.
func TestWriteFileKeepsWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()

	t.Run("dev-null", func(t *testing.T) {
		link := filepath.Join(dir, "null-link")
		if err := os.Symlink(os.DevNull, link); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{os.DevNull, link} {
			if err := report.CheckPath(p); err != nil {
				t.Fatal(err)
			}
			if err := report.WriteFile(p, writeString(strings.Repeat("x", 100000))); err != nil {
				t.Fatal(err)
			}
		}
		st, err := os.Stat(os.DevNull)
		if err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("%s is no longer a device: %v %v", os.DevNull, st.Mode(), err)
		}
		if lst, _ := os.Lstat(link); lst.Mode()&os.ModeSymlink == 0 {
			t.Error("the link was replaced")
		}
	})

	t.Run("fifo", func(t *testing.T) {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFO here:", err)
		}
		if err := report.CheckPath(fifo); err != nil { // must not wait for a reader
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- err.Error()
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- string(b)
		}()
		if err := report.WriteFile(fifo, writeString("report")); err != nil {
			t.Fatal(err)
		}
		select {
		case s := <-got:
			if s != "report" {
				t.Errorf("the reader got %q", s)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the FIFO's reader got nothing")
		}
		if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("the FIFO was replaced: %v", st.Mode())
		}
	})

	t.Run("mode-kept", func(t *testing.T) {
		p := filepath.Join(dir, "private.json")
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o600) // whatever the umask
		if err := report.WriteFile(p, writeString("new")); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		b, _ := os.ReadFile(p)
		if st.Mode().Perm() != 0o600 || string(b) != "new" {
			t.Errorf("mode %v, content %q", st.Mode().Perm(), b)
		}
		n := filepath.Join(dir, "new.json")
		if err := report.WriteFile(n, writeString("x")); err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(n); st.Mode().Perm() != 0o644 {
			t.Errorf("new file mode %v", st.Mode().Perm())
		}
	})

	t.Run("link-to-file", func(t *testing.T) {
		target := filepath.Join(dir, "target.json")
		os.WriteFile(target, []byte("old"), 0o640)
		os.Chmod(target, 0o640)
		link := filepath.Join(dir, "link.json")
		os.Symlink(target, link)
		if err := report.WriteFile(link, writeString("new")); err != nil {
			t.Fatal(err)
		}
		lst, _ := os.Lstat(link)
		b, _ := os.ReadFile(target)
		st, _ := os.Stat(target)
		if lst.Mode()&os.ModeSymlink == 0 || string(b) != "new" || st.Mode().Perm() != 0o640 {
			t.Errorf("link %v, target %q %v", lst.Mode(), b, st.Mode().Perm())
		}
	})

	t.Run("refused", func(t *testing.T) {
		sock := filepath.Join(dir, "s.sock")
		l, err := net.Listen("unix", sock)
		if err == nil {
			defer l.Close()
		}
		for _, tc := range []struct{ path, want string }{
			{dir, "is a folder"},
			{filepath.Join(dir, "missing", "r.json"), "no such file or directory"},
			{sock, "is not a file, device or FIFO"},
		} {
			if tc.path == sock && err != nil {
				continue
			}
			if err := report.CheckPath(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckPath(%s): %v, want %q", tc.path, err, tc.want)
			}
			if err := report.WriteFile(tc.path, writeString("x")); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("WriteFile(%s): %v, want %q", tc.path, err, tc.want)
			}
		}
		if st, err := os.Lstat(sock); err == nil && st.Mode()&os.ModeSocket == 0 {
			t.Error("the socket was replaced")
		}
	})
}

// TestTargetWritesWhatWasChecked: between the check before a run and the write after it,
// the adapter (which runs in the report's folder, with the user's rights) may replace a
// report path with a symbolic link to another file, or with a FIFO nobody reads. The report
// goes to what the path named when it was checked: the link's target is not written (it was
// a --skip-file, the adapter's script, another report) and the FIFO is not opened (it would
// wait for ever); a device or FIFO checked before the run that is another file after it is
// refused.
func TestTargetWritesWhatWasChecked(t *testing.T) {
	for _, existing := range []bool{false, true} {
		for _, swap := range []string{"symlink", "fifo"} {
			name := swap
			if existing {
				name += "-over-file"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				victim := filepath.Join(dir, "skip.txt")
				if err := os.WriteFile(victim, []byte("keep me\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(dir, "r.json")
				if existing {
					if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				tg, err := report.Check(path)
				if err != nil {
					t.Fatal(err)
				}
				defer tg.Close()
				os.Remove(path) // the adapter, during the run
				if swap == "symlink" {
					err = os.Symlink(victim, path)
				} else {
					err = syscall.Mkfifo(path, 0o600)
				}
				if err != nil {
					t.Skip(err)
				}
				done := make(chan error, 1)
				go func() { done <- tg.Write(writeString("report")) }()
				select {
				case err := <-done:
					if err != nil {
						t.Fatal(err)
					}
				case <-time.After(5 * time.Second):
					f, _ := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0) // free the writer
					defer f.Close()
					t.Fatal("Write waited for a reader of a FIFO the adapter made")
				}
				if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
					t.Errorf("the link's target was written: %q", b)
				}
				lst, err := os.Lstat(path)
				if err != nil || !lst.Mode().IsRegular() {
					t.Fatalf("%s is not a regular file: %v %v", path, lst, err)
				}
				if b, _ := os.ReadFile(path); string(b) != "report" {
					t.Errorf("%s holds %q", path, b)
				}
				if want := os.FileMode(0o644); existing {
					want = 0o600
					if lst.Mode().Perm() != want {
						t.Errorf("mode %v, want the checked file's %v", lst.Mode().Perm(), want)
					}
				}
			})
		}
	}

	t.Run("fifo-replaced", func(t *testing.T) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		tg, err := report.Check(fifo)
		if err != nil {
			t.Fatal(err)
		}
		defer tg.Close()
		// Another FIFO, made while the first exists so that it is another inode.
		if err := syscall.Mkfifo(fifo+"2", 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(fifo+"2", fifo); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- tg.Write(writeString("report")) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "changed during the run") {
				t.Fatalf("err = %v, want a refusal", err)
			}
		case <-time.After(5 * time.Second):
			f, _ := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
			defer f.Close()
			t.Fatal("Write opened another FIFO than the one checked")
		}
	})
}
