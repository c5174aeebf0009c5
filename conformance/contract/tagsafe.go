package contract

import (
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// AppendTagSafe appends the tag-safe JSON of a string to dst: JSON.stringify(s) with every
// "<" written as \u003c and nothing else changed (SR-PROMPT-2), the form every string of a
// snapshot takes between the framing tags and the one whose bytes the budget counts
// (SR-RET-1). JSON.stringify writes "<" only as itself, so replacing it in the JSON text is
// the whole rule.
func AppendTagSafe(dst []byte, s string) []byte {
	return append(dst, strings.ReplaceAll(wire.Quote(s), "<", `\u003c`)...)
}

// TagSafeSize returns the length of the tag-safe JSON of s: what a string costs in the bytes
// a source's budget counts (SR-RET-1).
func TagSafeSize(s string) int { return wire.StringSize(s) + 5*strings.Count(s, "<") }
