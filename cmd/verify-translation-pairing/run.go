package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
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
		write, asJSON, fullDiff, preCommit bool
		oneSided, stage                    bool
		dir                                string
		paths                              []string
	)
	// cannot says why the repository cannot be checked (git's words, a
	// folder that cannot be read): no usage hint, the command line was right.
	cannot := func(err error) int {
		// Whatever an error quotes from the file system is escaped for the terminal.
		fmt.Fprintln(stderr, "verify-translation-pairing: "+escapeLines(err.Error(), "  "))
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		cannot(fmt.Errorf(format, a...))
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
		case a == "--other-side-needs-no-change":
			oneSided = true
		case a == "--stage":
			stage = true
		case a == "--version":
			fmt.Fprintln(stdout, "verify-translation-pairing "+version())
			return exitConfirmed
		case a == "--json" || a == "-json":
			asJSON = true
		case a == "--diff" || a == "-diff":
			fullDiff = true
		case a == "--pre-commit" || a == "-pre-commit":
			preCommit = true
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
			return cannot(err)
		}
		dir = wd
	} else if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fail("-C %s: not a folder", pairing.QuotePath(dir))
	}
	if (oneSided || stage) && !write {
		return fail("--other-side-needs-no-change and --stage go with --write")
	}
	// --pre-commit with --write is a recording hook: it stages the record, so
	// that pre-commit reads its success as success, and names hooks in messages.
	stage = stage || preCommit && write
	repo, err := pairing.FindRepo(dir)
	if err != nil {
		return cannot(err)
	}
	if preCommit {
		repo.Fix, repo.FixOneSided = preCommitFix, preCommitFixOneSided
	}
	if preCommit && !write {
		// The paths are the files pre-commit passes (staged, changed): check every
		// pair if any of them matters, say nothing otherwise, and offer the fix
		// as the pre-commit command that runs it.
		if !anyRelevant(repo, dir, paths) {
			return exitConfirmed
		}
		paths = nil
	}
	rep, err := repo.Run(pairing.Options{Dir: dir, Paths: paths, Write: write, OtherSideNeedsNoChange: oneSided})
	if err != nil {
		var ue *pairing.UsageError
		if errors.As(err, &ue) {
			return fail("%s", ue.Msg)
		}
		return cannot(err)
	}
	if stage {
		if err := stageRecords(repo, rep); err != nil {
			return cannot(err)
		}
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
		printText(stdout, rep, fullDiff)
	}
	if rep.OK() {
		return exitConfirmed
	}
	return exitNotConfirmed
}

// preCommitFix runs the recording hook of .pre-commit-hooks.yaml on a side;
// preCommitFixOneSided the hook that records a pair whose other side needs no change.
const (
	preCommitFix         = "pre-commit run record-translation-pairing --hook-stage manual --files"
	preCommitFixOneSided = "pre-commit run record-translation-pairing-one-sided --hook-stage manual --files"
)

// stageRecords runs `git add` on the records a --write wrote, so that a commit
// takes them and pre-commit, which compares the unstaged changes before and
// after a hook, sees a recording hook succeed rather than "modify files".
func stageRecords(repo *pairing.Repo, rep *pairing.Report) error {
	args := []string{"-C", repo.Root, "add", "--"}
	seen := map[string]bool{}
	for _, p := range rep.Pairs {
		if (p.Action == "rewrote" || p.Action == "created") && !seen[p.Record] {
			seen[p.Record] = true
			args = append(args, p.Record)
		}
	}
	if len(seen) == 0 || repo.GitDir == "" {
		return nil
	}
	if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("git add: %s", strings.TrimSpace(string(out)))
	}
	return nil
}

// version is set by the release build (-ldflags -X main.buildVersion=…); a
// go install reports the module version.
var buildVersion = ""

