// Package host models how a host delivers a message with session references to a target
// agent (spec SR-HOST-*): the seed README's idle and running paths and the durable log they
// produce. It is a model for checking the contract, not a harness.
package host

import (
	"context"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
)

// Order is where the context message goes relative to the direct message.
type Order int

const (
	// ContextFirst is 0.0.1-rc.1: the sourced context user/message, then the direct one.
	ContextFirst Order = iota
	// DirectFirst is 0.1.0-rc.8: the direct user/message, then its sourced context.
	DirectFirst
)

// Entry is one message in a target's durable log, frozen as its serialized JSON.
type Entry struct {
	Kind string // "context" or "direct"
	JSON string
}

// Target is the agent a message is sent to. While Running, accepted messages wait in the
// next-step inbox until Step claims them; while idle, the next step claims them at once.
type Target struct {
	Agent   service.Agent
	Running bool
	log     []Entry
	inbox   []Entry
}

// Replay returns the target's durable log, in order. Entries are immutable strings, so no
// later change to a source session can alter them.
func (t *Target) Replay() []Entry { return append([]Entry(nil), t.log...) }

// Pending returns the messages waiting in the running target's inbox.
func (t *Target) Pending() []Entry { return append([]Entry(nil), t.inbox...) }

// Step claims the inbox into the log, as the running agent's next step does.
func (t *Target) Step() {
	t.log = append(t.log, t.inbox...)
	t.inbox = nil
}

// Host sends user text to targets through a session-reference service.
type Host struct {
	Service *service.Service
	Order   Order
}

// Send parses mentions in text, prepares the referenced snapshots and delivers the readable
// direct message with its context (SR-HOST-1..4). Any parse or prepare failure rejects before
// anything is enqueued: the target's log and inbox are unchanged.
func (h *Host) Send(ctx context.Context, t *Target, text string) error {
	parsed, err := mention.Parse(text)
	if err != nil {
		return err
	}
	refs := make([]service.Input, len(parsed.References))
	for i, r := range parsed.References {
		label := r.Label
		refs[i] = service.Input{SessionID: r.SessionID, Label: &label}
	}
	block := jsjson.NewObject().Set("type", "text").Set("text", parsed.Text)
	prepared, err := h.Service.Prepare(ctx, t.Agent, []any{block}, refs)
	if err != nil {
		return err
	}
	direct := jsjson.NewObject().
		Set("source", jsjson.NewObject().Set("kind", "user")).
		Set("content", prepared.Content).
		Set("role", "user")
	entries := []Entry{{Kind: "direct", JSON: marshal(direct)}}
	if prepared.Context != nil {
		c := Entry{Kind: "context", JSON: marshal(prepared.Context.Value(true))}
		if h.Order == ContextFirst {
			entries = []Entry{c, entries[0]}
		} else {
			entries = append(entries, c)
		}
	}
	// Idle: the one-shot pre-step wrapper adds the snapshot to the enter decision. Running:
	// inject() then steer() place both in the next-step inbox for the same claim.
	t.inbox = append(t.inbox, entries...)
	if !t.Running {
		t.Step()
	}
	return nil
}

func marshal(v any) string {
	b, err := jsjson.Marshal(v)
	if err != nil {
		panic(err) // only JSON values are built here
	}
	return string(b)
}
