//go:build !unix

package pairing

import "os/exec"

// runGroup runs cmd and waits for it. Here (Windows) stopping it kills git alone: a
// clean filter git started may run on after a timeout. Ending the whole tree would take
// a job object, which this tool does not create; Ctrl-C reaches git as before.
func runGroup(cmd *exec.Cmd) error { return cmd.Run() }
