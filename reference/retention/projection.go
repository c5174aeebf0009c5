// Package retention projects a session surface to its visible conversation and fits it into
// the contract's per-source byte cap (spec SR-PROJ-*, SR-RET-*).
//
// It is the seed's projectSessionConversation, retainReferencedSession and
// truncateWithNotice, with dsh-retention's TextRetainer, and produces the same bytes. The seed
// re-serializes the whole snapshot after every dropped message, which costs the square of the
// session's size; this package keeps a running size instead, so its cost is proportional to
// the surface (plus a logarithmic factor for truncation).
package retention

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// Role is a projected message's role.
type Role string

// The two projected roles.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// Item is one projected message.
type Item struct {
	Role Role
	Text string
	// Checkpoint marks a compact checkpoint, which retention never drops.
	Checkpoint bool
}

// SurfaceError is a surface that breaks the session-query contract: an event of an unknown
// type, or one missing the fields projection reads. The seed throws a plain Error or
// TypeError there, not a session-reference error, so it carries no contract code.
type SurfaceError struct {
	Index int // the event's index in the surface
	Msg   string
}

// Error implements the error interface.
func (e *SurfaceError) Error() string {
	return fmt.Sprintf("session-reference surface event %d: %s", e.Index, e.Msg)
}

// Project returns the current-surface conversation of events (spec SR-PROJ-1..5): a
// user/message that is a compact checkpoint or has source kind "user", and every
// assistant/message, each as the "\n"-joined text of its text blocks, skipping empty texts;
// tool/result events and every other user/message are excluded.
func Project(events []any) ([]Item, error) {
	out := make([]Item, 0, len(events))
	for i, ev := range events {
		obj, ok := ev.(*jsjson.Object)
		if !ok {
			if ev == nil {
				return nil, &SurfaceError{i, "event is null"}
			}
			return nil, &SurfaceError{i, "unknown surface event type undefined"}
		}
		typ, _ := obj.Get("type")
		switch typ {
		case "user/message":
			data, err := field(obj, "data", i)
			if err != nil {
				return nil, err
			}
			src, err := field(data, "source", i)
			if err != nil {
				return nil, err
			}
			kind, _ := prop(src, "kind")
			checkpoint := kind == "plugin" && mustProp(src, "plugin") == "compact" // IsCompactCheckpoint
			if !checkpoint && kind != "user" {
				continue
			}
			content, _ := prop(data, "content")
			text, err := textContent(content, i)
			if err != nil {
				return nil, err
			}
			if text != "" {
				out = append(out, Item{Role: User, Text: text, Checkpoint: checkpoint})
			}
		case "assistant/message":
			data, err := field(obj, "data", i)
			if err != nil {
				return nil, err
			}
			msg, err := field(data, "message", i)
			if err != nil {
				return nil, err
			}
			content, _ := prop(msg, "content")
			text, err := textContent(content, i)
			if err != nil {
				return nil, err
			}
			if text != "" {
				out = append(out, Item{Role: Assistant, Text: text})
			}
		case "tool/result":
		default:
			return nil, &SurfaceError{i, "unknown surface event type " + describe(typ)}
		}
	}
	return out, nil
}

// IsCompactCheckpoint is dsh-compact's isCompactCheckpointSource: the message source is
// {kind: "plugin", plugin: "compact", …}.
func IsCompactCheckpoint(source any) bool {
	kind, _ := prop(source, "kind")
	if kind != "plugin" {
		return false
	}
	plugin, _ := prop(source, "plugin")
	return plugin == "compact"
}

// prop reads a property the way JavaScript does on a non-nullish value: objects have their
// keys, and every other value (strings, numbers, arrays …) has none that projection reads.
func prop(v any, key string) (any, bool) {
	if o, ok := v.(*jsjson.Object); ok {
		return o.Get(key)
	}
	return nil, false
}

// field reads key and fails as JavaScript does when the value is then used as an object:
// reading a property of undefined or null throws a TypeError.
func field(o any, key string, i int) (any, error) {
	v, ok := prop(o, key)
	if !ok || v == nil {
		return nil, &SurfaceError{i, fmt.Sprintf("cannot read properties of %s (%q missing)", nullish(ok), key)}
	}
	return v, nil
}

func nullish(present bool) string {
	if present {
		return "null"
	}
	return "undefined"
}

// textContent joins with "\n" the text of the blocks whose type is "text" and whose text is a
// string. content must be an array (flatMap); a null block throws, other non-objects are
// skipped.
func textContent(content any, i int) (string, error) {
	blocks, ok := content.([]any)
	if !ok {
		return "", &SurfaceError{i, "content is not an array"}
	}
	var parts []string
	for _, b := range blocks {
		if b == nil {
			return "", &SurfaceError{i, "content block is null"}
		}
		if t, _ := prop(b, "type"); t != "text" {
			continue
		}
		if s, ok := mustProp(b, "text").(string); ok {
			parts = append(parts, s)
		}
	}
	// No joining of surrogates can happen across "\n".
	return strings.Join(parts, "\n"), nil
}

func mustProp(v any, key string) any { x, _ := prop(v, key); return x }

func describe(v any) string {
	if v == nil {
		return "undefined"
	}
	b, err := jsjson.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}
