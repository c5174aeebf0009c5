package suite_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// A Selection chooses checks by tags and by their "part/name", the same way in every part.
func ExampleSelection() {
	sel, err := suite.NewSelection(suite.Selection{Profile: "0.1.0", Tags: "@uri", Match: "^fixtures/uri-decode/", Skip: "padding"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sel.Release())
	for _, name := range []string{"uri-decode/empty", "uri-decode/padding", "uri-encode/empty"} {
		if !sel.Selects("fixtures", name, []string{"uri"}) {
			fmt.Printf("%s: not selected\n", name)
			continue
		}
		if why := sel.SkipReason("fixtures", name); why != "" {
			fmt.Printf("%s: %s\n", name, why)
			continue
		}
		fmt.Printf("%s: runs\n", name)
	}
	// Output:
	// 0.1.0-rc.8
	// uri-decode/empty: runs
	// uri-decode/padding: skipped (--skip)
	// uri-encode/empty: not selected
}

// A part lists its checks as values before anything runs: here the fixture cases a
// selection makes, with where each is defined.
func ExamplePart_list() {
	var part suite.Part = cases.Part{FS: fixtures.FS}
	checks, err := part.List(suite.Selection{Match: "^fixtures/uri-decode/"})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := checks[0]
	fmt.Println(c.Part, c.Area, c.Source.File, c.Source.Line > 0)
	// Output:
	// fixtures uri fixtures/uri-decode.yaml true
}
