package connect_test

import (
	"context"
	"fmt"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/connect"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Dial reaches a Go Handler the way it reaches an adapter command (Target.Command): with a
// per-call timeout, a panic reported as a transport error, and limits after which the
// connection gives up.
func ExampleDial() {
	conn, err := connect.Dial(connect.Target{Handler: &refadapter.Reference{}, Timeout: 10 * time.Second}, connect.Limits{MaxConsecutiveErrors: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close()
	c, err := conn.Hello(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := c.Do(context.Background(), protocol.OpURIEncode, wire.NewObject().Set("sessionId", "a"))
	fmt.Println(c.Hello.Spec, resp.Result, err, conn.Unusable() == "")
	// Output: 0.0.1-rc.1 dsh-session:ImEi <nil> true
}
