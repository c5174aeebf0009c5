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
	if err := sel.Err(); err != nil {
		return nil, err
	}
	files, err := Load(fsys)
	if err != nil {
		return nil, err
	}
	var out []suite.Check
	for _, f := range files {
		if !sel.TakesUnit(f.Name) {
			continue
		}
		for _, fc := range f.Cases {
			if !fc.AppliesTo(string(sel.Release())) || !sel.Selects(part, f.FullName(fc), append([]string{Area(f.Op)}, fc.Requirements...)) {
				continue
			}
			out = append(out, suite.Check{Part: part, Area: Area(f.Op), Name: f.FullName(fc),
				Requirements: slices.Clone(fc.Requirements), Traps: slices.Clone(fc.Traps), Source: f.source(fc)})
		}
	}
	return out, nil
}

// source is where fc is defined: its "- name:" line in f, as the reports show it.
func (f File) source(fc Case) result.Source {
	return result.Source{File: "fixtures/" + f.Name, Line: fc.Line}
}
