// Package trace ties the requirements of spec/session-reference.md to the checks that cover
// them: feature scenarios (by their @SR-* tags), fixture cases (by their requirements) and
// properties (by the ids they declare). Check fails when a requirement is covered by nothing
// or when a check names a requirement the spec does not define.
package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
)

// SpecFile is the name of the contract in the spec folder.
const SpecFile = "session-reference.md"

// Requirement is one numbered requirement of the spec.
type Requirement struct {
	ID   string // e.g. "SR-URI-3"
	Area string // e.g. "URI"
	Text string // the requirement's sentence, Markdown
}

var (
	reqLine = regexp.MustCompile(`^- \*\*(SR-[A-Z]+-[0-9]+)\*\*\s*(.*)$`)
	reqID   = regexp.MustCompile(`^SR-[A-Z]+-[0-9]+$`)
)

// Requirements reads the requirement ids of spec/session-reference.md in fsys (the spec
// folder), in document order: every line "- **SR-AREA-N** sentence".
func Requirements(specFS fs.FS) ([]Requirement, error) {
	data, err := fs.ReadFile(specFS, SpecFile)
	if err != nil {
		return nil, err
	}
	var out []Requirement
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		m := reqLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if seen[m[1]] {
			return nil, fmt.Errorf("%s: requirement %s is defined twice", SpecFile, m[1])
		}
		seen[m[1]] = true
		out = append(out, Requirement{ID: m[1], Area: strings.Split(m[1], "-")[1], Text: m[2]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no requirements found", SpecFile)
	}
	return out, nil
}

// Ref is one check naming a requirement.
type Ref struct {
	Kind string // "scenario", "fixture" or "property"
	Name string // feature file and scenario name, fixture case name, or property name
}

// Matrix is the coverage of every requirement: which checks name it.
type Matrix struct {
	Requirements []Requirement
	Covered      map[string][]Ref
	// Unknown maps an id that no requirement defines to the checks that name it.
	Unknown map[string][]Ref
}

// Property is a registered property and the requirement ids it checks.
type Property struct {
	Name         string
	Requirements []string
}

// Build collects the matrix from the spec folder, the features, the fixtures and properties.
func Build(specFS, featuresFS, fixturesFS fs.FS, props []Property) (*Matrix, error) {
	reqs, err := Requirements(specFS)
	if err != nil {
		return nil, err
	}
	m := &Matrix{Requirements: reqs, Covered: map[string][]Ref{}, Unknown: map[string][]Ref{}}
	known := map[string]bool{}
	for _, r := range reqs {
		known[r.ID] = true
	}
	add := func(id string, ref Ref) {
		switch {
		case known[id]:
			m.Covered[id] = append(m.Covered[id], ref)
		default:
			m.Unknown[id] = append(m.Unknown[id], ref)
		}
	}
	if err := collect(featuresFS, fixturesFS, ScenarioTags, func(c cases.Case) []string { return c.Requirements }, add); err != nil {
		return nil, err
	}
	for _, p := range props {
		for _, id := range p.Requirements {
			add(id, Ref{"property", p.Name})
		}
	}
	return m, nil
}

// Scenario is one scenario (or outline) of a feature file and the requirement ids it is
// tagged with, its feature's tags included.
type Scenario struct {
	Name         string // "file.feature: scenario name"
	Requirements []string
}

// ScenarioTags reads the @SR-* tags of every scenario of the *.feature files in fsys. Tags on
// the Feature line apply to all its scenarios, tags on an Examples block to its outline.
func ScenarioTags(fsys fs.FS) ([]Scenario, error) {
	return scenarioTags(fsys, func(id string) bool { return strings.HasPrefix(id, "SR-") })
}

// scenarioTags reads the tags of every scenario for which keep holds (without the @).
func scenarioTags(fsys fs.FS, keep func(string) bool) ([]Scenario, error) {
	names, err := fs.Glob(fsys, "*.feature")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Scenario
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var featureTags, pending []string
		cur := -1
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			switch {
			case strings.HasPrefix(line, "@"):
				for _, t := range strings.Fields(line) {
					if strings.HasPrefix(t, "#") {
						break
					}
					if id := strings.TrimPrefix(t, "@"); id != t && keep(id) {
						pending = append(pending, id)
					}
				}
			case strings.HasPrefix(line, "Feature:"):
				featureTags, pending = pending, nil
			case strings.HasPrefix(line, "Scenario:"), strings.HasPrefix(line, "Scenario Outline:"),
				strings.HasPrefix(line, "Example:"), strings.HasPrefix(line, "Scenario Template:"):
				title := strings.TrimSpace(line[strings.Index(line, ":")+1:])
				reqs := append(append([]string{}, featureTags...), pending...)
				out = append(out, Scenario{Name: path.Base(name) + ": " + title, Requirements: reqs})
				cur, pending = len(out)-1, nil
			case strings.HasPrefix(line, "Examples:"), strings.HasPrefix(line, "Scenarios:"):
				if cur >= 0 {
					out[cur].Requirements = append(out[cur].Requirements, pending...)
				}
				pending = nil
			}
		}
	}
	return out, nil
}

// Uncovered returns the requirements no check names, in spec order.
func (m *Matrix) Uncovered() []string {
	var out []string
	for _, r := range m.Requirements {
		if len(m.Covered[r.ID]) == 0 {
			out = append(out, r.ID)
		}
	}
	return out
}

// Err returns an error listing uncovered requirements and unknown ids, or nil.
func (m *Matrix) Err() error {
	var errs []error
	for _, id := range m.Uncovered() {
		errs = append(errs, fmt.Errorf("requirement %s is covered by no scenario, fixture or property", id))
	}
	errs = append(errs, unknownErrs(m.Unknown, "requirement")...)
	return errors.Join(errs...)
}

