// Package compare decides whether two protocol responses agree, and says how they differ.
//
// Results agree when they are equal JSON values (object key order aside: JSON consumers do
// not see it; every string, the prompt's JSON text included, is compared byte for byte).
// Errors agree when their codes are equal, a null code matching only null; messages are
// implementation-defined and ignored; any other error key (a failed prepare's reads) must be
// equal too.
package compare

import (
	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
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
	case *jsjson.Object:
		out := make(map[string]any, x.Len())
		for _, k := range x.Keys() {
			e, _ := x.Get(k)
			out[k] = Plain(e)
		}
		return out
	}
	return v
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
		return Outcome{OK: true, Result: Plain(r.Result)}
	}
	o := Outcome{}
	code := "null"
	if r.Err != nil {
		if r.Err.Code != "" {
			code = r.Err.Code
		}
		if r.Err.Extra.Len() > 0 {
			o.Extra = Plain(r.Err.Extra).(map[string]any)
		}
	}
	o.Code = &code
	return o
}

// Diff returns "" when want and got agree, else a go-cmp diff (-want +got).
func Diff(want, got protocol.Response) string {
	return cmp.Diff(OutcomeOf(want), OutcomeOf(got))
}
