package protocol_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func ExampleParseRequestKeeping() {
	req, _ := protocol.ParseRequestKeeping(`{"id":7,"op":"prepare","args":{"world":{"sessions":[]},"content":"hi"}}`, "world")
	world, _ := req.Arg("world")
	content, _ := req.Arg("content")
	fmt.Printf("%T %s, %T %s\n", world, world, content, content)
	// Output: wire.Raw {"sessions":[]}, string hi
}

func ExampleRequest_AppendLine() {
	buf := make([]byte, 0, 64) // reused from one request to the next
	for id, op := range []string{protocol.OpURIEncode, protocol.OpURIDecode} {
		buf = protocol.Request{ID: int64(id), Op: op, Args: wire.NewObject()}.AppendLine(buf[:0])
		fmt.Println(string(buf))
	}
	// Output:
	// {"id":0,"op":"uri.encode","args":{}}
	// {"id":1,"op":"uri.decode","args":{}}
}
