//go:build unix

package adapter_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
)

// TestExitedAdapterGroupIsEnded: an adapter that exits without answering and leaves a
// process of its own group holding its stdout and stderr (a shell's background job) has that
// process killed with it. Before, the runner waited out stderr's grace, then warned of "a
// process outside the adapter's process group (its pid could not be found)": a process that
// was inside the group, and was left running until the adapter was closed.
func TestExitedAdapterGroupIsEnded(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	script := fmt.Sprintf(`read line; sleep 600 & echo $! > %s; exit 1`, pidfile)
	p := &adapter.Process{Argv: []string{"sh", "-c", script}, Timeout: 10 * time.Second}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	_, err := p.Call(context.Background(), encodeA)
	if k := adapter.KindOf(err); k != adapter.KindExited {
		t.Fatalf("Call: %v (kind %v), want the adapter's exit", err, k)
	}
	if o := p.Orphans(); len(o) > 0 {
		t.Errorf("orphans %q: the holder was in the adapter's group", o)
	}
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the adapter's background job (pid %d) outlived its call", pid)
	}
}

// alive reports whether pid runs (a zombie, killed and not yet reaped, does not).
func alive(pid int) bool {
	for range 50 { // the kill is delivered, not awaited
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return syscall.Kill(pid, 0) == nil && !strings.Contains(string(b), ") Z ")
		}
		if i := strings.LastIndexByte(string(b), ')'); i > 0 && strings.HasPrefix(string(b[i:]), ") Z") {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
