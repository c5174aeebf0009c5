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

// A RawArgHandler is a Handler that decodes one argument itself. Serve gives it that
// argument as a wire.Raw, its JSON text checked but not decoded (protocol.ParseRequestKeeping),
// so a world reaches the handler's own values in one decoding, not two. In-process callers
// pass the kit's values as they are; the handler reads both.
type RawArgHandler interface {
	Handler
	// RawArg names the argument.
	RawArg() string
}

// KitVersion is this kit's version, reported in the reference's hello.
const KitVersion = "0.1.0"
