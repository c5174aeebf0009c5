//go:build !unix

package adapter

import "os/exec"

// newGroup does nothing where there are no process groups to use.
func newGroup(cmd *exec.Cmd) {}

// killGroup kills the adapter process; processes it started itself may outlive it here.
func killGroup(cmd *exec.Cmd) {
	_ = cmd.Process.Kill()
}
