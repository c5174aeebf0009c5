package report

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// ResponseDiff says how got differs from want as every report does (Diff): the first
// difference by JSON path, then a line diff of both as canonical JSON ("- " want, "+ " got),
// readable by the author of a port in any language, where compare.Diff's is Go syntax
// (compare.Outcome{OK: …}). Whether they differ is compare's decision; "" when they agree.
// diff and bench print it.
func ResponseDiff(want, got protocol.Response) string {
	if compare.Diff(want, got) == "" {
		return ""
	}
	lw, errW := want.Line()
	lg, errG := got.Line()
	if errW == nil && errG == nil {
		if d, ok := Diff(string(lw), string(lg)); ok {
			return "first difference: " + d.First + "\n" + d.Lines
		}
	}
	// Outcomes that differ only where JSON writes them alike (bytes that are not UTF-8).
	return compare.Diff(want, got)
}
