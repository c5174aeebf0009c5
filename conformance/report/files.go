package report

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"` // where the check is defined
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// xmlText makes s safe for XML 1.0 (adapters' strings hold controls and lone surrogates),
// and for the CI page that shows it (EscapeInvisible).
func xmlText(s string) string {
	s = EscapeInvisible(strings.ToValidUTF8(s, "\uFFFD"))
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000 {
			return r
		}
		return '\uFFFD'
	}, s)
}

func (r *Report) caseDetail(cs result.Case) string {
	var b strings.Builder
	writeCase(&b, cs, r.Rerun(cs))
	return xmlText(b.String())
}

// junitMessageText names the check, where it is defined and the first difference, so a CI
// test view's one line says what failed and where to look: "fixtures/uri-decode/x
// (fixtures/uri-decode.yaml:12): $.result: want "a", got "b"".
func junitMessageText(cs result.Case) string {
	m := cs.Part + "/" + cs.Name
	if src := cs.Source; src.File != "" {
		m += fmt.Sprintf(" (%s:%d)", src.File, src.Line)
	}
	m += ": " + cs.Message
	if d := cs.Diff; d != nil {
		m += "; first difference " + d.First
	}
	return clip(m, 1000)
}

// WriteJUnit writes the report as JUnit XML: one suite per part, one test case per check,
// classname part.area. Not-covered checks are skipped test cases, so CI shows them without
// counting them against the adapter; adapter errors and fixture bugs (type "fixture-bug": the
// run is incomplete) are JUnit errors. Each suite's properties carry the run's verdict.
func (r *Report) WriteJUnit(w io.Writer) error {
	s := junitSuites{Name: "sessionref-kit conformance " + r.Spec, Time: fmt.Sprintf("%.3f", r.Elapsed.Seconds())}
	for _, p := range r.Parts {
		suite := junitSuite{Name: p.Name, Time: fmt.Sprintf("%.3f", p.Elapsed.Seconds()), Properties: []junitProperty{
			{"kit", r.Kit}, {"spec", r.Spec}, {"adapter", xmlText(r.Adapter)}, {"hello", xmlText(r.HelloLine())},
			{"fixtureHash", r.FixtureHash}, {"seed", fmt.Sprint(r.Seed)}, {"note", p.Note},
			{"verdict", string(r.Verdict.Kind())}, {"exitCode", fmt.Sprint(r.Verdict.Code)}, {"summary", xmlText(r.Verdict.Summary)},
		}}
		for _, cs := range r.Cases {
			if cs.Part != p.Name {
				continue
			}
			jc := junitCase{Name: xmlText(cs.Name), Classname: p.Name + "." + cs.Area, Time: fmt.Sprintf("%.3f", cs.Duration.Seconds())}
			if src := cs.Source; src.File != "" {
				jc.File, jc.Line = src.File, src.Line
			}
			msg := xmlText(cs.Message)
			if cs.Status == result.Fail || cs.Status == result.Error {
				msg = xmlText(junitMessageText(cs))
			}
			switch cs.Status {
			case result.Fail:
				jc.Failure = &junitMessage{Message: msg, Type: "not-conformant", Body: r.caseDetail(cs)}
				suite.Failures++
			case result.Error:
				jc.Error = &junitMessage{Message: msg, Type: "adapter-error", Body: r.caseDetail(cs)}
				suite.Errors++
			case result.NotCovered:
				jc.Skipped = &junitMessage{Message: "not covered: " + msg}
				suite.Skipped++
			case result.FixtureBug:
				// An error, not a skip: a check the kit could not run leaves the run
				// incomplete, and a CI test view must not show it green.
				jc.Error = &junitMessage{Message: "fixture bug (the kit's, not the adapter's): " + msg, Type: "fixture-bug", Body: r.caseDetail(cs)}
				suite.Errors++
			}
			suite.Tests++
			suite.Cases = append(suite.Cases, jc)
		}
		s.Tests += suite.Tests
		s.Failures += suite.Failures
		s.Errors += suite.Errors
		s.Skipped += suite.Skipped
		s.Suites = append(s.Suites, suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// maxMarkdownGroups bounds the failure groups detailed in a step summary (GitHub caps it at
// 1 MiB).
const maxMarkdownGroups = 20

// WriteMarkdown writes a summary for CI step summaries: verdict, what was certified, the
// failures and errors grouped by cause as the text report groups them (Groups: one
// collapsible block per group, with its count, smallest example and the others by name),
// then per-part and per-area tables. Everything an adapter supplied is escaped: in a
// summary line as HTML text, in a block inside a code fence that it cannot close.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s session-reference conformance: %s\n\n", r.Verdict.Kind().Mark(), mdEscape(r.Verdict.Summary))
	fmt.Fprintf(&b, "Exit code %d (%s).\n\n", r.Verdict.Code, r.Verdict.Kind())
	for _, l := range r.Header() {
		fmt.Fprintf(&b, "- %s\n", mdEscape(l))
	}
	b.WriteString("\n")
	// Failures first: they are what a reader of a red run came for.
	groups := r.Groups()
	for i, g := range groups {
		if i == maxMarkdownGroups {
			n := 0
			for _, g := range groups[i:] {
				n += len(g.Cases)
			}
			fmt.Fprintf(&b, "…and %d more groups (%s); see the full report.\n\n", len(groups)-i, plural(n, "check"))
			break
		}
		var d strings.Builder
		r.writeGroup(&d, g)
		body := d.String()
		title := fmt.Sprintf("%s %s %s: %s", strings.ToUpper(string(g.Status)), g.Example.Part, g.Example.Name, clip(g.Example.Message, 300))
		if len(g.Cases) > 1 {
			if g.Cause == givenUp {
				g.Cause = givenUpMarkdown // the verdict is the heading here, not the last line
			}
			title = groupTitle(g)
			body = body[strings.IndexByte(body, '\n')+1:] // the title is the summary
		}
		fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n```\n%s```\n</details>\n\n",
			htmlEscape(title), strings.ReplaceAll(terminalBlock(body), "```", "`\u200b``"))
	}
	b.WriteString("| part | checks | pass | fail | not covered | error | fixture bug | elapsed |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range r.Parts {
		name := p.Name
		if p.Note != "" {
			name += " (" + mdEscape(p.Note) + ")"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %s |\n", name, p.Total, p.Pass, p.Fail, p.NotCovered, p.Error, p.FixtureBug, seconds(p.Elapsed))
	}
	if areas := r.Areas(); len(areas) > 0 {
		b.WriteString("\n| area | checks | pass | fail | not covered | error | fixture bug |\n|---|---:|---:|---:|---:|---:|---:|\n")
		for _, a := range areas {
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d |\n", mdEscape(a.Name), a.Total, a.Pass, a.Fail, a.NotCovered, a.Error, a.FixtureBug)
		}
	}
	if len(r.Requirements) > 0 {
		b.WriteString("\n<details><summary>Coverage by requirement</summary>\n\n| requirement | scenarios | fixtures | properties | partitions | pass | fail | not covered | error |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, q := range r.Requirements {
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", q.ID, q.Scenarios, q.Fixtures, q.Properties, q.Partitions, q.Pass, q.Fail, q.NotCovered, q.Error+q.FixtureBug)
		}
		b.WriteString("\n</details>\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscape escapes s for one line of Markdown (see markdownText).
func mdEscape(s string) string { return markdownText(s) }

// htmlEscape escapes s for HTML text in a Markdown file (a <summary>): besides &, < and >,
// the characters that would make Markdown of it (a link's brackets, an autolink's ':' and
// '@', code and emphasis marks) are character references, so no renderer that reads Markdown
// inside HTML makes a live link or image of it.
func htmlEscape(s string) string { return htmlText.Replace(Terminal(s)) }

var htmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "[", "&#91;", "]", "&#93;", "!", "&#33;",
	":", "&#58;", "@", "&#64;", "`", "&#96;", "*", "&#42;", "_", "&#95;", "~", "&#126;", "\\", "&#92;")

// WriteFile writes what write produces to path, never replacing what is not a regular file:
//
//   - a new path, or an existing regular file, is written atomically: into a temporary file
//     in the same directory, renamed over path only once complete, so a crashed or killed
//     run never leaves a truncated report that CI would read as valid; an existing file keeps
//     its permissions, a new one is made 0644;
//   - a symbolic link to a regular file is written so through: its target is replaced, the
//     link stays;
//   - a device (/dev/null, a terminal), a FIFO, or a link to one is written through, opened
//     for writing as a shell's > would, neither truncated nor replaced, so /dev/null stays
//     /dev/null and a FIFO's reader gets the report;
//   - a directory, a socket or anything else is refused (see CheckPath).
//
// What write produces streams through a buffer: a large report is never held in memory
// whole. A run that checks its paths first and writes them later uses Check and
// Target.Write, so that what an adapter does to a path meanwhile cannot redirect a report.
func WriteFile(path string, write func(io.Writer) error) error {
	t, err := Check(path)
	if err != nil {
		return err
	}
	defer t.Close()
	return t.Write(write)
}

// A Target is a report path as Check found it before a run: the folder of the file to
// replace (held open), the file's name in it and its mode, or the device or FIFO to write
// through. An adapter runs with the user's rights in the report's folder: what it makes of
// the path meanwhile (a symbolic link to a --skip-file, to its own script or to another
// report; a FIFO that nobody reads) does not redirect the report, nor make the run wait.
type Target struct {
	path string
	kind fileKind
	root *os.Root // kindNew, kindRegular: the folder of the file replaced
	name string   // its name there
	mode os.FileMode
	st   fs.FileInfo // kindThrough: the device or FIFO checked
}

// Check checks path as CheckPath does and pins what it names; Target.Write writes there
// after the run, and Close releases it.
func Check(path string) (*Target, error) {
	if err := CheckPath(path); err != nil {
		return nil, err
	}
	kind, target, err := pathKind(path)
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", path, err)
	}
	t := &Target{path: path, kind: kind, mode: 0o644}
	switch kind {
	case kindThrough:
		if t.st, err = os.Stat(path); err != nil {
			return nil, fmt.Errorf("report %s: %w", path, unwrapPath(err))
		}
	case kindNew, kindRegular:
		if kind == kindRegular {
			if st, err := os.Stat(target); err == nil {
				t.mode = st.Mode().Perm()
			}
		}
		if t.root, err = os.OpenRoot(filepath.Dir(target)); err != nil {
			return nil, fmt.Errorf("report %s: %w", path, unwrapPath(err))
		}
		t.name = filepath.Base(target)
	}
	return t, nil
}

// Close releases the folder a Target holds.
func (t *Target) Close() error {
	if t.root != nil {
		return t.root.Close()
	}
	return nil
}

// Write writes what write produces to the target, as WriteFile describes: a file is made in
// the folder checked and renamed over the name checked, whatever is there now (a link is
// replaced, not followed; a FIFO is replaced, not opened); a device or FIFO is written
// through only if the path still names the one checked.
func (t *Target) Write(write func(io.Writer) error) error {
	switch t.kind {
	case kindThrough:
		if st, err := os.Stat(t.path); err != nil || !os.SameFile(st, t.st) {
			return fmt.Errorf("report %s: changed during the run (it was %s when checked); not written", t.path, describeMode(t.st.Mode()))
		}
		return writeThrough(t.path, write)
	case kindStream:
		// Through the stream itself, at its offset: a second descriptor would write over
		// what the stream writes, or it over the report.
		st, err := os.Stat(t.path)
		var out *os.File
		if err == nil {
			out = stdStream(st)
		}
		if out == nil {
			return fmt.Errorf("report %s: changed during the run (it was this process's output when checked); not written", t.path)
		}
		bw := bufio.NewWriterSize(out, 1<<16)
		err = write(bw)
		if err == nil {
			err = bw.Flush()
		}
		if err != nil {
			return fmt.Errorf("report %s: %w", t.path, err)
		}
		return nil
	}
	f, tmp, err := createTemp(t.root, "."+t.name+".tmp")
	if err != nil {
		return fmt.Errorf("report %s: %w", t.path, unwrapPath(err))
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = t.root.Chmod(tmp, t.mode)
	}
	if err == nil {
		err = t.root.Rename(tmp, t.name)
	}
	if err != nil {
		t.root.Remove(tmp)
		return fmt.Errorf("report %s: %w", t.path, err)
	}
	return nil
}

// createTemp makes a new file named prefix and a random suffix in root, as os.CreateTemp.
func createTemp(root *os.Root, prefix string) (*os.File, string, error) {
	for range 100 {
		name := prefix + strconv.FormatUint(rand.Uint64(), 36)
		f, err := root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", errors.New("no free temporary file name")
}

func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	}
	return "a file"
}

// writeThrough writes to a device or FIFO in place.
func writeThrough(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("report %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("report %s: %w", path, err)
	}
	return nil
}

type fileKind int

const (
	kindNew     fileKind = iota // nothing there yet: made atomically
	kindRegular                 // a regular file, or a link to one: replaced atomically
	kindThrough                 // a device or FIFO, or a link to one: written in place
	kindStream                  // the regular file that is this process's stdout or stderr
)

// stdStream returns os.Stdout or os.Stderr when st is the regular file it writes to, or nil.
func stdStream(st fs.FileInfo) *os.File {
	for _, f := range []*os.File{os.Stdout, os.Stderr} {
		if fst, err := f.Stat(); err == nil && os.SameFile(st, fst) {
			return f
		}
	}
	return nil
}

// pathKind says how WriteFile writes path, and the file it replaces (the link's target for a
// symbolic link), or why it will not.
func pathKind(path string) (fileKind, string, error) {
	if path == "" {
		return 0, "", errors.New("empty path")
	}
	lst, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(path)
		st, derr := os.Stat(dir)
		switch {
		case derr != nil:
			return 0, "", fmt.Errorf("folder %s: %w", dir, unwrapPath(derr))
		case !st.IsDir():
			return 0, "", fmt.Errorf("%s is not a folder", dir)
		}
		return kindNew, path, nil
	}
	if err != nil {
		return 0, "", err
	}
	target := path
	st := lst
	if lst.Mode()&fs.ModeSymlink != 0 {
		st, err = os.Stat(path)
		if err != nil {
			return 0, "", fmt.Errorf("a symbolic link whose target cannot be used: %w", unwrapPath(err))
		}
	}
	m := st.Mode()
	switch {
	case m.IsRegular() && stdStream(st) != nil:
		// /dev/stdout (or a link to it) while stdout is a file: replacing that file would
		// cut it from the process writing to it; the report is written to the stream.
		return kindStream, path, nil
	case m.IsRegular():
		if lst.Mode()&fs.ModeSymlink != 0 {
			// The link stays; the file it names is replaced.
			if target, err = filepath.EvalSymlinks(path); err != nil {
				return 0, "", err
			}
		}
		return kindRegular, target, nil
	case m.IsDir():
		return 0, "", errors.New("is a folder; want a file name")
	case m&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
		return kindThrough, path, nil
	}
	return 0, "", fmt.Errorf("is not a file, device or FIFO (%v); not written", m.Type())
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CheckPath reports, before a run, whether WriteFile can write path: its folder exists, and
// path is a new name in a writable folder, a writable regular file, a device or a FIFO (or a
// link to one of these); not a folder, a socket, a file without write permission. It changes
// nothing and does not open a FIFO (which would wait for a reader).
func CheckPath(path string) error {
	kind, target, err := pathKind(path)
	if err != nil {
		return fmt.Errorf("report %s: %w", path, err)
	}
	switch kind {
	case kindNew, kindRegular:
		// The temporary file WriteFile renames is made in the target's folder.
		f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".check*")
		if err != nil {
			return fmt.Errorf("report %s: cannot write in its folder: %w", path, unwrapPath(err))
		}
		f.Close()
		os.Remove(f.Name())
		if kind == kindRegular {
			// Renaming over a read-only file would succeed; refusing it keeps its owner's intent.
			g, err := os.OpenFile(target, os.O_WRONLY, 0)
			if err != nil {
				return fmt.Errorf("report %s: %w", path, unwrapPath(err))
			}
			g.Close()
		}
	case kindThrough, kindStream:
		st, err := os.Stat(path)
		if err == nil && st.Mode()&fs.ModeNamedPipe == 0 {
			g, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return fmt.Errorf("report %s: %w", path, unwrapPath(err))
			}
			g.Close()
		}
	}
	return nil
}

