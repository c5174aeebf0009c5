//go:build unix

package pairing

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// runGroup runs cmd in a process group of its own and waits for it. Stopping it (its
// context done) kills the whole group: a clean filter git started, and what the filter
// started, end with git instead of running on after the tool gave up on git.
//
// A group of its own is not the terminal's foreground group, so Ctrl-C would no longer
// reach git: while git runs, SIGINT, SIGTERM and SIGHUP are caught, sent to git's group,
// and then raised again for the tool, which ends as it would have without the catch
// (killed by that signal; a --write leaves the old record or the new one whole, see
// WriteFileAtomic). A signal the tool was started ignoring (nohup, a background job) stays
// ignored. A program embedding the package with a handler of its own for these signals
// gets such a signal twice (as sent, and as raised again). A child that leaves the group
// (setsid) is out of reach, as any supervisor's.
func runGroup(cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var sigs []os.Signal
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	caught := make(chan os.Signal, 1)
	if len(sigs) > 0 {
		signal.Notify(caught, sigs...)
	}
	// A signal caught when git is not running (it did not start, or has ended) is raised
	// again at once: nothing is left to forward it to.
	reraise := func() {
		signal.Stop(caught)
		select {
		case s := <-caught:
			_ = syscall.Kill(os.Getpid(), s.(syscall.Signal))
		default:
		}
	}
	if err := cmd.Start(); err != nil {
		reraise()
		return err
	}
	done, forwarded := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(forwarded)
		select {
		case s := <-caught:
			sig := s.(syscall.Signal)
			_ = syscall.Kill(-cmd.Process.Pid, sig)
			signal.Stop(caught)
			_ = syscall.Kill(os.Getpid(), sig)
		case <-done:
		}
	}()
	err := cmd.Wait()
	close(done)
	<-forwarded
	reraise()
	return err
}
