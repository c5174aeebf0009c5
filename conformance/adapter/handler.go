// Package adapter connects the kit to implementations over the adapter protocol
// (spec/protocol.md): the protocol client, process supervision of an adapter command, the
// in-process Handler-to-Caller adapter (InProcess), and a stdio server (Serve) that makes a
// Go Handler an adapter command. It holds no implementation: the embedded reference's
// Handler is package refadapter.
package adapter

import (
	"context"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Handler answers protocol requests. Implementations must be safe for one request at a time;
// the runner never sends two at once.
type Handler interface {
	Handle(ctx context.Context, req protocol.Request) protocol.Response
}

// KitVersion is this kit's version, reported in the reference's hello.
const KitVersion = "0.1.0"
