package conformancetest_test

import (
	"context"
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// A harness that drives the runner itself certifies a Go port through the same bridge as
// Certify, with runner settings Options does not carry: here the fixtures alone.
func ExampleHandler() {
	h, err := conformancetest.Handler(firstDraft{}, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := conformance.NewRunner(conformance.Runner{Handler: h, Parts: []string{conformance.PartFixtures}, Match: "^fixtures/uri-encode/"})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := r.Run(context.Background())
	fmt.Printf("%d passed, %d failed, %d not covered\n", rep.Totals.Pass, rep.Totals.Fail, rep.Totals.NotCovered)
	for _, c := range rep.Cases {
		if c.Status == result.Fail {
			fmt.Printf("%s %s: %s\n", c.Status, c.Name, c.Message)
		}
	}
	// Output:
	// 9 passed, 2 failed, 3 not covered
	// fail uri-encode/url-safe-alphabet: result differs
	// fail uri-encode/html-and-line-separators-unescaped: result differs
}
