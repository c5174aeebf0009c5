//go:build unix

package adapter

import (
	"os"
	"os/exec"
	"syscall"
)

// newGroup puts the adapter in a session of its own, and so in a process group of its own
// (its pid), so that killGroup ends the processes it started too. A new session also has no
// controlling terminal: an adapter that opened /dev/tty could write there, past every escape
// of the runner's output, a verdict line of its own, even after the runner exited.
func newGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// killGroup kills the adapter's process group.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// pipeID identifies the pipe f is an end of (its inode), or 0.
func pipeID(f *os.File) uint64 {
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}
