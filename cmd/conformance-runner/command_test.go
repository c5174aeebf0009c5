package main

import (
	"bytes"
	"strings"
	"testing"
)

// runOut runs the command line args in process and returns its exit code and outputs.
func runOut(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

// TestCommandTable checks what every command of the table shares: -h, --help, -help and
// "help NAME" print its help on stdout and exit 0; the top help lists its usage line; an
// unknown flag or a stray argument is a usage error (2) naming the command and where its
// help is.
func TestCommandTable(t *testing.T) {
	_, top, _ := runOut("-h")
	for _, cmd := range commands {
		t.Run("cmd="+cmd.Name, func(t *testing.T) {
			var prefix []string
			if cmd.Name != "" {
				prefix = []string{cmd.Name}
			}
			args := func(a ...string) []string { return append(append([]string{}, prefix...), a...) }
			long := cmd.Long()
			if !strings.HasPrefix(long, "usage: conformance-runner") || !strings.HasSuffix(long, "\n") {
				t.Errorf("help does not start with the usage line or end a line:\n%s", long)
			}
			for _, h := range []string{"-h", "--help", "-help"} {
				code, out, errOut := runOut(args(h)...)
				if code != 0 || out != long || errOut != "" {
					t.Errorf("%s: exit %d, stderr %q, stdout is the help: %v", h, code, errOut, out == long)
				}
			}
			if cmd.Name != "" {
				if code, out, _ := runOut("help", cmd.Name); code != 0 || out != long {
					t.Errorf("help %s: exit %d, stdout is the help: %v", cmd.Name, code, out == long)
				}
			}
			for _, line := range strings.Split(cmd.UsageLine, "\n") {
				if !strings.Contains(top, " "+line+" ") && !strings.Contains(top, " "+line+"\n") {
					t.Errorf("the top help does not list %q", line)
				}
			}
			where := "Run '" + cmd.path() + " -h' for usage.\n"
			for _, bad := range [][]string{{"--no-such-flag"}, {"-no-such-flag"}, {"--", "stray"}} {
				if cmd.Args == argsOperand && bad[0] == "--" || cmd.Args == argsAdapter && bad[0] == "--" {
					continue // an operand, or the adapter's argv
				}
				code, out, errOut := runOut(args(bad...)...)
				if code != 2 || out != "" || !strings.HasPrefix(errOut, cmd.path()+": ") || !strings.HasSuffix(errOut, where) {
					t.Errorf("%q: exit %d, stdout %q, stderr %q", bad, code, out, errOut)
				}
			}
		})
	}
}

// TestTopHelpAligned checks that the top help's summaries of the commands start in one
// column, whether after their usage line or on a line of their own.
func TestTopHelpAligned(t *testing.T) {
	_, top, _ := runOut("-h")
	head, _, _ := strings.Cut(top, "\n\n")
	want := 57
	for _, l := range strings.Split(head, "\n") {
		col := len(l) - len(strings.TrimLeft(l, " ")) // a summary on a line of its own
		if col == 0 || col == 7 {
			i := strings.Index(l[7:], "   ")
			if i < 0 {
				continue // a usage line whose summary is on the next line
			}
			rest := l[7+i:]
			col = 7 + i + len(rest) - len(strings.TrimLeft(rest, " "))
		}
		if col != want {
			t.Errorf("%q: summary at column %d, want %d", l, col, want)
		}
	}
}

// TestHelpCommand checks "help" alone and its errors.
func TestHelpCommand(t *testing.T) {
	_, top, _ := runOut("-h")
	if code, out, _ := runOut("help"); code != 0 || out != top {
		t.Errorf("help: exit %d, stdout is the top help: %v", code, out == top)
	}
	for _, bad := range [][]string{{"help", "nope"}, {"help", "diff", "bench"}} {
		if code, out, errOut := runOut(bad...); code != 2 || out != "" || !strings.Contains(errOut, "Run 'conformance-runner help -h' for usage.") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", bad, code, out, errOut)
		}
	}
}

// TestGoStyleFlagsEverywhere checks that every command takes Go's single-dash long flags,
// as diff, bench and report did when they used the standard flag package.
func TestGoStyleFlagsEverywhere(t *testing.T) {
	for _, tt := range []struct {
		args       []string
		code       int
		out, error string
	}{
		{[]string{"bench", "-list"}, 0, "small/", ""},
		{[]string{"bench", "-repeat", "0"}, 2, "", "--repeat and --ops must be at least 1"},
		{[]string{"diff", "-checks=0", "-adapter", "reference"}, 2, "", "must be positive"},
		{[]string{"report", "-title", "T", "-label", "x"}, 2, "", "no JSON report given"},
		{[]string{"version", "-json"}, 0, `"contractReleases"`, ""},
		{[]string{"adapter", "-profile", "0.2.0"}, 2, "", `unknown profile "0.2.0"`},
	} {
		code, out, errOut := runOut(tt.args...)
		if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.error) {
			t.Errorf("%q: exit %d, stdout %.200q, stderr %q; want exit %d, %q, %q", tt.args, code, out, errOut, tt.code, tt.out, tt.error)
		}
	}
}
