package wire_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

var tenth = 0.1 // a variable: constant arithmetic would be exact

// What JSON.stringify writes, as Node 22 prints it.
func TestMarshal(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, `null`},
		{true, `true`},
		{0.0, `0`},
		{math.Copysign(0, -1), `0`},
		{1.5, `1.5`},
		{1e21, `1e+21`},
		{123456789012345680000.0, `123456789012345680000`},
		{1e-6, `0.000001`},
		{1e-7, `1e-7`},
		{-1.5e-7, `-1.5e-7`},
		{tenth + 2*tenth, `0.30000000000000004`},
		{float64(1<<53 - 1), `9007199254740991`},
		{math.NaN(), `null`},
		{math.Inf(-1), `null`},
		{3, `3`},
		{wire.Number("2.0"), `2.0`},
		{wire.Number("-0"), `-0`},
		{"", `""`},
		{"a\"\\/\b\f\n\r\t\x00\x1f\x7f", `"a\"\\/\b\f\n\r\t\u0000\u001f` + "\x7f" + `"`},
		{"<>&\u2028\u2029é😀", `"<>&` + "\u2028\u2029é😀" + `"`},
		{"\xed\xa0\x80", `"\ud800"`},
		{"\xed\xbf\xbfx", `"\udfffx"`},
		{"\xed\xa0\xbd\xed\xb8\x80", `"😀"`}, // a pair split in two three-byte forms is one code point
		{"\xff", `"` + "\uFFFD" + `"`},
		{[]any{}, `[]`},
		{[]any{1.0, "x", nil, []any{false}}, `[1,"x",null,[false]]`},
		{wire.NewObject(), `{}`},
		{wire.NewObject().Set("b", 1.0).Set("a", 2.0).Set("b", 3.0), `{"b":3,"a":2}`},
		{wire.NewObject().Set("x", 1.0).Set("10", 2.0).Set("2", 3.0).Set("01", 4.0).Set("4294967295", 5.0), `{"2":3,"10":2,"x":1,"01":4,"4294967295":5}`},
	} {
		got, err := wire.Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("Marshal(%#v) = %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	for _, bad := range []any{int64(1), map[string]any{}, wire.Number("1."), struct{}{}} {
		if _, err := wire.Marshal(bad); err == nil {
			t.Errorf("Marshal(%#v) accepted", bad)
		}
	}
}

func TestNumberString(t *testing.T) {
	for f, want := range map[float64]string{math.NaN(): "NaN", math.Inf(1): "Infinity", math.Inf(-1): "-Infinity", -2: "-2", 5e-324: "5e-324", math.MaxFloat64: "1.7976931348623157e+308"} {
		if got := wire.NumberString(f); got != want {
			t.Errorf("NumberString(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestStringSize(t *testing.T) {
	for _, s := range []string{"", "<a>\xed\xa0\x80\n", "\xff\"😀"} {
		if wire.StringSize(s) != len(wire.Quote(s)) {
			t.Errorf("StringSize(%q) = %d, Quote is %d bytes", s, wire.StringSize(s), len(wire.Quote(s)))
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		text string
		want any
	}{
		{` null `, nil},
		{"\t\r\n[true,false]", []any{true, false}},
		{`-0`, math.Copysign(0, -1)},
		{`1E400`, math.Inf(1)},
		{`-1e400`, math.Inf(-1)},
		{`1e-400`, 0.0},
		{`0.5e+1`, 5.0},
		{`"\ud800"`, "\xed\xa0\x80"},
		{`"\uD83D\uDE00"`, "😀"},
		{`"\ud83d` + "\xed\xb8\x80" + `"`, "😀"}, // an escaped high and a raw low surrogate make a pair
		{`"\u00e9\/\b"`, "é/\b"},
		{`"` + "\xed\xa0\x80" + `"`, "\xed\xa0\x80"},
		{`{"a":1,"a":2,"1":0}`, wire.NewObject().Set("1", 0.0).Set("a", 2.0)},
	} {
		got, err := wire.Parse(c.text)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.text, err)
			continue
		}
		if d := cmp.Diff(c.want, got, cmp.Comparer(sameObject), cmp.Comparer(sameFloat)); d != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", c.text, d)
		}
	}
}

// sameObject compares objects as JSON.stringify writes them, their key order included.
func sameObject(a, b *wire.Object) bool {
	x, _ := wire.Marshal(a)
	y, _ := wire.Marshal(b)
	return string(x) == string(y)
}

func sameFloat(a, b float64) bool { return a == b && math.Signbit(a) == math.Signbit(b) }

func TestParseRejects(t *testing.T) {
	for text, offset := range map[string]int{
		``: 0, ` `: 1, `01`: 1, `1.`: 2, `.5`: 0, `1e`: 2, `+1`: 0, `-`: 1, `[1,]`: 3, `{"a":1,}`: 7,
		`{'a':1}`: 1, `{"a" 1}`: 5, `[1 2]`: 3, `"a`: 2, "\"\x01\"": 1, `"\x"`: 1, `"\u12"`: 3,
		`"\u12G4"`: 3, "\"\xff\"": 1, `nul`: 0, `true false`: 5, `/*c*/1`: 0, "\u00a01": 0,
		`NaN`: 0, `Infinity`: 0, `[`: 1, `{"a":`: 5,
	} {
		_, err := wire.Parse(text)
		var se *wire.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a SyntaxError", text, err)
			continue
		}
		if se.Offset != offset {
			t.Errorf("Parse(%q): offset %d, want %d (%v)", text, se.Offset, offset, err)
		}
	}
	deep := strings.Repeat("[", wire.MaxDepth) + strings.Repeat("]", wire.MaxDepth)
	if _, err := wire.Parse(deep); err != nil {
		t.Errorf("nesting of MaxDepth: %v", err)
	}
	if _, err := wire.Parse("[" + deep + "]"); err == nil {
		t.Error("nesting past MaxDepth accepted")
	}
}

