package refadapter

import (
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
)

// Semantics is the contract's lowercasing, projection and truncation, taken from the
// reference: the building blocks conformance/differential's state classifier re-runs where a
// request and the trusted side's answer alone do not name a state (it implements
// differential.Semantics), what the kit's own replays of the bisection are checked against,
// and the string classes the trap fixtures are generated from. They are the contract's
// behaviour, not the kit's representation of strings (conformance/wire), so the kit takes them
// from the embedded reference, through this wiring, instead of stating them a second time; a
// generator only aims with them, and a verdict still compares an implementation's answers
// with the oracle's. The wiring (cmd/conformance-runner diff, tests) hands it to the kit; no
// harness package reaches the reference for it.
type Semantics struct{}

// Lower is the contract's lowercasing (SR-STR-4: JavaScript's String.prototype.toLowerCase).
func (Semantics) Lower(s string) string { return jsstring.ToLower(s) }

// Project calls each, in order, for every message of the conversation the surface's events
// project to (SR-PROJ-*): its role ("user" or "assistant"), its text, and whether it is a
// compact checkpoint. It returns false, having called each for nothing, when the events break
// the session-query contract.
func (Semantics) Project(events []any, each func(role, text string, checkpoint bool)) bool {
	items, err := retention.Project(ToReference(events).([]any))
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

// IsCased reports whether r has the Unicode property Cased, as the contract's final sigma
// reads it.
func (Semantics) IsCased(r rune) bool { return jsstring.IsCased(r) }

// IsCaseIgnorable reports whether r has the Unicode property Case_Ignorable, as the
// contract's final sigma reads it.
func (Semantics) IsCaseIgnorable(r rune) bool { return jsstring.IsCaseIgnorable(r) }

// IsSpace reports whether the contract's regular-expression class `\s` matches r.
func (Semantics) IsSpace(r rune) bool { return jsstring.IsSpace(r) }

// IsLineTerminator reports whether r is an ECMAScript LineTerminator, which the contract's
// regular-expression `.` does not match.
func (Semantics) IsLineTerminator(r rune) bool { return jsstring.IsLineTerminator(r) }
