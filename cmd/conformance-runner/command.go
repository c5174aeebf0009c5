package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
)

// A command is one of conformance-runner's commands, as cmd/go's base.Command is one of go's:
// its name, the usage line and one-line summary the top help lists, the help -h prints, its
// flags and its body. Every command parses its flags the same way (parse), so -h, --help,
// Go-style single-dash long flags, "--" and usage errors behave alike in all of them.
type command struct {
	// Name selects the command as the first argument; "" is the default command (a run).
	Name string
	// UsageLine is the synopsis the top help lists, a line per form, without "usage:";
	// Short summarizes each line in a column (on a line of its own after a long one).
	UsageLine string
	Short     string
	// Long is the whole help that -h, --help and "help NAME" print on stdout.
	Long func() string
	// Flag defines the command's flags on a fresh set and returns the body that reads them.
	// A fresh set for every call, not one per command: run is called concurrently (by the
	// tests), and a flag value must belong to one call.
	Flag func(fs *pflag.FlagSet) func(c *call) int
	// Args is what the command takes besides flags (argsNone unless set).
	Args argRule
	// DashErr, for a command with argsNone, is the message for a "--" on its command line;
	// "" refuses only what follows it, as an unexpected argument.
	DashErr string
}

// argRule says what positional arguments a command takes.
type argRule int

const (
	argsNone    argRule = iota // none, before or after "--"
	argsOperand                // any number, in any order with the flags (report's JSON reports)
	argsAdapter                // none before "--"; after it, the adapter's argv (a run)
)

// commands is the table of commands, in the order the top help lists them; run picks one by
// its first argument. It is filled in init: "help" reads it, so it cannot be its own
// initializer.
var commands []*command

func init() {
	commands = []*command{runCommand, adapterCommand, diffCommand, benchCommand, listCommand, versionCommand, reportCommand, helpCommand}
}

// lookup returns the command named name, or nil; "" is the default command.
func lookup(name string) *command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// call is one invocation of a command: its parsed arguments and the streams.
type call struct {
	cmd    *command
	fs     *pflag.FlagSet
	args   []string // the positional arguments (argsOperand), in order
	dash   []string // argsAdapter: the arguments after "--"; nil without "--"
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// run is the whole command; main only exits with its code. The first argument names the
// command when it is one of the table's; otherwise every argument is the default command's.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := runCommand
	if len(args) > 0 && args[0] != "" {
		if c := lookup(args[0]); c != nil {
			cmd, args = c, args[1:]
		}
	}
	return cmd.execute(args, stdin, stdout, stderr)
}

// execute parses args as cmd's flags and arguments and runs cmd's body with them.
func (cmd *command) execute(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet(cmd.path())
	body := cmd.Flag(fs)
	c := &call{cmd: cmd, fs: fs, stdin: stdin, stdout: stdout, stderr: stderr}
	if code, done := c.parse(args); done {
		return code
	}
	return body(c)
}

// path is the command as typed: "conformance-runner" or "conformance-runner NAME".
func (cmd *command) path() string {
	if cmd.Name == "" {
		return "conformance-runner"
	}
	return "conformance-runner " + cmd.Name
}

// parse parses the command's flags and sorts its positional arguments by the command's
// rule. done reports that the command returns code at once: its help was printed (0), or a
// usage error (2).
func (c *call) parse(args []string) (code int, done bool) {
	if err := c.fs.Parse(goStyleArgs(c.fs, args)); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(c.stdout, c.cmd.Long())
			return 0, true
		}
		return c.usageErr(err.Error()), true
	}
	rest, dash := c.fs.Args(), []string(nil)
	if at := c.fs.ArgsLenAtDash(); at >= 0 {
		rest, dash = rest[:at], append([]string{}, rest[at:]...)
	}
	switch c.cmd.Args {
	case argsOperand:
		c.args = append(rest, dash...)
		return 0, false
	case argsAdapter:
		c.dash = dash
		if len(rest) > 0 {
			return c.usageErr(fmt.Sprintf("unexpected argument %q (an adapter command goes in --adapter, or after --)", rest[0])), true
		}
		return 0, false
	}
	if len(rest) > 0 {
		return c.usageErr(fmt.Sprintf("unexpected argument %q", rest[0])), true
	}
	if dash != nil && c.cmd.DashErr != "" {
		return c.usageErr(c.cmd.DashErr), true
	}
	if len(dash) > 0 {
		return c.usageErr(fmt.Sprintf("unexpected argument %q", dash[0])), true
	}
	return 0, false
}

