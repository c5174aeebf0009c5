package jsjson_test

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

const (
	hiD800 = "\xed\xa0\x80"
	hiD801 = "\xed\xa0\x81"
	hiDBFF = "\xed\xaf\xbf"
	loDC00 = "\xed\xb0\x80"
	loDFFF = "\xed\xbf\xbf"
	u10400 = "\U00010400"
)

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"abc", `"abc"`},
		{`"`, `"\""`},
		{`\`, `"\\"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"/", `"/"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00", `"\u0000"`},
		{"\x01\x0b\x1a\x1f", `"\u0001\u000b\u001a\u001f"`},
		{"\x7f", "\"\x7f\""},
		{" ", `" "`},
		{"<script>&'", `"<script>&'"`},
		{"\u2028\u2029", "\"\u2028\u2029\""},
		{"\uFEFFx", "\"\uFEFFx\""},
		{"\u0085\u00A0é", "\"\u0085\u00A0é\""},
		{"\uFFFD\uFFFF", "\"\uFFFD\uFFFF\""},
		{u10400, "\"" + u10400 + "\""},
		{"\U0010FFFF", "\"\U0010FFFF\""},
		{hiD800, `"\ud800"`},
		{hiDBFF, `"\udbff"`},
		{loDC00, `"\udc00"`},
		{loDFFF, `"\udfff"`},
		{loDC00 + hiD800, `"\udc00\ud800"`},
		{hiD800 + hiD801 + "x", `"\ud800\ud801x"`},
		{hiD801 + loDC00, "\"" + u10400 + "\""}, // a split pair is one pair
		{hiD800 + hiD801 + loDC00 + loDC00, "\"\\ud800" + u10400 + "\\udc00\""},
		{"a\xffb", "\"a\uFFFDb\""},
		{"\xed\xa0", "\"\uFFFD\uFFFD\""},
		{"\xc0\x80", "\"\uFFFD\uFFFD\""},
	}
	for _, tc := range tests {
		if got := jsjson.Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %q; want %q", tc.in, got, tc.want)
		}
		if got := string(jsjson.AppendString([]byte("x"), tc.in)); got != "x"+tc.want {
			t.Errorf("AppendString(x, %q) = %q", tc.in, got)
		}
		if n := jsjson.StringSize(tc.in, false); n != len(tc.want) {
			t.Errorf("StringSize(%q, false) = %d; want %d", tc.in, n, len(tc.want))
		}
		safe := strings.ReplaceAll(tc.want, "<", `\u003c`)
		if got := string(jsjson.AppendStringTagSafe(nil, tc.in)); got != safe {
			t.Errorf("AppendStringTagSafe(%q) = %q; want %q", tc.in, got, safe)
		}
		if n := jsjson.StringSize(tc.in, true); n != len(safe) {
			t.Errorf("StringSize(%q, true) = %d; want %d", tc.in, n, len(safe))
		}
	}
	if got := string(jsjson.AppendStringTagSafe(nil, "</script><!--")); got != `"\u003c/script>\u003c!--"` {
		t.Errorf("AppendStringTagSafe = %s", got)
	}
}

func TestNumberString(t *testing.T) {
	tests := []struct {
		f    float64
		want string // Number.prototype.toString; JSON.stringify differs only for NaN/±Infinity
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1, "-1"},
		{0.1, "0.1"},
		{pointOne + pointTwo, "0.30000000000000004"},
		{-0.5, "-0.5"},
		{123.456, "123.456"},
		{4.35, "4.35"},
		{1e21, "1e+21"},
		{-1e21, "-1e+21"},
		{1e20, "100000000000000000000"},
		{999999999999999900000, "999999999999999900000"},
		{123e18, "123000000000000000000"},
		{1.5e21, "1.5e+21"},
		{1e-6, "0.000001"},
		{1.234e-6, "0.000001234"},
		{1e-7, "1e-7"},
		{-1e-7, "-1e-7"},
		{1.5e-7, "1.5e-7"},
		{1.234e-7, "1.234e-7"},
		{5e-324, "5e-324"},
		{-5e-324, "-5e-324"},
		{2.2250738585072014e-308, "2.2250738585072014e-308"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{1e300, "1e+300"},
		{1e308, "1e+308"},
		{1 << 53, "9007199254740992"},
		{1<<53 + 2, "9007199254740994"},
		{-(1<<53 - 1), "-9007199254740991"},
		{1 << 64, "18446744073709552000"},
		{1 << 63, "9223372036854776000"},
		{0.000001, "0.000001"},
		{1e15 + 0.3, "1000000000000000.2"},
		{100, "100"},
		{1e100, "1e+100"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	for _, tc := range tests {
		if got := jsjson.NumberString(tc.f); got != tc.want {
			t.Errorf("NumberString(%v) = %q; want %q", tc.f, got, tc.want)
		}
		if got := string(jsjson.AppendNumberString([]byte("x"), tc.f)); got != "x"+tc.want {
			t.Errorf("AppendNumberString(x, %v) = %q", tc.f, got)
		}
		want := tc.want
		if math.IsNaN(tc.f) || math.IsInf(tc.f, 0) {
			want = "null"
		}
		if got := string(jsjson.AppendNumber(nil, tc.f)); got != want {
			t.Errorf("AppendNumber(%v) = %q; want %q", tc.f, got, want)
		}
		// What JSON.stringify writes, JSON.parse reads back to the same number (−0 aside).
		if want != "null" {
			v, err := jsjson.Parse(want)
			if err != nil || v.(float64) != tc.f {
				t.Errorf("Parse(%q) = %v, %v; want %v", want, v, err, tc.f)
			}
		}
	}
}

func TestObject(t *testing.T) {
	o := jsjson.NewObject()
	for _, k := range []string{"b", "1", "a", "0", "4294967295", "4294967294", "01", "-1", "1.5", "10", "", "1e3",
		"__proto__", "9007199254740993", " 1", "a", "0"} {
		o.Set(k, k)
	}
	o.Set("b", "last") // keeps its place, takes the last value
	want := []string{"0", "1", "10", "4294967294", "b", "a", "4294967295", "01", "-1", "1.5", "", "1e3",
		"__proto__", "9007199254740993", " 1"}
	if got := o.Keys(); !slices.Equal(got, want) {
		t.Errorf("Keys() = %q; want %q", got, want)
	}
	if o.Len() != len(want) {
		t.Errorf("Len() = %d; want %d", o.Len(), len(want))
	}
	if v, ok := o.Get("b"); !ok || v != "last" {
		t.Errorf(`Get("b") = %v, %v`, v, ok)
	}
	if _, ok := o.Get("c"); ok || o.Has("c") || !o.Has("") {
		t.Error("Get/Has wrong for missing or empty key")
	}
	var nilObj *jsjson.Object
	if nilObj.Len() != 0 || nilObj.Keys() != nil || nilObj.Has("a") {
		t.Error("nil *Object is not empty")
	}
	var zero jsjson.Object
	zero.Set("x", 1.0)
	if b, _ := jsjson.Marshal(&zero); string(b) != `{"x":1}` {
		t.Errorf("zero Object after Set marshals %s", b)
	}
}

func TestMarshal(t *testing.T) {
	obj := jsjson.NewObject().Set("z", 1.0).Set("2", []any{}).Set("1", jsjson.NewObject()).Set("s", hiD800)
	tests := []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{true, "true"},
		{false, "false"},
		{0.5, "0.5"},
		{math.Copysign(0, -1), "0"},
		{math.NaN(), "null"},
		{math.Inf(-1), "null"},
		{42, "42"},
		{"<\u2028", "\"<\u2028\""},
		{[]any{}, "[]"},
		{[]any{nil, 1.0, "a", []any{true}}, `[null,1,"a",[true]]`},
		{jsjson.NewObject(), "{}"},
		{obj, `{"1":{},"2":[],"z":1,"s":"\ud800"}`},
	}
	for _, tc := range tests {
		b, err := jsjson.Marshal(tc.v)
		if err != nil || string(b) != tc.want {
			t.Errorf("Marshal(%#v) = %q, %v; want %q", tc.v, b, err, tc.want)
		}
	}
	for _, bad := range []any{int64(1), map[string]any{}, []string{"a"}, jsjson.Object{}, []any{1.0, struct{}{}},
		jsjson.NewObject().Set("a", float32(1))} {
		if _, err := jsjson.Marshal(bad); err == nil {
			t.Errorf("Marshal(%#v) succeeded", bad)
		}
	}
}

func TestCloneTypeOf(t *testing.T) {
	inner := []any{1.0, "x"}
	o := jsjson.NewObject().Set("a", inner).Set("0", jsjson.NewObject().Set("k", true))
	c := jsjson.Clone(o).(*jsjson.Object)
	inner[0] = 2.0
	o.Set("a", "changed").Set("new", nil)
	ov, _ := o.Get("0")
	ov.(*jsjson.Object).Set("k", false)
	b, _ := jsjson.Marshal(c)
	if string(b) != `{"0":{"k":true},"a":[1,"x"]}` {
		t.Errorf("Clone not deep: %s", b)
	}
	for _, v := range []any{nil, true, 1.5, "s"} {
		if jsjson.Clone(v) != v {
			t.Errorf("Clone(%v) changed it", v)
		}
	}
	types := []struct {
		v    any
		want string
	}{{nil, "object"}, {true, "boolean"}, {1.0, "number"}, {3, "number"}, {"", "string"}, {[]any{}, "object"}, {o, "object"}}
	for _, tc := range types {
		if got := jsjson.TypeOf(tc.v); got != tc.want {
			t.Errorf("TypeOf(%#v) = %q; want %q", tc.v, got, tc.want)
		}
	}
}

func TestParseAccepts(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		text string
		want string // enc of the value: see enc in node_test.go
	}{
		{"null", "null"},
		{" \t\r\ntrue \n", "true"},
		{"false", "false"},
		{"0", enc(0.0)},
		{"-0", enc(negZero)},
		{"-0.0e0", enc(negZero)},
		{"0e5", enc(0.0)},
		{"1E+2", enc(100.0)},
		{"1e-2", enc(0.01)},
		{"123.456e-7", enc(123.456e-7)},
		{"1e400", enc(math.Inf(1))},
		{"-1e400", enc(math.Inf(-1))},
		{"1e-400", enc(0.0)},
		{"-1e-400", enc(negZero)},
		{"9007199254740993", enc(9007199254740992.0)},
		{"2.4703282292062327e-324", enc(0.0)},
		{"2.4703282292062328e-324", enc(5e-324)},
		{"1.7976931348623158e308", enc(math.MaxFloat64)},
		{"1.7976931348623159e308", enc(math.Inf(1))},
		{"0.30000000000000004", enc(pointOne + pointTwo)},
		{strings.Repeat("9", 400), enc(math.Inf(1))},
		{`""`, enc("")},
		{`"\"\\\/\b\f\n\r\t"`, enc("\"\\/\b\f\n\r\t")},
		{`"\u0041\u00e9\u00E9"`, enc("Aéé")},
		{`"\ud800"`, enc(hiD800)},
		{`"\uDC00\uD800"`, enc(loDC00 + hiD800)},
		{`"\ud801\udc00"`, enc(u10400)},
		{`"\uD801\uDC00"`, enc(u10400)},
		{"\"\\ud801" + loDC00 + "\"", enc(u10400)},   // escape + raw low half join
		{"\"" + hiD801 + loDC00 + "\"", enc(u10400)}, // split pair in the text joins
		{"\"" + hiD800 + "\"", enc(hiD800)},          // raw lone surrogate kept
		{"\"\x7f\u2028\u2029\uFEFF\u00A0\"", enc("\x7f\u2028\u2029\uFEFF\u00A0")},
		{"\"<\"", enc("<")},
		{"[]", "[]"},
		{"[ 1 , [ ] , { } ]", "[" + enc(1.0) + ",[],{}]"},
		{`{"a":1,"b":2,"a":3}`, `{` + enc("a") + `:` + enc(3.0) + `,` + enc("b") + `:` + enc(2.0) + `}`},
		{`{"b":0,"4294967295":0,"4294967294":0,"01":0,"1":0,"0":0}`,
			"{" + enc("0") + ":" + enc(0.0) + "," + enc("1") + ":" + enc(0.0) + "," + enc("4294967294") + ":" + enc(0.0) + "," +
				enc("b") + ":" + enc(0.0) + "," + enc("4294967295") + ":" + enc(0.0) + "," + enc("01") + ":" + enc(0.0) + "}"},
		{`{"__proto__":null}`, "{" + enc("__proto__") + ":null}"},
		{`{"\ud800":"\udc00"}`, "{" + enc(hiD800) + ":" + enc(loDC00) + "}"},
		{strings.Repeat("[", jsjson.MaxDepth) + strings.Repeat("]", jsjson.MaxDepth), strings.Repeat("[", jsjson.MaxDepth) + strings.Repeat("]", jsjson.MaxDepth)},
	}
	for _, tc := range tests {
		v, err := jsjson.Parse(tc.text)
		if err != nil {
			t.Errorf("Parse(%q): %v", short(tc.text), err)
			continue
		}
		if got := enc(v); got != tc.want {
			t.Errorf("Parse(%q) = %s; want %s", short(tc.text), got, tc.want)
		}
	}
	deep := strings.Repeat(`{"a":`, jsjson.MaxDepth) + "1" + strings.Repeat("}", jsjson.MaxDepth)
	if _, err := jsjson.Parse(deep); err != nil {
		t.Errorf("Parse(objects nested MaxDepth deep): %v", err)
	}
}

func TestParseRejects(t *testing.T) {
	tests := []string{
		"", " ", "nul", "nulll", "True", "undefined", "NaN", "-NaN", "Infinity", "-Infinity",
		"01", "-01", "00", "1.", "-", "-.5", ".5", "+1", "1e", "1e+", "1E-", "0x10", "1_000", "1.e3", "--1", "- 1",
		"1 2", "[1,]", "[,1]", "[1,,2]", `{"a":1,}`, `{,}`, "[", "]", "{", "}", `{"a"}`, `{"a" 1}`, `{a:1}`, `{'a':1}`,
		`{"a":1 "b":2}`, `{1:2}`, `{"a":1]`, `[1}`, "'a'", `"abc`, `"\"`, `"\x"`, `"\'"`, `"\a"`, `"\v"`, `"\0"`,
		`"\u"`, `"\u12"`, `"\u12G4"`, `"\u-123"`, `"\u+123"`, `"\u 123"`, `"\U0041"`, `"\x41"`,
		"\"\x00\"", "\"\x01\"", "\"\n\"", "\"\t\"", "\"\x1f\"", "\"a\xffb\"", "\"\xed\xa0\"",
		"/* c */1", "1 // c", "1/**/", "#1",
		"\v1", "1\v", "\f1", "\u00A01", "1\u00A0", "\uFEFF1", "\u20281", "[1,\u00A02]",
		"\xff", "1\x00", "[1]x", "{}{}", "\"a\"\"b\"",
		strings.Repeat("[", jsjson.MaxDepth+1) + strings.Repeat("]", jsjson.MaxDepth+1),
		strings.Repeat(`{"a":`, jsjson.MaxDepth+1) + "1" + strings.Repeat("}", jsjson.MaxDepth+1),
		strings.Repeat("[", 1_000_000),
	}
	for _, text := range tests {
		v, err := jsjson.Parse(text)
		if err == nil {
			t.Errorf("Parse(%q) = %s; want an error", short(text), enc(v))
			continue
		}
		var se *jsjson.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error %T is not a *SyntaxError", short(text), err)
			continue
		}
		if se.Offset < 0 || se.Offset > len(text) || se.Msg == "" || !strings.Contains(se.Error(), strconv.Itoa(se.Offset)) {
			t.Errorf("Parse(%q): bad SyntaxError %+v", short(text), se)
		}
	}
}

