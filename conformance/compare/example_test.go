package compare_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// How the kit says that two answers differ, in terms any port author reads: the first
// difference by JSON path, and a line diff of both as canonical JSON. The id and an error's
// message are not compared, as the kit does not compare them.
func ExampleExplain() {
	want := protocol.Response{ID: 0, OK: true, Result: wire.NewObject().Set("label", "a").Set("sessionId", "s")}
	got := protocol.Response{ID: 7, OK: true, Result: wire.NewObject().Set("sessionId", "s").Set("label", "b")}
	d := compare.Explain(want, got)
	fmt.Println(d.First)
	fmt.Print(d.Lines)
	fmt.Println(compare.Agree(want, protocol.Response{ID: 9, OK: true, Result: wire.NewObject().Set("sessionId", "s").Set("label", "a")}))
	// Output:
	// $.result.label: want "a", got "b"
	//   {
	//     "ok": true,
	//     "result": {
	// -     "label": "a",
	// +     "label": "b",
	//       "sessionId": "s"
	//     }
	//   }
	// true
}
