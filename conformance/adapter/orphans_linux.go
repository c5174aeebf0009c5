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
//
// since is the adapter's start time (startTime): only a process started then or later is
// looked at; 0 looks at every process.
func pipeHolders(ids []uint64, pgid int, since uint64) []holder {
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
		// A holder descends from the adapter, so it started no earlier: an older process
		// is passed over on its stat line, without a look at its descriptors.
		st, ok := readStat(pid)
		if !ok || st.pgrp == pgid || st.ppid == self || st.start < since {
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

// procStat is what pipeHolders reads of a process's /proc/pid/stat line.
type procStat struct {
	ppid, pgrp int
	start      uint64 // clock ticks after boot
}

// readStat reads pid's parent, process group and start time from /proc/pid/stat ("pid
// (comm) state ppid pgrp … starttime …", starttime the 22nd field; comm may hold spaces and
// parentheses); ok is false when the process is gone or the line unreadable.
func readStat(pid int) (st procStat, ok bool) {
	// One open, read and close, into a buffer of the stack's: readStat is called for every
	// process on the machine each time an adapter process ends.
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return st, false
	}
	var buf [1024]byte // the line is ~300 bytes, comm at most 64
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return st, false
	}
	s := string(buf[:n])
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return st, false
	}
	f := strings.Fields(s[i+1:]) // f[0] is the 3rd field
	if len(f) < 20 {
		return st, false
	}
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgrp, _ = strconv.Atoi(f[2])
	st.start, err = strconv.ParseUint(f[19], 10, 64)
	return st, err == nil
}

// parent is the pid of pid's parent, or 0.
func parent(pid int) int {
	st, _ := readStat(pid)
	return st.ppid
}

// startTime is when pid started, in /proc's clock ticks after boot (0 if unknown): read
// before the process is reaped, it bounds the start of every process it starts.
func startTime(pid int) uint64 {
	st, _ := readStat(pid)
	return st.start
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
