package steps

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// errParse is Run's error for features that do not parse, and List's.
var errParse = errors.New("steps: the features could not be run (a feature file does not parse, or the options are invalid)")

// List implements suite.Part: the scenarios Run would report for sel, in its order.
func (p Part) List(sel suite.Selection) ([]suite.Check, error) { return Checks(p.FS, sel) }

// Checks lists the scenarios of the features in fsys that a Run with sel reports, in the same
// order (godog's: files in path order, then their pickles), without running any.
func Checks(fsys fs.FS, sel suite.Selection) ([]suite.Check, error) {
	if err := sel.Err(); err != nil {
		return nil, err
	}
	fsys, err := sel.UnitsOf(fsys)
	if err != nil {
		return nil, err
	}
	all, err := pickles(fsys)
	if err != nil {
		return nil, err
	}
	var other []string // the tags of the releases not certified: godog leaves them out
	for _, p := range protocol.Profiles {
		if p != sel.Release().Or() {
			other = append(other, p.Tag())
		}
	}
	var out []suite.Check
	for _, c := range all {
		if slices.ContainsFunc(c.tags, func(t string) bool { return slices.Contains(other, t) }) || !sel.Selects(part, c.Name, c.tags) {
			continue
		}
		out = append(out, c.Check)
	}
	return out, nil
}

// pickle is one scenario (an outline's example row) as godog runs it: its check and its tags,
// its feature's included.
type pickle struct {
	suite.Check
	tags []string
}

// pickles parses every *.feature file of fsys, in path order, as godog does.
func pickles(fsys fs.FS) ([]pickle, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && path.Ext(p) == ".feature" {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, errParse
	}
	var out []pickle
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, errParse
		}
		ps, err := parseFeature(name, data)
		if err != nil {
			return nil, errParse
		}
		out = append(out, ps...)
	}
	return out, nil
}

// parseFeature returns the pickles of one feature file, each with the line of its scenario
// (an outline's: of its example row) and its steps as written.
func parseFeature(name string, data []byte) ([]pickle, error) {
	n := 0
	newID := func() string { n++; return strconv.Itoa(n) }
	doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(data), newID)
	if err != nil {
		return nil, err
	}
	if doc.Feature == nil {
		return nil, nil
	}
	lines := map[string]int{}
	keywords := map[string]string{}
	steps := func(st []*messages.Step) {
		for _, x := range st {
			lines[x.Id] = int(x.Location.Line)
			keywords[x.Id] = x.Keyword
		}
	}
	scenario := func(sc *messages.Scenario) {
		lines[sc.Id] = int(sc.Location.Line)
		steps(sc.Steps)
		for _, ex := range sc.Examples {
			for _, row := range ex.TableBody {
				lines[row.Id] = int(row.Location.Line)
			}
		}
	}
	for _, c := range doc.Feature.Children {
		switch {
		case c.Scenario != nil:
			scenario(c.Scenario)
		case c.Background != nil:
			steps(c.Background.Steps)
		case c.Rule != nil:
			for _, rc := range c.Rule.Children {
				if rc.Scenario != nil {
					scenario(rc.Scenario)
				}
				if rc.Background != nil {
					steps(rc.Background.Steps)
				}
			}
		}
	}
	area := strings.TrimSuffix(path.Base(name), ".feature")
	var out []pickle
	for _, p := range gherkin.Pickles(*doc, name, newID) {
		c := pickle{Check: suite.Check{Part: part, Area: area, Name: p.Name, Source: result.Source{File: "features/" + name}}}
		for _, t := range p.Tags {
			c.tags = append(c.tags, t.Name)
			if strings.HasPrefix(t.Name, "@SR-") && !slices.Contains(c.Requirements, t.Name[1:]) {
				c.Requirements = append(c.Requirements, t.Name[1:])
			}
		}
		// An outline's pickle names its scenario, then its example row: the row is the check.
		for _, id := range p.AstNodeIds {
			if l, ok := lines[id]; ok {
				c.Source.Line = l
			}
		}
		for _, st := range p.Steps {
			kw := ""
			if len(st.AstNodeIds) > 0 {
				kw = keywords[st.AstNodeIds[0]]
			}
			text := kw + st.Text
			if st.Argument != nil && st.Argument.DataTable != nil {
				for _, row := range st.Argument.DataTable.Rows {
					cells := make([]string, len(row.Cells))
					for i, c := range row.Cells {
						cells[i] = c.Value
					}
					text += "\n  | " + strings.Join(cells, " | ") + " |"
				}
			}
			if st.Argument != nil && st.Argument.DocString != nil {
				text += "\n  \"\"\"\n  " + strings.ReplaceAll(st.Argument.DocString.Content, "\n", "\n  ") + "\n  \"\"\""
			}
			c.Source.Steps = append(c.Source.Steps, text)
		}
		out = append(out, c)
	}
	return out, nil
}

// sources indexes where the scenarios of fsys are defined by area and name, as a run meets
// them (godog's Scenario names its file and pickle only): the first of a name wins.
func sources(fsys fs.FS) map[string]result.Source {
	all, _ := pickles(fsys)
	m := make(map[string]result.Source, len(all))
	for _, c := range all {
		if _, dup := m[c.Area+"\x00"+c.Name]; !dup {
			m[c.Area+"\x00"+c.Name] = c.Source
		}
	}
	return m
}