// unknownErrs reports, in id order, the first check naming each id that the spec does not
// define (what: "requirement" or "trap").
func unknownErrs(unknown map[string][]Ref, what string) []error {
	ids := make([]string, 0, len(unknown))
	for id := range unknown {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var errs []error
	for _, id := range ids {
		refs := unknown[id]
		errs = append(errs, fmt.Errorf("%s %q names unknown %s %s", refs[0].Kind, refs[0].Name, what, id))
	}
	return errs
}

// Check builds the matrix and returns its error: nil when every requirement is covered and
// every named requirement exists.
func Check(specFS, featuresFS, fixturesFS fs.FS, props []Property) error {
	m, err := Build(specFS, featuresFS, fixturesFS, props)
	if err != nil {
		return err
	}
	return m.Err()
}

// Count returns how many checks of kind name id.
func (m *Matrix) Count(id, kind string) int {
	n := 0
	for _, r := range m.Covered[id] {
		if r.Kind == kind {
			n++
		}
	}
	return n
}

// Write prints the coverage matrix: one row per requirement with its count of scenarios,
// fixture cases and properties.
func (m *Matrix) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "requirement\tscenarios\tfixtures\tproperties\t")
	for _, r := range m.Requirements {
		row := []string{r.ID}
		for _, k := range []string{"scenario", "fixture", "property"} {
			row = append(row, strconv.Itoa(m.Count(r.ID, k)))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

// Generated check lists. Under each requirement of the spec, Annotate writes the checks that
// name it, between these markers; a reader sees what certifies a sentence without leaving it.
const (
	checksBegin = "<!-- checks %s: generated by `go test ./conformance/trace -run TestSpecChecks -update`; do not edit -->"
	checksEnd   = "<!-- end checks -->"
)

var checksBeginLine = regexp.MustCompile(`^\s*<!-- checks SR-[A-Z]+-[0-9]+: generated`)

// Annotate returns the spec text with the list of checks of every requirement, from m and
// examples (requirement id to example names), written at the end of the requirement's list
// item, replacing the list written before. Kinds are listed in the order scenario, fixture,
// property, example; names in the order m holds them.
func Annotate(specText []byte, m *Matrix, examples map[string][]string) []byte {
	lines := strings.Split(string(specText), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		mm := reqLine.FindStringSubmatch(lines[i])
		if mm == nil {
			out = append(out, lines[i])
			continue
		}
		// The item runs to the next line that is neither blank nor indented.
		end := i + 1
		for end < len(lines) && (strings.TrimSpace(lines[end]) == "" || strings.HasPrefix(lines[end], " ")) {
			end++
		}
		var item []string
		for j := i; j < end; j++ {
			if checksBeginLine.MatchString(lines[j]) {
				for j < end && strings.TrimSpace(lines[j]) != checksEnd {
					j++
				}
				continue
			}
			item = append(item, lines[j])
		}
		// One blank line separates the block from what follows (or ends the file).
		for len(item) > 1 && strings.TrimSpace(item[len(item)-1]) == "" {
			item = item[:len(item)-1]
		}
		out = append(out, item...)
		out = append(out, "", "  "+fmt.Sprintf(checksBegin, mm[1]))
		out = append(out, checkList(m.Covered[mm[1]], examples[mm[1]])...)
		out = append(out, "  "+checksEnd)
		out = append(out, "")
		i = end - 1
	}
	return []byte(strings.Join(out, "\n"))
}

func checkList(refs []Ref, examples []string) []string {
	groups := map[string][]string{}
	for _, r := range refs {
		groups[r.Kind] = append(groups[r.Kind], r.Name)
	}
	groups["example"] = examples
	var summary, body []string
	for _, k := range []struct{ kind, one, many string }{
		{"scenario", "scenario", "scenarios"},
		{"fixture", "fixture case", "fixture cases"},
		{"property", "property", "properties"},
		{"example", "example", "examples"},
	} {
		names := groups[k.kind]
		if len(names) == 0 {
			continue
		}
		word := k.many
		if len(names) == 1 {
			word = k.one
		}
		summary = append(summary, fmt.Sprintf("%d %s", len(names), word))
		quoted := quoteGrouped(names)
		body = append(body, "  - "+strings.ToUpper(word[:1])+word[1:]+": "+strings.Join(quoted, ", "))
	}
	if len(summary) == 0 {
		return []string{"  Checks: none."}
	}
	out := []string{"  <details><summary>Checks: " + strings.Join(summary, ", ") + "</summary>", ""}
	out = append(out, body...)
	return append(out, "", "  </details>")
}

// maxListedPerFile is how many cases of one fixture file a check list names; a file with more
// (the generated trap files hold one case per chunk of code points) is written as
// `file/…` and its count.
const maxListedPerFile = 8

// quoteGrouped quotes names for a check list, in order, folding the cases of a fixture file
// that contributes more than maxListedPerFile into one entry.
func quoteGrouped(names []string) []string {
	perFile := map[string]int{}
	for _, n := range names {
		if f, _, ok := strings.Cut(n, "/"); ok {
			perFile[f]++
		}
	}
	var out []string
	done := map[string]bool{}
	for _, n := range names {
		f, _, ok := strings.Cut(n, "/")
		if ok && perFile[f] > maxListedPerFile {
			if !done[f] {
				done[f] = true
				out = append(out, fmt.Sprintf("`%s/…` (%d cases)", strings.ReplaceAll(f, "`", "'"), perFile[f]))
			}
			continue
		}
		out = append(out, "`"+strings.ReplaceAll(n, "`", "'")+"`")
	}
	return out
}
