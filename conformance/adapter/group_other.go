//go:build !unix

package adapter

import (
	"os"
	"os/exec"
)

// newGroup does nothing where there are no process groups to use.
func newGroup(cmd *exec.Cmd) {}

// killGroup kills the adapter process; processes it started itself may outlive it here.
func killGroup(cmd *exec.Cmd) {
	_ = cmd.Process.Kill()
}

// pipeID is 0 where pipes have no identity to look for.
func pipeID(f *os.File) uint64 { return 0 }