func TestStrings(t *testing.T) {
	lone, pair := "\xed\xa0\x80", "😀"
	split := "\xed\xa0\xbd\xed\xb8\x80" // the pair of 😀 as two three-byte forms
	if got := wire.UTF16(lone + pair + "é\xff"); !cmp.Equal(got, []uint16{0xD800, 0xD83D, 0xDE00, 0xE9, 0xFFFD}) {
		t.Errorf("UTF16 = %x", got)
	}
	if got := wire.FromUTF16([]uint16{0xD83D, 0xDE00, 0xDC00, 'a'}); got != pair+"\xed\xb0\x80a" {
		t.Errorf("FromUTF16 = %q", got)
	}
	if wire.Normalize(split) != pair || wire.Normalize("a\xff") != "a\uFFFD" || wire.Normalize(lone) != lone {
		t.Error("Normalize")
	}
	for s, want := range map[string]bool{"": true, pair: true, split: true, lone: false, "\xed\xb8\x80" + "\xed\xa0\xbd": false, "\xff": false} {
		if wire.WellFormed(s) != want {
			t.Errorf("WellFormed(%q) = %v", s, !want)
		}
	}
	if got := wire.ToWellFormed("a" + lone + split); got != "a\uFFFD"+pair {
		t.Errorf("ToWellFormed = %q", got)
	}
	if wire.ByteLength(lone+"é") != 5 || wire.ByteLength(split) != 4 {
		t.Error("ByteLength")
	}
	if got := wire.Concat("x\xed\xa0\xbd", "\xed\xb8\x80y"); got != "x"+pair+"y" {
		t.Errorf("Concat = %q", got)
	}
	var b wire.Builder
	b.WriteUnit(0xD83D)
	b.WriteRune(0xDE00)
	b.WriteString("\xed\xb0\x80")
	if b.String() != pair+"\xed\xb0\x80" || b.Len() != 7 {
		t.Errorf("Builder = %q (%d bytes)", b.String(), b.Len())
	}
	if r, n := wire.DecodeRune(lone); r != 0xD800 || n != 3 {
		t.Errorf("DecodeRune(lone) = %x, %d", r, n)
	}
	if r, n := wire.DecodeRune("\xed\x9f\xbf"); r != 0xD7FF || n != 3 {
		t.Errorf("DecodeRune(U+D7FF) = %x, %d", r, n)
	}
}

func TestObject(t *testing.T) {
	o := wire.NewObject()
	for i := range 20 {
		o.Set(string(rune('a'+i)), float64(i))
	}
	o.Set("c", "again")
	if v, ok := o.Get("c"); !ok || v != "again" || o.Len() != 20 || !o.Has("t") || o.Has("u") {
		t.Errorf("Get(c) = %v, %v; Len %d", v, ok, o.Len())
	}
	c := wire.Clone(o).(*wire.Object)
	c.Set("a", "changed")
	if v, _ := o.Get("a"); v != 0.0 {
		t.Error("Clone shares the object")
	}
	var nilObj *wire.Object
	if nilObj.Len() != 0 || nilObj.Has("x") || nilObj.Keys() != nil {
		t.Error("a nil Object is not empty")
	}
	p := wire.Plain([]any{wire.Number("1e1"), wire.NewObject().Set("n", wire.Number("-0"))}).([]any)
	if p[0] != 10.0 {
		t.Errorf("Plain = %v", p)
	}
	if n, _ := p[1].(*wire.Object).Get("n"); !sameFloat(n.(float64), math.Copysign(0, -1)) {
		t.Errorf("Plain(-0) = %v", n)
	}
}

