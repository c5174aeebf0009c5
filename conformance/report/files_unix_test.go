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
