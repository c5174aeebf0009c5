package differential_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/differential"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Classify names the states a request reaches: here a mention whose escaped bracket leaves
// the label unclosed, so only the bare URI after it is a reference. The contract's building
// blocks come from the wiring of the embedded reference.
func ExampleClassify() {
	req := protocol.Request{Op: protocol.OpMentionParse, Args: wire.NewObject().Set("text", `see @[a\](dsh-session:ImEi)`)}
	for _, s := range differential.Classify(req, protocol.Response{OK: true}, refadapter.Semantics{}) {
		fmt.Println(s)
	}
	// Output:
	// bare URI
	// unclosed bracket
}
