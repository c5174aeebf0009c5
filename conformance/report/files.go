package report

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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

// xmlText makes s safe for XML 1.0: adapters' strings hold controls and lone surrogates.
func xmlText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
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
func junitMessageText(cs result.Case, src Source, located bool) string {
	m := cs.Part + "/" + cs.Name
	if located {
		m += fmt.Sprintf(" (%s:%d)", src.File, src.Line)
	}
	m += ": " + cs.Message
	if d, ok := Diff(cs.Want, cs.Got); ok {
		m += "; first difference " + d.First
	}
	return clip(m, 1000)
}

// WriteJUnit writes the report as JUnit XML: one suite per part, one test case per check,
// classname part.area. Not-covered checks and fixture bugs are skipped test cases, so CI
// shows them without counting them against the adapter; errors are JUnit errors.
func (r *Report) WriteJUnit(w io.Writer) error {
	s := junitSuites{Name: "sessionref-kit conformance " + r.Spec, Time: fmt.Sprintf("%.3f", r.Elapsed.Seconds())}
	for _, p := range r.Parts {
		suite := junitSuite{Name: p.Name, Time: fmt.Sprintf("%.3f", p.Elapsed.Seconds()), Properties: []junitProperty{
			{"kit", r.Kit}, {"spec", r.Spec}, {"adapter", xmlText(r.Adapter)}, {"hello", xmlText(r.HelloLine())},
			{"fixtureHash", r.FixtureHash}, {"seed", fmt.Sprint(r.Seed)}, {"note", p.Note},
		}}
		for _, cs := range r.Cases {
			if cs.Part != p.Name {
				continue
			}
			jc := junitCase{Name: xmlText(cs.Name), Classname: p.Name + "." + cs.Area, Time: fmt.Sprintf("%.3f", cs.Duration.Seconds())}
			src, located := EmbeddedSources().Lookup(cs.Part, cs.Area, cs.Name)
			if located {
				jc.File, jc.Line = src.File, src.Line
			}
			msg := xmlText(cs.Message)
			if cs.Status == result.Fail || cs.Status == result.Error {
				msg = xmlText(junitMessageText(cs, src, located))
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
				jc.Skipped = &junitMessage{Message: "fixture bug: " + msg, Body: r.caseDetail(cs)}
				suite.Skipped++
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

// maxMarkdownFailures bounds the failures detailed in a step summary (GitHub caps it at 1 MiB).
const maxMarkdownFailures = 20

// WriteMarkdown writes a summary for CI step summaries: verdict, what was certified, the
// first failures and errors in collapsible blocks, then per-part and per-area tables.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	icon := map[int]string{ExitConformant: "✅", ExitNotConformant: "❌", ExitUsage: "⚠️", ExitUnusable: "💥"}[r.Verdict.Code]
	fmt.Fprintf(&b, "## %s session-reference conformance: %s\n\n", icon, mdEscape(r.Verdict.Summary))
	for _, l := range r.Header() {
		fmt.Fprintf(&b, "- %s\n", mdEscape(l))
	}
	b.WriteString("\n")
	// Failures first: they are what a reader of a red run came for.
	shown := 0
	for _, cs := range r.Cases {
		if cs.Status != result.Fail && cs.Status != result.Error {
			continue
		}
		if shown == maxMarkdownFailures {
			fmt.Fprintf(&b, "…and %d more; see the full report.\n\n", r.Totals.Fail+r.Totals.Error-shown)
			break
		}
		shown++
		var d strings.Builder
		writeCase(&d, cs, r.Rerun(cs))
		fmt.Fprintf(&b, "<details><summary>%s %s %s: %s</summary>\n\n```\n%s```\n</details>\n\n",
			strings.ToUpper(string(cs.Status)), cs.Part, htmlEscape(cs.Name), htmlEscape(clip(cs.Message, 300)), strings.ReplaceAll(strings.ToValidUTF8(d.String(), "\uFFFD"), "```", "`\u200b``"))
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

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;").Replace(strings.ToValidUTF8(s, "\uFFFD"))
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\n", " ").Replace(strings.ToValidUTF8(s, "\uFFFD"))
}

// WriteFile writes what write produces to path atomically: into a temporary file in the same
// directory, renamed over path only once complete, so a crashed or killed run never leaves a
// truncated report that CI would read as valid. What write produces streams to the file
// through a buffer: a large report is never held in memory whole.
func WriteFile(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("report %s: %w", path, err)
	}
	tmp := f.Name()
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("report %s: %w", path, err)
	}
	return nil
}

// AppendFile appends what write produces to path (created if missing): $GITHUB_STEP_SUMMARY
// is shared by every step of a job, so it is appended to, never replaced.
func AppendFile(path string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("step summary: %w", err)
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