// TestAllMatchesKeys: All yields exactly Keys, in order, with Get's values, and stops when
// asked to.
func TestAllMatchesKeys(t *testing.T) {
	o := wire.NewObject()
	for _, k := range []string{"z", "7", "a", "0", "x", "4294967295", "01", "3"} {
		o.Set(k, k+"!")
	}
	var got []string
	for k, v := range o.All() {
		if want, _ := o.Get(k); v != want {
			t.Errorf("All: %q = %v, Get %v", k, v, want)
		}
		got = append(got, k)
	}
	if !slices.Equal(got, o.Keys()) {
		t.Errorf("All keys %q, Keys %q", got, o.Keys())
	}
	n := 0
	for range o.All() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("All yielded %d after break", n)
	}
	for range (*wire.Object)(nil).All() {
		t.Error("nil object yielded")
	}
}

// TestKeepOrder: an object marked KeepOrder is written with its keys in the order set (for a
// parsed one, the text's), nested objects included; its value is the one JSON.parse reads
// back; Clone and Plain keep the mark; an unmarked object is written in property order.
func TestKeepOrder(t *testing.T) {
	const text = `{"b":1,"1":{"y":2,"4294967295":3,"4294967294":4},"-1":[{"01":5,"0":6}],"a":7}`
	v, err := wire.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*wire.Object)
	if got, want := o.KeysAsSet(), []string{"b", "1", "-1", "a"}; !slices.Equal(got, want) {
		t.Errorf("KeysAsSet = %q, want %q", got, want)
	}
	const js = `{"1":{"4294967294":4,"y":2,"4294967295":3},"b":1,"-1":[{"0":6,"01":5}],"a":7}` // Node 20
	if b, _ := wire.Marshal(o); string(b) != js {
		t.Errorf("unmarked: %s, want %s", b, js)
	}
	if o.KeepsOrder() {
		t.Error("a parsed object is marked")
	}
	wire.KeepOrder(o)
	for _, w := range []any{o, wire.Clone(o), wire.Plain(o)} {
		b, _ := wire.Marshal(w)
		if string(b) != text {
			t.Errorf("marked: %s, want %s", b, text)
		}
		back, _ := wire.Parse(string(b))
		if b2, _ := wire.Marshal(back); string(b2) != js {
			t.Errorf("JSON.parse of the marked text writes %s, want %s", b2, js)
		}
	}
	if !slices.Equal(o.Keys(), []string{"1", "b", "-1", "a"}) {
		t.Errorf("Keys of a marked object = %q", o.Keys())
	}
	if (*wire.Object)(nil).KeepsOrder() || wire.KeepOrder(nil) != nil {
		t.Error("nil")
	}
	if b, _ := wire.Marshal(wire.KeepOrder((*wire.Object)(nil))); string(b) != "{}" {
		t.Errorf("nil marked object: %s", b)
	}
}

func TestParseLimited(t *testing.T) {
	for _, c := range []struct {
		text string
		max  int
		ok   bool
	}{
		{`{"a":[1,"x",null],"b":{}}`, 6, true},
		{`{"a":[1,"x",null],"b":{}}`, 5, false},
		{`[[[]]]`, 3, true},
		{`[[[]]]`, 2, false},
		{`{"a":1,"a":2}`, 3, true}, // a repeated key's values are both read
		{`{"a":1,"a":2}`, 2, false},
	} {
		v, err := wire.ParseLimited(c.text, c.max)
		var le *wire.LimitError
		if c.ok {
			if err != nil {
				t.Errorf("ParseLimited(%s, %d) = %v", c.text, c.max, err)
			}
			continue
		}
		if !errors.As(err, &le) || le.Limit != c.max || v != nil {
			t.Errorf("ParseLimited(%s, %d) = %v, %v; want a LimitError of %d", c.text, c.max, v, err, c.max)
		}
	}
}

func TestManyKeysObjectMatchesSet(t *testing.T) {
	// Past scanKeys the parser builds the index at once; a repeated key keeps its first
	// place and its last value, as Set gives.
	text := `{"b":0,"a":1,"c":2,"d":3,"e":4,"f":5,"g":6,"h":7,"i":8,"j":9,"a":10,"1":11}`
	v, err := wire.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	want := wire.NewObject()
	for _, kv := range [][2]any{{"b", 0}, {"a", 1}, {"c", 2}, {"d", 3}, {"e", 4}, {"f", 5}, {"g", 6}, {"h", 7}, {"i", 8}, {"j", 9}, {"a", 10}, {"1", 11}} {
		want.Set(kv[0].(string), float64(kv[1].(int)))
	}
	got, _ := wire.Marshal(v)
	exp, _ := wire.Marshal(want)
	if string(got) != string(exp) {
		t.Fatalf("Parse = %s, want %s", got, exp)
	}
	if a, _ := v.(*wire.Object).Get("a"); a != 10.0 {
		t.Fatalf(`Get("a") = %v, want 10`, a)
	}
}
