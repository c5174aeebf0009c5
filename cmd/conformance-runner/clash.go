package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
)

// input is a file a command reads, which no report may replace: a --skip-file, the adapter's
// program or a file among its arguments, a JSON report that `report` reads.
type input struct {
	what string // "--skip-file", "the adapter's program", …
	path string
}

// adapterInputs are the words of the adapter's command line that name existing regular files
// (relative to dir, where it starts): its program, found on $PATH when a bare name, and a
// script or configuration file it is given. A report written over one would destroy it.
func adapterInputs(argv []string, dir string) []input {
	var ins []input
	for i, w := range argv {
		path := w
		if i == 0 && !strings.ContainsAny(w, `/\`) {
			p, err := exec.LookPath(w)
			if err != nil {
				continue
			}
			path = p
		} else if dir != "" && !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
			continue
		}
		what := "the adapter's program"
		if i > 0 {
			what = fmt.Sprintf("the adapter's argument %q", w)
		}
		ins = append(ins, input{what, path})
	}
	return ins
}

// fileKey identifies the file a path names: an existing regular file by its identity
// (through symbolic and hard links), a name not there yet by its folder's real path and its
// base name. ok is false for what two reports may share: "-", a device, a FIFO.
type fileKey struct {
	st   os.FileInfo
	name string
}

func keyOf(path string) (k fileKey, ok bool) {
	if path == "" || path == "-" {
		return k, false
	}
	if st, err := os.Stat(path); err == nil {
		return fileKey{st: st}, st.Mode().IsRegular()
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return k, false // CheckPath says why
	}
	abs, err := filepath.Abs(filepath.Join(dir, filepath.Base(path)))
	if err != nil {
		return k, false
	}
	return fileKey{name: abs}, true
}

func (k fileKey) same(o fileKey) bool {
	if k.st != nil || o.st != nil {
		return k.st != nil && o.st != nil && os.SameFile(k.st, o.st)
	}
	return k.name == o.name
}

// checkClashes refuses, before the run, a report path that names the same file as another
// report (the last written would replace the first) or as an input (the run would destroy
// what it read, or the adapter it runs).
func checkClashes(outs []output, ins []input) error {
	keys := make([]fileKey, len(outs))
	oks := make([]bool, len(outs))
	for i, o := range outs {
		keys[i], oks[i] = keyOf(o.path)
	}
	for i, o := range outs {
		if !oks[i] {
			continue
		}
		for j := range i {
			if oks[j] && keys[i].same(keys[j]) {
				return fmt.Errorf("%s %s: the %s report goes there too; give each report its own file", o.flag, o.path, outs[j].flag)
			}
		}
		for _, in := range ins {
			if k, ok := keyOf(in.path); ok && k.st != nil && keys[i].same(k) {
				return fmt.Errorf("%s %s: is %s (%s); a report there would replace it", o.flag, o.path, in.what, in.path)
			}
		}
	}
	return nil
}

// checkReport checks, before a diff or bench run, the one report path it writes
// (report.Check), and that it is none of the adapters' files: a bad path found after
// minutes of requests costs those minutes, and the last line would have stated another exit
// code. It returns the path's target, pinned (see checkOutputs), to write with writeReport.
func checkReport(flag, path, dir string, argvs ...[]string) (*report.Target, error) {
	if path == "" {
		return nil, nil
	}
	var ins []input
	for _, argv := range argvs {
		ins = append(ins, adapterInputs(argv, dir)...)
	}
	outs := []output{{flag: flag, path: path}}
	if isStdout(path) {
		outs[0].path = "-"
	}
	targets, err := checkOutputs(outs)
	if err != nil {
		return nil, err
	}
	if err := checkClashes(outs, ins); err != nil {
		closeTargets(targets)
		return nil, err
	}
	return targets[0], nil
}

// writeReport writes a diff's or bench's report to t, as checked before the run, or with
// report.WriteFile to path when there is no target (stdout).
func writeReport(t *report.Target, path string, write func(io.Writer) error) error {
	if t != nil {
		return t.Write(write)
	}
	return report.WriteFile(path, write)
}
