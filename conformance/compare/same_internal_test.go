package compare

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSameOutcomeIsCmpEqual: Diff's shortcut says "same" exactly when cmp.Equal does, on the
// values where they could part: nil against empty, -0 against 0, NaN, other number types,
// missing keys, nesting.
func TestSameOutcomeIsCmpEqual(t *testing.T) {
	code := func(s string) *string { return &s }
	values := []any{
		nil, "", "a", 0.0, math.Copysign(0, -1), 1.0, math.NaN(), 1, int64(1), true, false,
		[]any(nil), []any{}, []any{"a"}, []any{"a", 1.0}, []any{1.0, "a"}, []any{[]any{}},
		map[string]any(nil), map[string]any{}, map[string]any{"a": 1.0}, map[string]any{"a": 1},
		map[string]any{"a": nil}, map[string]any{"b": nil}, map[string]any{"a": []any{map[string]any{}}},
		struct{}{},
	}
	// plain: the values OutcomeOf makes, for which the shortcut must find equal values the
	// same; for the others (ints, structs) it may leave the answer to cmp.
	var plain func(v any) bool
	plain = func(v any) bool {
		switch x := v.(type) {
		case int, int64, struct{}:
			return false
		case []any:
			for _, e := range x {
				if !plain(e) {
					return false
				}
			}
		case map[string]any:
			for _, e := range x {
				if !plain(e) {
					return false
				}
			}
		}
		return true
	}
	var outcomes []Outcome
	for _, v := range values {
		outcomes = append(outcomes, Outcome{OK: true, Result: v})
	}
	for _, c := range []*string{nil, code("null"), code("X")} {
		for _, e := range []map[string]any{nil, {}, {"reads": []any{"a"}}, {"reads": []any{}}, {"lists": 1.0}, {"lists": 1}} {
			outcomes = append(outcomes, Outcome{Code: c, Extra: e})
		}
	}
	for _, a := range outcomes {
		for _, b := range outcomes {
			same, equal := sameOutcome(a, b), cmp.Equal(a, b)
			if same && !equal {
				t.Errorf("sameOutcome(%v, %v), but cmp.Equal says they differ", a, b)
			}
			if equal && !same && plain(a.Result) && plain(a.Extra) {
				t.Errorf("cmp.Equal(%v, %v), but sameOutcome says no", a, b)
			}
		}
	}
}
