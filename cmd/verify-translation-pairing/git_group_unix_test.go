//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/internal/pairing"
)

// hangingFilterRepo is a repository with one recorded pair whose clean filter hangs: a
// script that writes its pid to the returned file, then waits on a child of its own that
// writes its pid there too and sleeps for five minutes.
func hangingFilterRepo(t *testing.T) (root, pidfile string) {
	t.Helper()
	root = newRepo(t, "")
	put(t, root, "README.md", "x\n")
	put(t, root, "README.zh.md", "y\n")
	record(t, root, ".", "README.md", "README.zh.md")
	pidfile = filepath.Join(t.TempDir(), "pids")
	script := filepath.Join(t.TempDir(), "filter.sh")
	body := "#!/bin/sh\necho $$ >> '" + pidfile + "'\nsh -c 'echo $$ >> \"$1\"; exec sleep 300' sh '" + pidfile + "'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	put(t, root, ".gitattributes", "*.md filter=hang\n")
	gitCmd(t, root, "config", "filter.hang.clean", script)
	t.Cleanup(func() {
		for _, pid := range filterPids(t, pidfile) {
			syscall.Kill(pid, syscall.SIGKILL) // after a failure: leave nothing running
		}
	})
	return root, pidfile
}

func filterPids(t *testing.T, pidfile string) []int {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// running reports whether pid is a process that has not ended (a zombie has: in a
// container its reaper may be slow to collect it).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist) || runtimeHasNoProc()
	}
	// pid (comm) S ...: the state follows the last ')'.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

func runtimeHasNoProc() bool {
	_, err := os.Stat("/proc/self/stat")
	return err != nil
}

// waitGone waits up to 5 s for every pid in pidfile to end, and names those that did not.
func waitGone(t *testing.T, pidfile string, want int) {
	t.Helper()
	pids := filterPids(t, pidfile)
	if len(pids) != want {
		t.Fatalf("the filter wrote %d pids, want %d: %v", len(pids), want, pids)
	}
	var left []int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left = left[:0]
		for _, pid := range pids {
			if running(pid) {
				left = append(left, pid)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("the filter's processes %v still run after git was stopped (all: %v)", left, pids)
	}
}

// A clean filter that hangs is stopped with git at the timeout, and so is the child it
// waits on: the tool killed git alone, and the filter and its sleep ran on for 5 minutes.
func TestGitTimeoutEndsTheFilterAndItsChild(t *testing.T) {
	defer func(d time.Duration) { pairing.GitTimeout = d }(pairing.GitTimeout)
	pairing.GitTimeout = time.Second
	root, pidfile := hangingFilterRepo(t)
	r := cliBounded(t, root)
	if r.code != 1 || !strings.Contains(r.stdout, "no answer within 1s") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	waitGone(t, pidfile, 2)
}

// Ctrl-C in a terminal signals the foreground process group, the tool's: git, in a group
// of its own, gets it forwarded, so the filter and its child end with the tool, which
// ends killed by SIGINT as before.
func TestInterruptReachesGitsFilter(t *testing.T) {
	root, pidfile := hangingFilterRepo(t)
	cmd := exec.Command(os.Args[0], "-C", root)
	cmd.Env = append(os.Environ(), "VTP_RUN_MAIN=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the terminal's foreground group
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(20 * time.Second); len(filterPids(t, pidfile)) < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the filter did not start within 20s")
		}
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool did not end within 10s of SIGINT")
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("the tool ended %v, want killed by SIGINT", cmd.ProcessState)
	}
	waitGone(t, pidfile, 2)
}
