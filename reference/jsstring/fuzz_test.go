package jsstring_test

import (
	"slices"
	"strings"
	"testing"

	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// splitAt cuts data into pieces at the offsets in cuts (each taken modulo len(data)+1).
func splitAt(data string, cuts []byte) []string {
	var offs []int
	for _, c := range cuts {
		offs = append(offs, int(c)%(len(data)+1))
	}
	slices.Sort(offs)
	var pieces []string
	prev := 0
	for _, o := range offs {
		pieces = append(pieces, data[prev:o])
		prev = o
	}
	return append(pieces, data[prev:])
}

// FuzzBuilder checks that a Builder fed arbitrary pieces — cut anywhere, even inside a
// surrogate's bytes or between the halves of a pair — holds canonical WTF-8 whose code units
// are the pieces' code units one after another, as JavaScript concatenation gives.
func FuzzBuilder(f *testing.F) {
	f.Add("\xed\xa0\x81\xed\xb0\x80", []byte{3})
	f.Add("a\xed\xa0\x81b\xed\xb0\x80", []byte{4, 5})
	f.Add("\xed\xa0\x80\xed\xa0\x81\xed\xb0\x80\xed\xb0\x80", []byte{3, 6, 9})
	f.Add("Σ\U00010400\xff\xed\xa0", []byte{1, 2, 7})
	f.Add("", []byte{})
	f.Fuzz(func(t *testing.T, data string, cuts []byte) {
		pieces := splitAt(data, cuts)
		var b js.Builder
		var units []uint16
		for _, p := range pieces {
			b.WriteString(p)
			units = append(units, js.UTF16(p)...)
		}
		got := b.String()
		if !js.Canonical(got) {
			t.Fatalf("Builder of %q = %q is not canonical", pieces, got)
		}
		if u := js.UTF16(got); !slices.Equal(u, units) {
			t.Fatalf("UTF16(Builder of %q) = %04X; want %04X", pieces, u, units)
		}
		if b.Len() != len(got) {
			t.Fatalf("Len = %d; want %d", b.Len(), len(got))
		}
		if c := js.Concat(pieces...); c != got {
			t.Fatalf("Concat(%q) = %q; Builder gave %q", pieces, c, got)
		}
		if n := js.Normalize(strings.Join(pieces, "")); !slices.ContainsFunc(pieces, hasBadByte) && n != got {
			t.Fatalf("Normalize(join) = %q; Builder gave %q", n, got)
		}
		var ub js.Builder
		for _, c := range units {
			ub.WriteUnit(c)
		}
		if ub.String() != got || js.FromUTF16(units) != got {
			t.Fatalf("unit by unit = %q, FromUTF16 = %q; WriteString gave %q", ub.String(), js.FromUTF16(units), got)
		}
	})
}