func TestParseErrorOffset(t *testing.T) {
	tests := []struct {
		text   string
		offset int
	}{
		{"[1,]", 3},
		{`{"a":1,}`, 7},
		{"01", 1},
		{`"\x"`, 1},
		{"tru", 0},
		{"[1 2]", 3},
	}
	for _, tc := range tests {
		_, err := jsjson.Parse(tc.text)
		var se *jsjson.SyntaxError
		if !errors.As(err, &se) || se.Offset != tc.offset {
			t.Errorf("Parse(%q) error %v; want offset %d", tc.text, err, tc.offset)
		}
	}
}

// TestRoundTrip checks Parse(Marshal(v)) on parsed values and Parse(Quote(s)) on strings.
func TestRoundTrip(t *testing.T) {
	texts := []string{
		`{"b":[1,2,{"c":"\ud800"}],"0":-0,"a":1e21,"x":"\u2028<\/"}`,
		`[0.1,5e-324,1.7976931348623157e308,-1e-7,"\udfff\ud800",{}]`,
	}
	for _, text := range texts {
		v, err := jsjson.Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		b, err := jsjson.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		v2, err := jsjson.Parse(string(b))
		if err != nil {
			t.Fatalf("Parse(Marshal) = %q: %v", b, err)
		}
		if enc(jsjson.Clone(v2)) != encStringified(v) {
			t.Errorf("round trip of %q: %s != %s", text, enc(v2), enc(v))
		}
	}
	for _, s := range []string{"", hiD800, loDC00 + hiD800, hiD801 + loDC00, "a\xffb", "\x00\x1f\"\\<"} {
		v, err := jsjson.Parse(jsjson.Quote(s))
		if err != nil || v != js.Normalize(s) {
			t.Errorf("Parse(Quote(%q)) = %q, %v; want %q", s, v, err, js.Normalize(s))
		}
	}
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// Variables, so that 0.1 + 0.2 is float64 arithmetic and not exact constant arithmetic.
var pointOne, pointTwo = 0.1, 0.2

func TestNumberVerbatim(t *testing.T) {
	o := jsjson.NewObject().Set("a", jsjson.Number("2.0")).Set("b", []any{jsjson.Number("1e2"), jsjson.Number("-0")}).Set("c", 1.5)
	b, err := jsjson.Marshal(o)
	if err != nil || string(b) != `{"a":2.0,"b":[1e2,-0],"c":1.5}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	if _, err := jsjson.Marshal(jsjson.Number("02")); err == nil {
		t.Errorf("Marshal accepted the number text 02")
	}
	p := jsjson.Plain(o).(*jsjson.Object)
	if a, _ := p.Get("a"); a != 2.0 {
		t.Errorf("Plain a = %#v", a)
	}
	if b, _ := p.Get("b"); b.([]any)[0] != 100.0 {
		t.Errorf("Plain b = %#v", b)
	}
	if a, _ := o.Get("a"); a != jsjson.Number("2.0") {
		t.Errorf("Plain changed its argument")
	}
	if jsjson.TypeOf(jsjson.Number("1")) != "number" {
		t.Errorf("jsjson.TypeOf(Number) = %s", jsjson.TypeOf(jsjson.Number("1")))
	}
}
