// Package canceltest holds the racing cancel cases of spec/protocol.md (cancel): prepares whose
// answer depends on the order of the held read, a failing read and the abort. The published
// package answers each the same way every time, so the reference, a Go port behind the bridge
// and the package's own adapter are each tested on this one table, repeated.
package canceltest

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// World is three sessions, a, b and c, where reading b fails ("gone").
const World = `{"sessions":[{"header":{"id":"a","createdAt":1}},{"header":{"id":"b","createdAt":2},"readError":"gone"},{"header":{"id":"c","createdAt":3}}]}`

// Case is one racing prepare: its cancel mode, the sessions it references in order, and the
// code it must fail with.
type Case struct {
	Mode string
	Refs []string
	Want string
}

// Racing are the cases. at-call: the first read aborts as it is made, before any outcome:
// cancelled, even when a later read fails. during-read: the abort comes only once every other
// read has succeeded; a failing other read decides first.
var Racing = []Case{
	{protocol.CancelAtCall, []string{"a", "b"}, contract.Cancelled},
	{protocol.CancelAtCall, []string{"a", "c", "b"}, contract.Cancelled},
	{protocol.CancelAtCall, []string{"b", "a"}, contract.Cancelled},
	{protocol.CancelDuringRead, []string{"a", "b"}, contract.ReadFailed},
	{protocol.CancelDuringRead, []string{"a", "c", "b"}, contract.ReadFailed},
	{protocol.CancelDuringRead, []string{"b", "a"}, contract.Cancelled},
	{protocol.CancelDuringRead, []string{"b", "a", "c"}, contract.Cancelled},
	{protocol.CancelDuringRead, []string{"a", "c"}, contract.Cancelled},
}

// Refs is a references argument naming ids in order.
func Refs(ids ...string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = wire.NewObject().Set("sessionId", id)
	}
	return out
}

// Args is the prepare arguments of c over world (World, parsed): agent "me", content "x".
func (c Case) Args(world any) *wire.Object {
	return wire.NewObject().Set("world", world).Set("agent", wire.NewObject().Set("id", "me")).
		Set("content", "x").Set("references", Refs(c.Refs...)).Set("cancel", c.Mode)
}
