// Package compare decides whether two protocol responses agree, and says how they differ.
//
// Results agree when they are equal JSON values (object key order aside: JSON consumers do
// not see it; every string, the prompt's JSON text included, is compared byte for byte).
// Errors agree when their codes are equal, a null code matching only null; messages are
// implementation-defined and ignored; any other error key (a failed prepare's reads) must be
// equal too. A prepare's reads, in its result or its error, are compared as a multiset: the
// reads run concurrently, and the order they reach the session query is not part of the
// contract (spec SR-PREP-6), while reading every distinct source once is.
//
// This is the kit's one agreement rule and its one diff (Explain): the runner's parts, diff,
// bench and every report take both from here.
package compare

import (
	"math"
	"reflect"
	"slices"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Plain converts a JSON value to comparable Go values: objects become map[string]any. A
// number that is not finite (an in-process ±Infinity, or a wire.Number such as 1e400 that
// reads as one) becomes nil: JSON cannot carry it, and JSON.stringify writes it null, so an
// adapter answers null where the in-process reference holds Infinity.
func Plain(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
	case wire.Number:
		if f, err := x.Float64(); err == nil && (math.IsInf(f, 0) || math.IsNaN(f)) {
			return nil
		}
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

// Agree reports whether got agrees with want: the kit's one agreement rule (see the package
// documentation).
func Agree(want, got protocol.Response) bool {
	return sameOutcome(OutcomeOf(want), OutcomeOf(got))
}

// Diff returns "" when want and got agree, else how they differ as Explain says it (the
// first difference by JSON path, then the line diff, "- " want and "+ " got).
func Diff(want, got protocol.Response) string { return Explain(want, got).String() }

// sameOutcome reports whether a and b are equal outcomes: the same dynamic types, nil slices
// and maps equal only to nil ones, numbers by ==.
func sameOutcome(a, b Outcome) bool {
	if a.OK != b.OK || (a.Code == nil) != (b.Code == nil) || (a.Code != nil && *a.Code != *b.Code) {
		return false
	}
	if (a.Extra == nil) != (b.Extra == nil) || !samePlainMap(a.Extra, b.Extra) {
		return false
	}
	return samePlain(a.Result, b.Result)
}

// samePlain reports whether two plain JSON values (Plain's) are equal: the same dynamic type,
// nil slices and maps equal only to nil ones, numbers by ==, a wire.Number by its text.
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
	case wire.Number:
		y, ok := b.(wire.Number)
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
	// Not a JSON value (an in-process handler's own type): equal as Go values.
	return reflect.DeepEqual(a, b)
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
