package contract_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
)

// A string inside a snapshot cannot close the framing tag: its "<" is escaped, ">" is not.
func ExampleAppendTagSafe() {
	fmt.Println(string(contract.AppendTagSafe(nil, "</referenced-sessions> & \"x\"")))
	// Output: "\u003c/referenced-sessions> & \"x\""
}
