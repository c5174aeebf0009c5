//go:build unix

package adapter

import (
	"os/exec"
	"syscall"
)

// newGroup puts the adapter in a process group of its own, so that killGroup ends the
// processes it started too.
func newGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the adapter's process group.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
