package cases

import (
	"io/fs"
	"slices"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// List implements suite.Part: the fixture cases Run would report for sel, in its order.
func (p Part) List(sel suite.Selection) ([]suite.Check, error) { return Checks(p.FS, sel) }

// Checks lists the fixture cases of fsys that a Run with sel reports, in the same order,
// without running any; its error is Run's (a file that does not load, an invalid selection).
func Checks(fsys fs.FS, sel suite.Selection) ([]suite.Check, error) {
	picked, err := selectCases(fsys, sel)
	if err != nil {
		return nil, err
	}
	out := make([]suite.Check, 0, len(picked))
	for _, s := range picked {
		out = append(out, suite.Check{Part: part, Area: Area(s.f.Op), Name: s.f.FullName(s.fc),
			Requirements: slices.Clone(s.fc.Requirements), Traps: slices.Clone(s.fc.Traps), Source: s.f.source(s.fc)})
	}
	return out, nil
}

// selectedCase is a fixture case a selection takes, with the file that holds it.
type selectedCase struct {
	f  File
	fc Case
}

// selectCases is the one walk of the fixtures that Checks and Run share: the cases of fsys
// that sel selects for its release, in file then case order.
func selectCases(fsys fs.FS, sel suite.Selection) ([]selectedCase, error) {
	if err := sel.Err(); err != nil {
		return nil, err
	}
	files, err := Load(fsys)
	if err != nil {
		return nil, err
	}
	var out []selectedCase
	for _, f := range files {
		if !sel.TakesUnit(f.Name) {
			continue
		}
		for _, fc := range f.Cases {
			if fc.AppliesTo(string(sel.Release())) && sel.Selects(part, f.FullName(fc), append([]string{Area(f.Op)}, fc.Requirements...)) {
				out = append(out, selectedCase{f, fc})
			}
		}
	}
	return out, nil
}

// source is where fc is defined: its "- name:" line in f, as the reports show it.
func (f File) source(fc Case) result.Source {
	return result.Source{File: "fixtures/" + f.Name, Line: fc.Line}
}