// AppendFile appends what write produces to path (created if missing): $GITHUB_STEP_SUMMARY
// is shared by every step of a job, so it is appended to, never replaced.
func AppendFile(path string, write func(io.Writer) error) error {
	a, err := CheckAppend(path)
	if err != nil {
		return err
	}
	return a.Append(write)
}

// An AppendTarget is a file to append to as CheckAppend found it before a run.
type AppendTarget struct {
	path string
	st   fs.FileInfo // nil: not there when checked
}

// CheckAppend checks path as CheckPath does and notes what it names, so that Append after
// the run appends to that file only: not to another one the adapter linked in its place, nor
// to a FIFO it made there, which nobody reads and would make the run wait for ever.
func CheckAppend(path string) (*AppendTarget, error) {
	if err := CheckPath(path); err != nil {
		return nil, err
	}
	a := &AppendTarget{path: path}
	if st, err := os.Stat(path); err == nil {
		a.st = st
	}
	return a, nil
}

// Append appends what write produces to the file checked, or creates it if it was not there;
// it refuses, without waiting, a path that names another file now.
func (a *AppendTarget) Append(write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	flags := os.O_WRONLY | os.O_APPEND | syscall.O_NONBLOCK // a FIFO without a reader fails, not waits
	if a.st == nil {
		flags |= os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(a.path, flags, 0o644)
	if err == nil && a.st != nil {
		if st, serr := f.Stat(); serr != nil || !os.SameFile(st, a.st) {
			f.Close()
			return fmt.Errorf("step summary %s: changed during the run; not written", a.path)
		}
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("step summary %s: changed during the run (made by another); not written", a.path)
	}
	if err != nil {
		return fmt.Errorf("step summary: %w", err)
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
