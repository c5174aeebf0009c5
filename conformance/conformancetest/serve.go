package conformancetest

import (
	"context"
	"os"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Serve makes p a stdio adapter of the protocol (spec/protocol.md) for the default profile:
// a port's main calls it, and any runner certifies the binary, as
//
//	func main() {
//		if err := conformancetest.Serve(myPort{}); err != nil {
//			log.Fatal(err)
//		}
//	}
//
//	conformance-runner --adapter 'go run ./cmd/myport-adapter' --require-all
//
// It answers through the same bridge as TestPort (p's hello names p through goport.Identity
// and declares its features, world-cache included), reads stdin to its end and returns nil
// then. ServeProfile serves another contract release.
func Serve(p goport.Port) error {
	return ServeProfile(p, "")
}

// ServeProfile is Serve for profile ("0.1.0" names 0.1.0-rc.8, see protocol.ParseProfile;
// empty means protocol.DefaultProfile).
func ServeProfile(p goport.Port, profile protocol.Profile) error {
	b, _, err := newBridge(p, profile)
	if err != nil {
		return err
	}
	return adapter.Serve(context.Background(), os.Stdin, os.Stdout, asSent{b})
}

// asSent hands the bridge each request with its objects marked to be written in the order
// the request line holds their keys (wire.KeepOrder): a goport.Value is then the text the
// client sent, key order included, not the text JavaScript would write (TRAP-JSON-KEY-ORDER).
// In process (TestPort) the runner's own objects keep a fixture's order the same way.
type asSent struct{ h adapter.Handler }

func (a asSent) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	wire.KeepOrder(req.Args)
	return a.h.Handle(ctx, req)
}
