package adapter

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A child of the runner holding an adapter's pipe is one between its fork and its exec (an
// adapter being started beside this one), not an escaped helper: pipeHolders passes over it,
// and still names a process that child started with the pipe. (A run's orphans used to list
// now and then, under load, the runner's own binary: a fork caught before its exec.)
func TestPipeHoldersPassOverChildren(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	// sh (our child) and its sleep (our grandchild) both hold w, as fd 3.
	cmd := exec.Command("sh", "-c", "sleep 30 & echo $!; wait")
	cmd.ExtraFiles = []*os.File{w}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line := make([]byte, 32)
	n, _ := out.Read(line)
	grandchild, err := strconv.Atoi(strings.TrimSpace(string(line[:n])))
	if err != nil {
		t.Fatalf("sleep's pid: %q", line[:n])
	}
	defer func() {
		if p, err := os.FindProcess(grandchild); err == nil {
			p.Kill()
		}
	}()
	if got := parent(cmd.Process.Pid); got != os.Getpid() {
		t.Fatalf("parent of sh = %d, want %d", got, os.Getpid())
	}
	// Every process is looked at (since 0), or those started no earlier than sh, which the
	// grandchild is one of; one started after the grandchild is not.
	since := startTime(cmd.Process.Pid)
	if since == 0 || startTime(grandchild) < since {
		t.Fatalf("start times: sh %d, its sleep %d", since, startTime(grandchild))
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		var pids, pidsSince []int
		for _, h := range pipeHolders([]uint64{pipeID(w)}, 0, 0) {
			pids = append(pids, h.pid)
		}
		for _, h := range pipeHolders([]uint64{pipeID(w)}, 0, since) {
			pidsSince = append(pidsSince, h.pid)
		}
		if len(pids) == 1 && pids[0] == grandchild && slices.Equal(pids, pidsSince) {
			if hs := pipeHolders([]uint64{pipeID(w)}, 0, startTime(grandchild)+1); len(hs) != 0 {
				t.Errorf("holders started before %d: %v, want none", startTime(grandchild)+1, hs)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("holders %v (since sh: %v), want only the grandchild %d (not sh, %d, our child)", pids, pidsSince, grandchild, cmd.Process.Pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
