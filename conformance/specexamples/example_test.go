package specexamples_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/specexamples"
)

// Parse reads the example blocks of a Markdown text; each names the requirement whose bullet
// it follows.
func ExampleParse() {
	text := "- **SR-URI-4** Decoding MUST fail …\n\n" +
		"  ```example op=uri.decode\n" +
		"  {\"uri\": \"DSH-SESSION:ImEi\"}\n" +
		"  → {\"error\": \"SESSION_REFERENCE_INVALID_REFERENCE\"}\n" +
		"  ```\n"
	ex, err := specexamples.Parse("spec.md", []byte(text))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range ex {
		fmt.Println(e, e.Name(), e.Op, e.Profiles, e.Want.Code)
	}
	// Output:
	// spec.md:3 (example 1) spec/1_SR-URI-4 uri.decode [0.0.1-rc.1 0.1.0-rc.8] SESSION_REFERENCE_INVALID_REFERENCE
}
