package refadapter

import (
	"math"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// The kit's codec (wire) and the reference's (jsjson, jsstring) are written apart so neither
// vouches for itself; here, the one package that sees both, they must agree on every input.

// wtf8 draws byte strings rich in what the two codecs could read differently: lone and split
// surrogates, invalid bytes, controls, quotes and backslashes, "<", non-ASCII widths.
func wtf8() *rapid.Generator[string] {
	pieces := []string{"a", "\"", "\\", "/", "<", "\x00", "\x1f", "\x7f", "\n", "é", "中", "😀", "\u2028", "\ufeff",
		"\xed\xa0\x80", "\xed\xa0\xbd", "\xed\xb8\x80", "\xed\xbf\xbf", "\xed\x9f\xbf", "\xff", "\xc3", "\xe4\xb8", "\xf0\x9f\x98",
		`\u`, `\ud800`, `\uDE00`, "0", "-", "1e", ".", "{", "}", "[", "]", ",", ":", " ", "\t", "true", "null"}
	return rapid.Custom(func(t *rapid.T) string {
		return strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 12).Draw(t, "pieces"), "")
	})
}

// wireAgreesOnString fails t unless the two codecs write, measure and convert s alike.
func wireAgreesOnString(t fataler, s string) {
	if got, want := wire.Quote(s), jsjson.Quote(s); got != want {
		t.Fatalf("Quote(%q) = %s, reference %s", s, got, want)
	}
	if got, want := wire.StringSize(s), jsjson.StringSize(s, false); got != want {
		t.Fatalf("StringSize(%q) = %d, reference %d", s, got, want)
	}
	if got, want := contract.TagSafeSize(s), jsjson.StringSize(s, true); got != want {
		t.Fatalf("TagSafeSize(%q) = %d, reference %d", s, got, want)
	}
	if got, want := wire.UTF16(s), jsstring.UTF16(s); !slices.Equal(got, want) {
		t.Fatalf("UTF16(%q) = %x, reference %x", s, got, want)
	}
	if got, want := wire.FromUTF16(jsstring.UTF16(s)), jsstring.FromUTF16(jsstring.UTF16(s)); got != want {
		t.Fatalf("FromUTF16 of %q = %q, reference %q", s, got, want)
	}
	if got, want := wire.Normalize(s), jsstring.Normalize(s); got != want {
		t.Fatalf("Normalize(%q) = %q, reference %q", s, got, want)
	}
	if got, want := wire.WellFormed(s), jsstring.WellFormed(s); got != want {
		t.Fatalf("WellFormed(%q) = %v, reference %v", s, got, want)
	}
	if got, want := wire.ToWellFormed(s), jsstring.ToWellFormed(s); got != want {
		t.Fatalf("ToWellFormed(%q) = %q, reference %q", s, got, want)
	}
	if got, want := wire.ByteLength(s), jsstring.ByteLength(s); got != want {
		t.Fatalf("ByteLength(%q) = %d, reference %d", s, got, want)
	}
	if got, want := wire.Concat(s, s), jsstring.Concat(s, s); got != want {
		t.Fatalf("Concat(%q, %q) = %q, reference %q", s, s, got, want)
	}
	if len(s) > 0 {
		r, n := wire.DecodeRune(s)
		rr, rn := jsstring.DecodeRune(s)
		if r != rr || n != rn {
			t.Fatalf("DecodeRune(%q) = %x %d, reference %x %d", s, r, n, rr, rn)
		}
	}
	var b wire.Builder
	var rb jsstring.Builder
	for _, u := range jsstring.UTF16(s) {
		b.WriteUnit(u)
		rb.WriteUnit(u)
	}
	b.WriteString(s)
	rb.WriteString(s)
	if b.String() != rb.String() || b.Len() != rb.Len() {
		t.Fatalf("Builder of %q = %q, reference %q", s, b.String(), rb.String())
	}
}

