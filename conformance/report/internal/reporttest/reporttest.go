// Package reporttest builds the cases the report package's tests render, from the lines a
// run would have exchanged, so its internal and external tests share one builder.
package reporttest

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Exchange returns c with the request and answers of a check made from their lines, and the
// diff of the answers as compare explains it (when both are responses).
func Exchange(c result.Case, input, want, got string) result.Case {
	c.Input, c.Want, c.Got = Value(input), Value(want), Value(got)
	w, errW := protocol.ParseResponse(want)
	g, errG := protocol.ParseResponse(got)
	if errW == nil && errG == nil {
		c.Diff = compare.Explain(w, g)
	}
	return c
}

// Value is a line as a case keeps it: JSON, or text when it is not JSON.
func Value(s string) result.Value {
	if _, err := wire.Parse(s); err == nil {
		return result.Line([]byte(s))
	}
	return result.Value{Text: s}
}
