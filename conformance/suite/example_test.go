package suite_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// A Selection chooses checks by tags and by their "part/name", the same way in every part.
func ExampleSelection() {
	sel, err := suite.NewSelection(suite.Selection{Profile: "0.1.0", Tags: "@uri", Run: "^fixtures/uri-decode/", Skip: "padding"})
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