func TestWireAgreesWithReferenceStrings(t *testing.T) {
	check := wireAgreesOnString
	for _, s := range []string{"", "\xed\xa0\xbd\xed\xb8\x80", "\xed\xb8\x80\xed\xa0\xbd", "<\xed\xa0\x80>", "\xf4\x90\x80\x80", "\xc0\x80"} {
		check(t, s)
	}
	rapid.Check(t, func(t *rapid.T) { check(t, wtf8().Draw(t, "s")) })
}

// wireAgreesOnParse fails t unless the two codecs read text alike: both reject it at the same
// offset, or both read a value that each writes back the same.
func wireAgreesOnParse(t fataler, text string) {
	got, err := wire.Parse(text)
	want, rerr := jsjson.Parse(text)
	if (err == nil) != (rerr == nil) {
		t.Fatalf("Parse(%q): error %v, reference %v", text, err, rerr)
	}
	if err != nil {
		ws, rs := err.(*wire.SyntaxError), rerr.(*jsjson.SyntaxError)
		if ws.Offset != rs.Offset {
			t.Fatalf("Parse(%q): fault at %d (%s), reference %d (%s)", text, ws.Offset, ws.Msg, rs.Offset, rs.Msg)
		}
		return
	}
	gb, gerr := wire.Marshal(got)
	wb, werr := jsjson.Marshal(want)
	fb, _ := wire.Marshal(FromReference(want))
	rb, _ := jsjson.Marshal(ToReference(got))
	if gerr != nil || werr != nil || string(gb) != string(wb) || string(fb) != string(wb) || string(rb) != string(wb) {
		t.Fatalf("Parse(%q) then Marshal: %s, reference %s (crossed: %s, %s)", text, gb, wb, fb, rb)
	}
}

func TestWireAgreesWithReferenceParse(t *testing.T) {
	check := wireAgreesOnParse
	for _, text := range []string{`{"2":1,"b":[1e400,-0,0.1e-6],"a":{"1":"\ud800x","0":null},"2":"again"}`,
		`[1.7976931348623157e308,5e-324,123456789012345678901234567890]`, `"\u0000\u001F\u007f\u2028"`} {
		check(t, text)
	}
	rapid.Check(t, func(t *rapid.T) { check(t, wtf8().Draw(t, "text")) })
	rapid.Check(t, func(t *rapid.T) { check(t, `"`+wtf8().Draw(t, "inner")+`"`) })
	rapid.Check(t, func(t *rapid.T) { check(t, `[`+wtf8().Draw(t, "inner")+`]`) })
}

// fataler is what the checks need of a *testing.T or a *rapid.T.
type fataler interface{ Fatalf(string, ...any) }

func TestWireAgreesWithReferenceNumbers(t *testing.T) {
	check := func(t fataler, f float64) {
		if got, want := wire.NumberString(f), jsjson.NumberString(f); got != want {
			t.Fatalf("NumberString(%v) = %s, reference %s", f, got, want)
		}
		if got, want := string(wire.AppendNumber(nil, f)), string(jsjson.AppendNumber(nil, f)); got != want {
			t.Fatalf("AppendNumber(%v) = %s, reference %s", f, got, want)
		}
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1e21, 1e21 - 65536, 999999999999999900000, 1e-6, 1e-7, 1.5e-7,
		0.000001234, 5e-324, math.MaxFloat64, 1 << 53, 1<<53 + 2, 123e20, math.NaN(), math.Inf(1)} {
		check(t, f)
		check(t, -f)
	}
	rapid.Check(t, func(t *rapid.T) { check(t, math.Float64frombits(rapid.Uint64().Draw(t, "bits"))) })
	rapid.Check(t, func(t *rapid.T) {
		check(t, float64(rapid.Int64Range(-1<<60, 1<<60).Draw(t, "m"))*math.Pow(10, float64(rapid.IntRange(-30, 30).Draw(t, "e"))))
	})
}
