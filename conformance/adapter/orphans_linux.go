package adapter

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// holder is a process holding one of an adapter's pipes.
type holder struct {
	pid  int
	desc string
}

// pipeHolders lists the processes other than this one, its children and the adapter's own
// process group (pgid, killed already) that hold any of the pipes ids, from /proc: an escaped
// helper. A child of this process holds them only between its fork and its exec, which
// closes them (Go opens every descriptor close-on-exec): another adapter being started at
// that moment (diff's other side, a restart, a test's run beside this one), not a helper.
func pipeHolders(ids []uint64, pgid int) []holder {
	if len(ids) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, id := range ids {
		want["pipe:["+strconv.FormatUint(id, 10)+"]"] = true
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []holder
	for _, e := range procs {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		if g, err := syscall.Getpgid(pid); err != nil || g == pgid || parent(pid) == self {
			continue
		}
		dir := filepath.Join("/proc", e.Name(), "fd")
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue // not ours to look at, or gone
		}
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && want[l] {
				out = append(out, holder{pid: pid, desc: describe(pid)})
				break
			}
		}
	}
	return out
}

// parent is the pid of pid's parent, from /proc/pid/stat ("pid (comm) state ppid …"; comm
// may hold spaces and parentheses), or 0.
func parent(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// describe names a process by pid and command line: "pid 123 (sleep 600)".
func describe(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	cmd := strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
	if len(cmd) > 120 {
		cmd = cmd[:120] + "…"
	}
	if cmd == "" {
		return fmt.Sprintf("pid %d", pid)
	}
	return fmt.Sprintf("pid %d (%s)", pid, cmd)
}
