package refadapter

import (
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
)

// Semantics is the contract's lowercasing, projection and truncation, taken from the
// reference: the building blocks conformance/differential's state classifier re-runs where a
// request and the trusted side's answer alone do not name a state (it implements
// differential.Semantics), and what the kit's own replays of the bisection are checked
// against. The wiring (cmd/conformance-runner diff, tests) hands it to the kit; no harness
// package reaches the reference for it.
type Semantics struct{}

// Lower is the contract's lowercasing (SR-STR-4: JavaScript's String.prototype.toLowerCase).
func (Semantics) Lower(s string) string { return jsstring.ToLower(s) }

// Project calls each, in order, for every message of the conversation the surface's events
// project to (SR-PROJ-*): its role ("user" or "assistant"), its text, and whether it is a
// compact checkpoint. It returns false, having called each for nothing, when the events break
// the session-query contract.
func (Semantics) Project(events []any, each func(role, text string, checkpoint bool)) bool {
	items, err := retention.Project(events)
	if err != nil {
		return false
	}
	for _, it := range items {
		each(string(it.Role), it.Text, it.Checkpoint)
	}
	return true
}

// Truncate is truncateWithNotice (SR-RET-6..9): text fitted into maxBytes UTF-8 bytes, head
// and tail kept, the omission notice appended; "" when no candidate fits.
func (Semantics) Truncate(text string, maxBytes int) string {
	return retention.Truncate(text, maxBytes).Text
}
