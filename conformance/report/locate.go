package report

import (
	"bytes"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// Source is where a check is defined: a scenario (or an outline's example row) of a feature
// file, or a case of a fixture file, with the scenario's steps as written.
type Source struct {
	File  string   `json:"file"` // "features/uri.feature", "fixtures/uri-decode.yaml"
	Line  int      `json:"line"` // 1-based: the scenario, example row or "- name:" line
	Steps []string `json:"steps,omitempty"`
}

// Sources finds the definitions of checks by part, area and name, as the runner names them.
type Sources struct {
	m map[string]Source
}

func sourceKey(part, area, name string) string { return part + "\x00" + area + "\x00" + name }

// Lookup returns the definition of a check, if known.
func (s *Sources) Lookup(part, area, name string) (Source, bool) {
	if s == nil {
		return Source{}, false
	}
	if part == "fixtures" {
		area = "" // a fixture case's name already names its file
	}
	src, ok := s.m[sourceKey(part, area, name)]
	return src, ok
}

// LoadSources indexes the scenarios of the *.feature files in featuresFS (named as godog names
// them: an outline's pickle is its name with the example's values) and the cases of the
// *.yaml fixture files in fixturesFS. Either may be nil. Files it cannot parse are left out:
// the runner reports those itself.
func LoadSources(featuresFS, fixturesFS fs.FS) *Sources {
	s := &Sources{m: map[string]Source{}}
	if featuresFS != nil {
		names, _ := fs.Glob(featuresFS, "*.feature")
		sort.Strings(names)
		for _, name := range names {
			if data, err := fs.ReadFile(featuresFS, name); err == nil {
				s.addFeature(name, data)
			}
		}
	}
	if fixturesFS != nil {
		s.addFixtures(fixturesFS)
	}
	return s
}

func (s *Sources) addFeature(name string, data []byte) {
	n := 0
	newID := func() string { n++; return strconv.Itoa(n) }
	doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(data), newID)
	if err != nil || doc.Feature == nil {
		return
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
	file := "features/" + name
	for _, p := range gherkin.Pickles(*doc, name, newID) {
		key := sourceKey("features", area, p.Name)
		if _, dup := s.m[key]; dup {
			continue
		}
		src := Source{File: file}
		// An outline's pickle names its scenario, then its example row: the row is the check.
		for _, id := range p.AstNodeIds {
			if l, ok := lines[id]; ok {
				src.Line = l
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
			src.Steps = append(src.Steps, text)
		}
		s.m[key] = src
	}
}

// addFixtures indexes the cases as the runner reads them (cases.Load: for the embedded
// fixtures, the same read as the run's), or, when a file does not parse, those of the others.
func (s *Sources) addFixtures(fsys fs.FS) {
	files, err := cases.Load(fsys)
	if err != nil {
		files = nil
		names, _ := fs.Glob(fsys, "*.yaml")
		sort.Strings(names)
		for _, name := range names {
			if data, err := fs.ReadFile(fsys, name); err == nil {
				if f, err := cases.Parse(name, data); err == nil {
					files = append(files, f)
				}
			}
		}
	}
	for _, f := range files {
		for _, c := range f.Cases {
			key := sourceKey("fixtures", "", f.FullName(c))
			if _, dup := s.m[key]; !dup {
				s.m[key] = Source{File: "fixtures/" + f.Name, Line: c.Line}
			}
		}
	}
}

var (
	embeddedOnce    sync.Once
	embeddedSources *Sources
)

// EmbeddedSources indexes the kit's embedded features and fixtures, once.
func EmbeddedSources() *Sources {
	embeddedOnce.Do(func() { embeddedSources = LoadSources(features.FS, fixtures.FS) })
	return embeddedSources
}
