package adapter_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
)

// An adapter for a Go port is a main that serves its Handler on stdin and stdout:
//
//	func main() {
//		if err := adapter.Serve(context.Background(), os.Stdin, os.Stdout, myPort{}); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// Here the embedded reference answers two request lines from a buffer.
func ExampleServe() {
	in := strings.NewReader(`{"id":1,"op":"hello","args":{"protocol":1}}` + "\n" +
		`{"id":2,"op":"uri.decode","args":{"uri":"dsh-session:ImEi="}}` + "\n")
	var out bytes.Buffer
	if err := adapter.Serve(context.Background(), in, &out, &refadapter.Reference{}); err != nil {
		panic(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		resp, err := protocol.ParseResponse(line)
		if err != nil {
			panic(err)
		}
		// Line leaves out elapsedNs, the adapter's own time, which Serve adds to each answer.
		l, _ := resp.Line()
		fmt.Println(string(l))
	}
	// Output:
	// {"id":1,"ok":true,"result":{"protocol":1,"name":"sessionref-kit-reference","version":"0.1.0","spec":"0.0.1-rc.1","language":"go","features":["lone-surrogates","host","world-cache","pipelining"]}}
	// {"id":2,"ok":false,"error":{"code":"SESSION_REFERENCE_INVALID_REFERENCE","message":"invalid session reference URI \"dsh-session:ImEi=\""}}
}

// A caller decides on the kind of a transport failure, not on its wording: the runner
// spends its timeout budget on KindTimeout alone.
func ExampleKindOf() {
	var err error = &adapter.TransportError{Op: "prepare", Kind: adapter.KindTimeout, Reason: "no response within 10s"}
	fmt.Println(adapter.KindOf(fmt.Errorf("check failed: %w", err)), adapter.KindOf(nil) == "")
	// Output: timeout true
}

// Escape shows adapter text on a terminal as what it is: an escape sequence, a line
// separator or a no-break space would otherwise act on the terminal or pass for a space.
func ExampleEscape() {
	fmt.Println(adapter.Escape("ready\x1b[2J a\u2028b\u00a0c 日本"))
	// Output:
	// ready\x1b[2J a\u2028b\u00a0c 日本
}
