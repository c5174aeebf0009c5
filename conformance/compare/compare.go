// Package compare decides whether two protocol responses agree, and says how they differ.
//
// Results agree when they are equal JSON values (object key order aside: JSON consumers do
// not see it; every string, the prompt's JSON text included, is compared byte for byte).
// Errors agree when their codes are equal, a null code matching only null; messages are
// implementation-defined and ignored; any other error key (a failed prepare's reads) must be
// equal too. A prepare's reads, in its result or its error, are compared as a multiset: the
// reads run concurrently, and the order they reach the session query is not part of the
// contract (spec SR-PREP-6), while reading every distinct source once is.
package compare

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Plain converts a JSON value to comparable Go values: objects become map[string]any.
func Plain(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Plain(e)
		}
		return out
	case *wire.Object:
		out := make(map[string]any, x.Len())
		for _, k := range x.Keys() {
			e, _ := x.Get(k)
			out[k] = Plain(e)
		}
		return out
	}
	return v
}

// SortedStrings returns a copy of a JSON array with its string elements sorted (other values
// are returned unchanged).
func SortedStrings(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return v
		}
		out = append(out, s)
	}
	slices.Sort(out)
	sorted := make([]any, len(out))
	for i, s := range out {
		sorted[i] = s
	}
	return sorted
}

// sortReads orders the "reads" of a plain result or error object.
func sortReads(m map[string]any) {
	if r, ok := m["reads"]; ok {
		m["reads"] = SortedStrings(r)
	}
}

// Outcome is the comparable part of a response.
type Outcome struct {
	OK     bool
	Result any            `json:",omitempty"`
	Code   *string        `json:",omitempty"`
	Extra  map[string]any `json:",omitempty"`
}

// OutcomeOf returns the comparable part of r.
func OutcomeOf(r protocol.Response) Outcome {
	if r.OK {
		res := Plain(r.Result)
		if m, ok := res.(map[string]any); ok {
			sortReads(m)
		}
		return Outcome{OK: true, Result: res}
	}
	o := Outcome{}
	code := "null"
	if r.Err != nil {
		if r.Err.Code != "" {
			code = r.Err.Code
		}
		if r.Err.Extra.Len() > 0 {
			o.Extra = Plain(r.Err.Extra).(map[string]any)
			sortReads(o.Extra)
		}
	}
	o.Code = &code
	return o
}

// Diff returns "" when want and got agree, else a go-cmp diff (-want +got). Outcomes too large
// for a structural diff (LargeDiff bytes of JSON between them) get a window around their first
// difference instead: go-cmp's diff of a megabyte string costs seconds, and a report keeps
// only a few kilobytes of it.
func Diff(want, got protocol.Response) string {
	w, g := OutcomeOf(want), OutcomeOf(got)
	if sameOutcome(w, g) {
		return "" // what cmp.Diff returns, without building its report (most checks pass)
	}
	// (Equal texts for different outcomes: strings that differ only in bytes that are not
	// UTF-8, which the JSON writes alike; cmp tells them apart.)
	if wt, gt := canonical(nil, w), canonical(nil, g); len(wt)+len(gt) > LargeDiff && !bytes.Equal(wt, gt) {
		return windowDiff(wt, gt)
	}
	return cmp.Diff(w, g)
}

// LargeDiff is the size of two outcomes' JSON above which Diff shows a window, not a
// structural diff.
const LargeDiff = 256 << 10

// windowDiff shows where two different texts first differ, with some context on each side.
func windowDiff(want, got []byte) string {
	const context = 120
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	// Start on a character boundary: the texts are UTF-8 (canonical writes them so).
	start := max(0, i-context)
	for start > 0 && start < len(want) && want[start]&0xC0 == 0x80 {
		start--
	}
	window := func(b []byte) string {
		end := min(len(b), i+context)
		for end < len(b) && b[end]&0xC0 == 0x80 {
			end++
		}
		out := string(b[start:end])
		if start > 0 {
			out = "…" + out
		}
		if end < len(b) {
			out += "…"
		}
		return out
	}
	return fmt.Sprintf("outcomes of %d and %d bytes of JSON differ first at byte %d (-want +got):\n- %s\n+ %s\n",
		len(want), len(got), i, window(want), window(got))
}

// canonical appends the JSON of an outcome with object keys sorted, so that two outcomes
// that Diff tells apart differ in their texts too (key order is not part of the contract).
func canonical(dst []byte, o Outcome) []byte {
	m := map[string]any{"ok": o.OK}
	if o.OK {
		m["result"] = o.Result
	}
	if o.Code != nil {
		m["code"] = *o.Code
	}
	if o.Extra != nil {
		m["extra"] = o.Extra
	}
	return appendPlain(dst, m)
}

func appendPlain(dst []byte, v any) []byte {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(wire.AppendString(dst, k), ':')
			dst = appendPlain(dst, x[k])
		}
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendPlain(dst, e)
		}
		return append(dst, ']')
	}
	b, err := wire.Append(dst, v)
	if err != nil {
		return fmt.Appendf(dst, "%v", v) // not a JSON value: shown as Go prints it
	}
	return b
}

// sameOutcome reports whether a and b are equal as cmp.Equal sees them. It knows only the
// plain JSON values OutcomeOf makes and says false for anything else: false sends Diff to
// cmp, which decides.
func sameOutcome(a, b Outcome) bool {
	if a.OK != b.OK || (a.Code == nil) != (b.Code == nil) || (a.Code != nil && *a.Code != *b.Code) {
		return false
	}
	if (a.Extra == nil) != (b.Extra == nil) || !samePlainMap(a.Extra, b.Extra) {
		return false
	}
	return samePlain(a.Result, b.Result)
}

// samePlain reports whether two plain JSON values are equal for cmp.Equal: the same dynamic
// type, nil slices and maps equal only to nil ones, numbers by ==.
func samePlain(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !samePlain(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && (x == nil) == (y == nil) && samePlainMap(x, y)
	}
	return false
}

func samePlainMap(x, y map[string]any) bool {
	if len(x) != len(y) {
		return false
	}
	for k, v := range x {
		w, ok := y[k]
		if !ok || !samePlain(v, w) {
			return false
		}
	}
	return true
}
