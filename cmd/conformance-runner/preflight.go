package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
)

// Everything a run can be refused for is checked before it starts (preflight): a mistake
// found after ten minutes of checks costs ten minutes.

// positiveFlags refuses 0 for the flags where 0 would silently mean "the default": a user
// who wrote --timeout 0 meant something, and it was not 10s.
func positiveFlags(fs *pflag.FlagSet, names ...string) error {
	for _, n := range names {
		f := fs.Lookup(n)
		if f == nil || !fs.Changed(n) {
			continue
		}
		if v := f.Value.String(); v == "0" || v == "0s" {
			def := f.DefValue
			if d, ok := shownDefaults[n]; ok {
				def = d
			}
			return fmt.Errorf("--%s %s: want a positive value (leave the flag out for the default, %s)", n, v, def)
		}
	}
	return nil
}

// shownDefaults are the defaults of flags whose zero value stands for them.
var shownDefaults = map[string]string{"checks": strconv.Itoa(properties.DefaultChecks)}

// checkDir checks --dir: it must be an existing folder, or the adapter's start fails with a
// message that blames the adapter's program.
func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("--dir %s: %v", dir, unwrapPath(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("--dir %s: not a folder", dir)
	}
	return nil
}

// checkProgram checks that the adapter's program can be started: a name with a path
// separator is a file (relative to --dir, where the adapter starts), a bare name is found on
// $PATH, as exec does.
func checkProgram(argv []string, dir string) error {
	if len(argv) == 0 {
		return nil
	}
	prog := argv[0]
	if strings.ContainsAny(prog, `/\`) {
		path := prog
		if dir != "" && !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		st, err := os.Stat(path)
		switch {
		case err != nil:
			return fmt.Errorf("adapter program %s: %v%s", prog, unwrapPath(err), dirNote(dir))
		case st.IsDir():
			return fmt.Errorf("adapter program %s: is a folder%s", prog, dirNote(dir))
		case runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0:
			return fmt.Errorf("adapter program %s: not executable (chmod +x it, or name its interpreter: --adapter 'node %s')", prog, prog)
		}
		return nil
	}
	if _, err := exec.LookPath(prog); err != nil && !errors.Is(err, exec.ErrDot) {
		return fmt.Errorf("adapter program %q: not found on $PATH (give a path, or --adapter 'node adapter.js')", prog)
	}
	return nil
}

func dirNote(dir string) string {
	if dir == "" {
		return ""
	}
	return " (relative paths are taken from --dir " + dir + ")"
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// output is one report the run was asked to write: to a path, or to stdout ("-").
type output struct {
	flag  string
	path  string
	write func(io.Writer) error
}

// isStdout reports whether path names this process's stdout (/dev/stdout, a link to it, or
// the file stdout is redirected to): such a report is written as "-" is. The null device
// never is, whatever stdout is: a report sent there is discarded, and --json /dev/null
// --html /dev/null with stdout sent there too (a run kept for its exit code) is not two
// reports on stdout.
func isStdout(path string) bool {
	if path == "" || path == "-" {
		return false
	}
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	out, err := os.Stdout.Stat()
	return err == nil && os.SameFile(st, out)
}

// checkOutputs checks every report path before the run (report.Check) and that at most
// one of them is "-" (stdout). It returns each path's target, pinned (nil for none and "-"),
// so that what the adapter makes of the path during the run (a link to another file, a FIFO)
// cannot redirect the report; closeTargets releases them.
func checkOutputs(outs []output) ([]*report.Target, error) {
	dash := ""
	targets := make([]*report.Target, len(outs))
	for i, o := range outs {
		switch {
		case o.path == "":
		case o.path == "-":
			if dash != "" {
				closeTargets(targets)
				return nil, fmt.Errorf("%s - and %s -: only one report can go to stdout", dash, o.flag)
			}
			dash = o.flag
		default:
			t, err := report.Check(o.path)
			if err != nil {
				closeTargets(targets)
				return nil, fmt.Errorf("%s: %v", o.flag, err)
			}
			targets[i] = t
		}
	}
	return targets, nil
}

// closeTargets releases what checkOutputs pinned.
func closeTargets(targets []*report.Target) {
	for _, t := range targets {
		if t != nil {
			t.Close()
		}
	}
}

// writeOutput writes one report: "-" to stdout, any other path by writeReport (to its
// target as checked before the run, or with report.WriteFile when there is none).
func writeOutput(o output, t *report.Target, stdout io.Writer) error {
	if o.path == "-" {
		if err := o.write(stdout); err != nil {
			return fmt.Errorf("%s -: %w", o.flag, err)
		}
		return nil
	}
	return writeReport(t, o.path, o.write)
}
