package adapter

import (
	"fmt"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// valueSize is the length of the encoding, exactly, or past the limit once it is known to be.
func TestValueSize(t *testing.T) {
	o := wire.NewObject().Set("b", 1.5).Set("2", []any{nil, true, false, "é\u2028\"\\<"}).Set("a", "\xed\xa0\x80")
	for i := range 12 {
		o.Set(fmt.Sprintf("k%d", i), float64(-i)*1e21)
	}
	for _, v := range []any{nil, true, false, 0.0, -1e-7, 123456789.0, "", "x\x01\ud7ff", []any{}, wire.NewObject(), o, []any{o, o}} {
		b, err := wire.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if n := valueSize(v, 1<<20); n != len(b) {
			t.Errorf("valueSize(%s) = %d, want %d", b, n, len(b))
		}
		if n := valueSize(v, len(b)/2); len(b) > 8 && n <= len(b)/2 {
			t.Errorf("valueSize(%s) under limit %d = %d", b, len(b)/2, n)
		}
	}
}
