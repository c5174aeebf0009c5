package jsjson

import (
	"fmt"
	"strings"
	"testing"
)

// An Object keeps its keys in a list up to smallObject of them and adds an index past that:
// both forms behave alike (JavaScript's order, a key written again keeps its place and takes
// the last value, Clone is deep).
func TestObjectSmallAndLarge(t *testing.T) {
	for _, n := range []int{1, smallObject, smallObject + 1, 40} {
		o := NewObject()
		var want []string
		for i := range n {
			k := fmt.Sprintf("k%d", i)
			o.Set(k, float64(i))
			want = append(want, k)
		}
		o.Set("7", "seven").Set("k0", "again").Set("0", "zero")
		want = append([]string{"0", "7"}, want...)
		if got := o.Keys(); strings.Join(got, ",") != strings.Join(want, ",") || o.Len() != n+2 {
			t.Errorf("%d keys: Keys() = %v, want %v", n, got, want)
		}
		if v, ok := o.Get("k0"); !ok || v != "again" {
			t.Errorf("%d keys: k0 = %v %v", n, v, ok)
		}
		if _, ok := o.Get("missing"); ok {
			t.Errorf("%d keys: a missing key is present", n)
		}
		c := Clone(o).(*Object)
		c.Set("k0", "changed").Set("new", true)
		if v, _ := o.Get("k0"); v != "again" || o.Has("new") {
			t.Errorf("%d keys: Clone shares its keys with the original", n)
		}
		b, err := Marshal(o)
		if err != nil || !strings.HasPrefix(string(b), `{"0":"zero","7":"seven","k0":"again"`) {
			t.Errorf("%d keys: %s %v", n, b, err)
		}
	}
}
