package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
)

// TrapsFile is the name of the porting-trap catalogue in the spec folder.
const TrapsFile = "porting-traps.md"

// Trap is one entry of the porting-trap catalogue: a place where a language's default
// differs from the JavaScript the contract runs on.
type Trap struct {
	ID        string   // e.g. "TRAP-CASE-UNICODE-VERSION"
	Title     string   // the heading's text after the id
	Threatens []string // the requirement ids a port that falls into it breaks
	Hint      string   // one line for a report: "looks like …"
	// Languages are the rows of the trap's table, one per language id (a language with two
	// rows, C++'s std and ICU, is affected when either row is): whether that language's
	// default falls into the trap, read from the row's last column (see parseRows).
	Languages []Affected
}

var (
	trapHeading = regexp.MustCompile(`^## (TRAP-[A-Z0-9]+(?:-[A-Z0-9]+)*): (.+)$`)
	trapID      = regexp.MustCompile(`^TRAP-[A-Z0-9]+(?:-[A-Z0-9]+)*$`)
)

// Traps reads the catalogue spec/porting-traps.md in fsys (the spec folder), in document
// order. Every entry is a heading "## TRAP-…: title" followed by a "Threatens: SR-…" line
// naming known requirements and a one-line "Hint: …".
func Traps(specFS fs.FS) ([]Trap, error) {
	data, err := fs.ReadFile(specFS, TrapsFile)
	if err != nil {
		return nil, err
	}
	reqs, err := Requirements(specFS)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, r := range reqs {
		known[r.ID] = true
	}
	var out []Trap
	seen := map[string]bool{}
	var errs []error
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	var rows []tableRow // the current trap's table rows
	inTrap := false
	flush := func() {
		if len(out) > 0 && inTrap {
			t := &out[len(out)-1]
			var err error
			t.Languages, err = parseRows(rows)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: trap %s: %w", TrapsFile, t.ID, err))
			}
		}
		rows = nil
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.HasPrefix(text, "# ") {
			flush()
			inTrap = false
			continue
		}
		if inTrap && strings.HasPrefix(text, "| ") {
			if r, ok := splitRow(text); ok {
				rows = append(rows, r)
			}
		}
		if m := trapHeading.FindStringSubmatch(text); m != nil {
			flush()
			inTrap = true
			if seen[m[1]] {
				errs = append(errs, fmt.Errorf("%s:%d: trap %s is defined twice", TrapsFile, line, m[1]))
			}
			seen[m[1]] = true
			out = append(out, Trap{ID: m[1], Title: strings.TrimSpace(m[2])})
			continue
		}
		if len(out) == 0 {
			continue
		}
		t := &out[len(out)-1]
		switch {
		case strings.HasPrefix(text, "Threatens:") && t.Threatens == nil:
			for _, id := range strings.Split(strings.TrimPrefix(text, "Threatens:"), ",") {
				id = strings.TrimSpace(strings.Trim(strings.TrimSpace(id), "`*."))
				if id == "" {
					continue
				}
				if !known[id] {
					errs = append(errs, fmt.Errorf("%s:%d: trap %s threatens unknown requirement %s", TrapsFile, line, t.ID, id))
				}
				t.Threatens = append(t.Threatens, id)
			}
		case strings.HasPrefix(text, "Hint:") && t.Hint == "":
			t.Hint = strings.TrimSpace(strings.TrimPrefix(text, "Hint:"))
		}
	}
	flush()
	for _, t := range out {
		if len(t.Threatens) == 0 || t.Hint == "" {
			errs = append(errs, fmt.Errorf("%s: trap %s needs a Threatens: line and a Hint: line", TrapsFile, t.ID))
		}
	}
	if len(out) == 0 {
		errs = append(errs, fmt.Errorf("%s: no traps found", TrapsFile))
	}
	return out, errors.Join(errs...)
}

// TrapMatrix is the coverage of the catalogue: which checks name each trap.
type TrapMatrix struct {
	Traps   []Trap
	Covered map[string][]Ref
	// Unknown maps an id that no trap defines to the checks that name it.
	Unknown map[string][]Ref
}

// BuildTraps collects which fixture cases (their traps field) and scenarios (their @TRAP-…
// tags) name each trap of the catalogue.
func BuildTraps(specFS, featuresFS, fixturesFS fs.FS) (*TrapMatrix, error) {
	traps, err := Traps(specFS)
	if err != nil {
		return nil, err
	}
	m := &TrapMatrix{Traps: traps, Covered: map[string][]Ref{}, Unknown: map[string][]Ref{}}
	known := map[string]bool{}
	for _, t := range traps {
		known[t.ID] = true
	}
	err = collect(featuresFS, fixturesFS, ScenarioTrapTags, func(c cases.Case) []string { return c.Traps }, func(id string, ref Ref) {
		if known[id] {
			m.Covered[id] = append(m.Covered[id], ref)
		} else {
			m.Unknown[id] = append(m.Unknown[id], ref)
		}
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Err returns an error listing the traps no check names and the unknown trap ids, or nil.
func (m *TrapMatrix) Err() error {
	var errs []error
	for _, t := range m.Traps {
		if len(m.Covered[t.ID]) == 0 {
			errs = append(errs, fmt.Errorf("trap %s is caught by no fixture or scenario", t.ID))
		}
	}
	errs = append(errs, unknownErrs(m.Unknown, "trap")...)
	return errors.Join(errs...)
}

// ScenarioTrapTags reads the @TRAP-* tags of every scenario of the *.feature files in fsys,
// as ScenarioTags reads the @SR-* ones (Scenario.Requirements holds the trap ids).
func ScenarioTrapTags(fsys fs.FS) ([]Scenario, error) { return scenarioTags(fsys, trapID.MatchString) }

// collect calls add for every id that a scenario's tags (read by tags) or a fixture case (ids)
// names, with the check that names it.
func collect(featuresFS, fixturesFS fs.FS, tags func(fs.FS) ([]Scenario, error), ids func(cases.Case) []string, add func(id string, ref Ref)) error {
	if featuresFS != nil {
		scen, err := tags(featuresFS)
		if err != nil {
			return err
		}
		for _, s := range scen {
			for _, id := range s.Requirements {
				add(id, Ref{"scenario", s.Name})
			}
		}
	}
	if fixturesFS != nil {
		files, err := cases.Load(fixturesFS)
		if err != nil {
			return err
		}
		for _, f := range files {
			for _, c := range f.Cases {
				for _, id := range ids(c) {
					add(id, Ref{"fixture", f.FullName(c)})
				}
			}
		}
	}
	return nil
}
