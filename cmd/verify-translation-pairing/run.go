package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/internal/pairing"
)

// Exit statuses.
const (
	exitConfirmed    = 0
	exitNotConfirmed = 1
	exitUsage        = 2
)

// run is the whole command, testable without a process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var (
		write, asJSON bool
		dir           string
		paths         []string
	)
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "verify-translation-pairing: "+format+"\n", a...)
		fmt.Fprintln(stderr, "run 'verify-translation-pairing --help' for usage")
		return exitUsage
	}
	// Flags may come after paths ("--write docs/README.md" or "docs/README.md --write"),
	// so parse by hand rather than stop at the first path as package flag does.
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			paths = append(paths, args[i+1:]...)
			i = len(args)
		case a == "--write" || a == "-write":
			write = true
		case a == "--json" || a == "-json":
			asJSON = true
		case a == "-h" || a == "--help" || a == "-help":
			fmt.Fprint(stdout, usage+"\n"+jsonSchema)
			return exitConfirmed
		case a == "-C" || a == "--C":
			if i+1 >= len(args) {
				return fail("-C needs a folder")
			}
			i++
			dir = args[i]
		case strings.HasPrefix(a, "-C="):
			dir = strings.TrimPrefix(a, "-C=")
		case strings.HasPrefix(a, "-") && a != "-":
			return fail("unknown option %s", a)
		default:
			paths = append(paths, a)
		}
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fail("%v", err)
		}
		dir = wd
	} else if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fail("-C %s: not a folder", dir)
	}
	repo, err := pairing.FindRepo(dir)
	if err != nil {
		return fail("%v", err)
	}
	rep, err := repo.Run(pairing.Options{Dir: dir, Paths: paths, Write: write})
	if err != nil {
		var ue *pairing.UsageError
		if errors.As(err, &ue) {
			return fail("%s", ue.Msg)
		}
		return fail("%v", err)
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "verify-translation-pairing: %v\n", err)
			return exitUsage
		}
	} else {
		printText(stdout, rep)
	}
	if rep.OK() {
		return exitConfirmed
	}
	return exitNotConfirmed
}

// printText prints one line per pair and a summary line.
func printText(w io.Writer, rep *pairing.Report) {
	for _, p := range rep.Pairs {
		msg := p.Message
		switch p.Action {
		case "rewrote":
			msg += ": re-recorded the current hashes"
		case "created":
			msg += ": created the record"
		case "unchanged":
			msg += ": already recorded, nothing to write"
		case "failed":
			msg = p.Label() + ": --write failed: " + p.WriteError
		}
		fmt.Fprintf(w, "%-13s %s\n", p.Status, msg)
	}
	s := rep.Summary
	if s.Pairs == 0 {
		fmt.Fprintln(w, "no translation pairs found")
		return
	}
	noun := "pairs"
	if s.Pairs == 1 {
		noun = "pair"
	}
	fmt.Fprintf(w, "%d %s: %d confirmed, %d not confirmed\n", s.Pairs, noun, s.Confirmed, s.NotConfirmed)
}
