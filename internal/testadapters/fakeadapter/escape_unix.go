//go:build unix

package fakeadapter

import (
	"os"
	"os/exec"
	"syscall"
)

// startEscaped starts self sleeping in a new session, outside the process group the runner
// kills, with our stdout and stderr: `setsid sleep 600 &` in a shell adapter.
func startEscaped(self string) (int, error) {
	c := exec.Command(self, "-mode", "sleep")
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return 0, err
	}
	return c.Process.Pid, nil
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