// usageErr prints a usage error, and where the command's help is, and returns 2.
func (c *call) usageErr(msg string) int {
	p := c.cmd.path()
	fmt.Fprintf(c.stderr, "%s: %s\nRun '%s -h' for usage.\n", p, msg, p)
	return report.ExitUsage
}

// errorf prints a message prefixed with the command's path, as its errors other than usage
// errors are.
func (c *call) errorf(format string, a ...any) {
	fmt.Fprintf(c.stderr, "%s: %s\n", c.cmd.path(), fmt.Sprintf(format, a...))
}

// newFlagSet returns a flag set of GNU-style flags (pflag): --name value or --name=value,
// repeatable list flags, and "--" ending the flags. Help is the command's Long text, so
// pflag prints nothing itself.
func newFlagSet(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.SortFlags = false
	return fs
}

// goStyleArgs accepts Go's single-dash long flags (-run X, -checks=5), which the commands
// took before they used pflag: "-name" becomes "--name" when name is a long flag of fs.
// Values are left alone (--adapter-arg -mode), and so is everything after "--".
func goStyleArgs(fs *pflag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 2 {
			if name, _, _ := strings.Cut(a[1:], "="); fs.Lookup(name) != nil {
				a = "-" + a
			}
		}
		out = append(out, a)
		// A flag that takes a value and has none after "=" consumes the next argument.
		if n, ok := strings.CutPrefix(a, "--"); ok && !strings.Contains(n, "=") {
			if f := fs.Lookup(n); f != nil && f.NoOptDefVal == "" && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		} else if len(a) == 2 && a[0] == '-' {
			if f := fs.ShorthandLookup(a[1:]); f != nil && f.NoOptDefVal == "" && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		}
	}
	return out
}

// synopsis is the top help's list of commands, from the table: each line of a usage line
// with the line of its summary in a column (on the next line when the usage line reaches it).
func synopsis() string {
	const col = 57
	var b strings.Builder
	for i, c := range commands {
		shorts := strings.Split(c.Short, "\n")
		for j, u := range strings.Split(c.UsageLine, "\n") {
			l := "       " + u
			if i == 0 && j == 0 {
				l = "usage: " + u
			}
			short := ""
			if j < len(shorts) {
				short = shorts[j]
			}
			if short != "" && len(l) >= col {
				b.WriteString(l + "\n")
				l = ""
			}
			b.WriteString(strings.TrimRight(fmt.Sprintf("%-*s%s", col, l, short), " ") + "\n")
		}
	}
	return b.String()
}

// helpCommand is "conformance-runner help [COMMAND]": the top help, or a command's.
var helpCommand = &command{
	Name:      "help",
	UsageLine: "conformance-runner help [COMMAND]",
	Short:     "this help, or a command's (as COMMAND -h prints it)",
	Long: func() string {
		return `usage: conformance-runner help [COMMAND]

Prints the help of COMMAND (` + commandNames() + `), as
'conformance-runner COMMAND -h' does; without COMMAND, the help of a run, as
'conformance-runner -h' does.
`
	},
	Args: argsOperand,
	Flag: func(fs *pflag.FlagSet) func(c *call) int {
		return func(c *call) int {
			switch len(c.args) {
			case 0:
				fmt.Fprint(c.stdout, runCommand.Long())
				return 0
			case 1:
				if cmd := lookup(c.args[0]); cmd != nil && c.args[0] != "" {
					fmt.Fprint(c.stdout, cmd.Long())
					return 0
				}
				return c.usageErr(fmt.Sprintf("unknown command %q (want %s)", c.args[0], commandNames()))
			}
			return c.usageErr(fmt.Sprintf("unexpected argument %q", c.args[1]))
		}
	},
}

// commandNames lists the named commands for a message.
func commandNames() string {
	var names []string
	for _, c := range commands {
		if c.Name != "" {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}