func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// anyRelevant reports whether a file pre-commit passed can change a verdict; no
// files at all (a hook run with pass_filenames off) means check everything.
func anyRelevant(repo *pairing.Repo, dir string, files []string) bool {
	if len(files) == 0 {
		return true
	}
	for _, f := range files {
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		rel, err := filepath.Rel(repo.Root, f)
		if err != nil || repo.Relevant(filepath.ToSlash(rel)) {
			return true
		}
	}
	return false
}

// diffLines is how many lines of a side's diff the text output shows; --diff
// shows all the report holds.
const diffLines = 20

// printText prints one line per pair, what changed in each changed side, and a
// summary line. Every path in it is quoted as git quotes paths, and the lines of
// a diff are escaped, so nothing a file or folder name holds reaches the
// terminal as a control sequence.
func printText(w io.Writer, rep *pairing.Report, fullDiff bool) {
	for _, t := range rep.RemovedTemps {
		fmt.Fprintf(w, "%-13s %s: removed, left by an interrupted --write\n", "cleaned", pairing.QuotePath(t))
	}
	for _, p := range rep.Pairs {
		msg := p.Message
		switch p.Action {
		case "rewrote":
			if p.Status == pairing.Confirmed {
				msg += ": re-recorded the current hashes"
			} else { // only a new side was added: the sides above stay as last confirmed
				msg += ": recorded only what is listed below; the pair is still " + string(p.Status)
			}
		case "created":
			msg += ": created the record"
		case "unchanged":
			msg += ": already recorded, nothing to write"
		case "failed":
			msg = p.Label() + ": --write failed: " + p.WriteError
		case "refused":
			msg = p.Label() + ": --write refused: " + p.WriteError
		}
		fmt.Fprintf(w, "%-13s %s\n", p.Status, escapeLines(msg, "              "))
		for _, x := range p.Wrote {
			from := x.From
			if from == "" {
				from = "(new)"
			}
			fmt.Fprintf(w, "%-13s wrote %s in %s: %s -> %s\n", "", pairing.EscapeTerminal(pairing.QuotePath(x.Path)), pairing.EscapeTerminal(pairing.QuotePath(p.Record)), from, x.To)
		}
		for _, s := range p.Sides {
			if s.Changes != nil {
				printChanges(w, s, fullDiff)
			}
		}
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

func printChanges(w io.Writer, s pairing.Side, fullDiff bool) {
	const indent = "              "
	c := s.Changes
	path := pairing.QuotePath(s.Path)
	switch {
	case c.Source == "unavailable":
		fmt.Fprintf(w, "%s%s: no diff: %s\n", indent, path, pairing.EscapeTerminal(c.Reason))
		return
	case c.Diff == "":
		fmt.Fprintf(w, "%s%s since confirmation (git diff): +%d -%d lines; %s\n", indent, path, c.Added, c.Removed, c.Reason)
		return
	}
	fmt.Fprintf(w, "%s%s since confirmation (git diff): +%d -%d lines\n", indent, path, c.Added, c.Removed)
	lines := strings.Split(strings.TrimSuffix(c.Diff, "\n"), "\n")
	lines = lines[2:] // the ---/+++ header repeats the path
	shown := lines
	if !fullDiff && len(lines) > diffLines {
		shown = lines[:diffLines]
	}
	for _, l := range shown {
		fmt.Fprintf(w, "%s  %s\n", indent, pairing.EscapeTerminal(l))
	}
	if len(shown) < len(lines) {
		fmt.Fprintf(w, "%s  … %d more lines (--diff shows them all)\n", indent, len(lines)-len(shown))
	} else if c.Truncated {
		fmt.Fprintf(w, "%s  … the diff was clipped at 64 KiB\n", indent)
	}
}

// escapeLines escapes each line of a message (git's own errors span several)
// for the terminal and indents the lines after the first, so a multi-line error
// reads as git wrote it instead of as one line full of \012.
func escapeLines(msg, indent string) string {
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pairing.EscapeTerminal(l)
	}
	return strings.Join(lines, "\n"+indent)
}
