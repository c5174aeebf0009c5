//go:build unix

package pairing

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A .pid file is made before its lock is taken: another run's clean-up must
// leave it while its process lives (removing it failed that --write with "no
// such file"), and remove it once the process is gone, as a leftover .tmp.
func TestRemoveStaleTempsKeepsALiveWritersPid(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal("making a finished process:", err)
	}
	live := "." + RecordName + ".1.pid"
	writeFile(t, filepath.Join(dir, live), strconv.Itoa(os.Getpid())+"\n")
	writeFile(t, filepath.Join(dir, "."+RecordName+".2.pid"), strconv.Itoa(dead.Process.Pid)+"\n")
	writeFile(t, filepath.Join(dir, "."+RecordName+".3.tmp"), "half a record")
	got := strings.Join(RemoveStaleTemps(dir, RecordName), " ")
	if want := "." + RecordName + ".2.pid ." + RecordName + ".3.tmp"; got != want {
		t.Errorf("removed %q, want %q", got, want)
	}
	if readFile(t, filepath.Join(dir, live)) == "" {
		t.Error("the live writer's pid file lost its content")
	}
}
