package jsjson_test

// Differential tests: each checks this package against JSON.stringify, JSON.parse and
// Number.prototype.toString of the node on PATH, through one helper process per test, and
// skips when node is missing.

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/internal/nodejs"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

const nodeScript = encJS + `
function handle(req) {
  switch (req.op) {
  case "stringify":
    return req.s.map((u) => {
      const j = JSON.stringify(str(u));
      return [units(j), units(j.replaceAll("<", "\\u003c"))];
    });
  case "numbers":
    return req.h.map((h) => { const x = num(h); return [JSON.stringify(x), String(x)]; });
  case "parse":
    return req.t.map((u) => {
      let v;
      try { v = JSON.parse(str(u)); } catch (e) { return null; }
      return [enc(v), units(JSON.stringify(v))];
    });
  }
  throw new Error("unknown op " + req.op);
}
`

// sweep makes the differential tests draw every random input they name; without it they
// draw the first quarter (the same values: a draw depends on its index only), beside all
// their fixed inputs.
var sweep = flag.Bool("sweep", false, "TestNode*: all the random inputs, not the first quarter (.ci/run passes it)")

// drawMany draws n values from g, the same ones on every run: n/4 of them without -sweep.
func drawMany[V any](g *rapid.Generator[V], n int) []V {
	if !*sweep {
		n /= 4
	}
	out := make([]V, n)
	for i := range out {
		out[i] = g.Example(i)
	}
	return out
}

// stringUnits draws UTF-16 code-unit sequences rich in what JSON.stringify escapes.
func stringUnits() *rapid.Generator[[]uint16] {
	return rapid.SliceOfN(rapid.OneOf(
		rapid.SampledFrom([]uint16{'a', '"', '\\', '/', '<', '>', '&', '\'', 0, '\b', '\f', '\n', '\r', '\t', 0x0B, 0x1F, 0x7F,
			0x80, 0x85, 0xA0, 0x2028, 0x2029, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF}),
		rapid.Uint16Range(0, 0x20),
		rapid.Uint16Range(0xD800, 0xDFFF),
		rapid.Uint16(),
	), 0, 12)
}

func TestNodeStringify(t *testing.T) {
	p := nodejs.StartTB(t, nodeScript)
	inputs := drawMany(stringUnits(), 10000)
	for c := 0; c <= 0xFFFF; c++ {
		inputs = append(inputs, []uint16{uint16(c)})
	}
	inputs = append(inputs, []uint16{0xD800, 0xDC00}, []uint16{0xDBFF, 0xDFFF}, []uint16{0xDC00, 0xD800}, []uint16{})
	var want [][2][]uint16
	p.MustCall(t, map[string]any{"op": "stringify", "s": inputs}, &want)
	bad := 0
	for i, u := range inputs {
		s := js.FromUTF16(u)
		q, safe := jsjson.Quote(s), string(jsjson.AppendStringTagSafe(nil, s))
		if !slices.Equal(js.UTF16(q), want[i][0]) || q != js.FromUTF16(want[i][0]) ||
			safe != js.FromUTF16(want[i][1]) || jsjson.StringSize(s, false) != len(q) || jsjson.StringSize(s, true) != len(safe) {
			if bad++; bad <= 20 {
				t.Errorf("Quote(%04X) = %+q, tag-safe %+q; JavaScript gives %+q, %+q", u, q, safe,
					js.FromUTF16(want[i][0]), js.FromUTF16(want[i][1]))
			}
		}
	}
	t.Logf("compared JSON.stringify(string) and the tag-safe form on %d strings; %d differ", len(inputs), bad)
}

// numberInputs returns doubles worth formatting: boundaries, random bit patterns, random
// integers and short decimals, and neighbours of powers of ten.
func numberInputs() []float64 {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, pointOne + pointTwo, 1e21, 1e21 - 65536, 1e-7, 1e-6, 9.999999999999999e-7,
		5e-324, 1e-323, 2.2250738585072014e-308, 2.225073858507201e-308, math.MaxFloat64, 1 << 53, 1<<53 + 2, 1<<53 - 1,
		1 << 64, 1 << 63, 123e18, 1e300, 4.35, 0.5, 1.5, 2.5, 1e23, 9007199254740993, 5e-7, 123456789012345680000,
		math.NaN(), math.Inf(1), math.Inf(-1), math.Float64frombits(0x7FF8000000000001), math.Float64frombits(0xFFF0000000000001)}
	for e := -330; e <= 310; e++ {
		x := math.Pow(10, float64(e))
		fs = append(fs, x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)), -x, 3*x, 1.5*x)
	}
	for e := -1075; e <= 1024; e++ {
		x := math.Ldexp(1, e)
		fs = append(fs, x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)))
	}
	gen := rapid.OneOf(
		rapid.Map(rapid.Uint64(), math.Float64frombits),
		rapid.Map(rapid.Int64Range(-(1<<60), 1<<60), func(i int64) float64 { return float64(i) }),
		rapid.Map(rapid.Int64Range(-1<<53, 1<<53), func(i int64) float64 { return float64(i) }),
		rapid.Custom(func(t *rapid.T) float64 { // short decimals: digits × 10^exp
			d := rapid.Int64Range(1, 99999999).Draw(t, "digits")
			e := rapid.IntRange(-330, 310).Draw(t, "exp")
			f, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", d, e), 64)
			return f
		}),
		rapid.Custom(func(t *rapid.T) float64 { // 17 significant digits
			d := rapid.Int64Range(1e16, 1e17-1).Draw(t, "digits")
			e := rapid.IntRange(-340, 292).Draw(t, "exp")
			f, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", d, e), 64)
			return f
		}),
	)
	return append(fs, drawMany(gen, 40000)...)
}

func TestNodeNumbers(t *testing.T) {
	p := nodejs.StartTB(t, nodeScript)
	fs := numberInputs()
	hexes := make([]string, len(fs))
	for i, f := range fs {
		hexes[i] = fmt.Sprintf("%016x", math.Float64bits(f))
	}
	var want [][2]string
	p.MustCall(t, map[string]any{"op": "numbers", "h": hexes}, &want)
	bad := 0
	for i, f := range fs {
		j, s := string(jsjson.AppendNumber(nil, f)), jsjson.NumberString(f)
		if j != want[i][0] || s != want[i][1] {
			if bad++; bad <= 20 {
				t.Errorf("%s (%v): AppendNumber %q, NumberString %q; JavaScript JSON.stringify %q, String %q",
					hexes[i], f, j, s, want[i][0], want[i][1])
			}
		}
	}
	t.Logf("compared JSON.stringify(number) and String(number) on %d doubles; %d differ", len(fs), bad)
}

// jsonKeys holds keys whose order JavaScript decides specially, and ordinary ones.
var jsonKeys = []string{"0", "1", "2", "10", "01", "00", "-1", "-0", "1.0", "1e3", " 1", "4294967294", "4294967295",
	"4294967296", "9007199254740993", "", "a", "b", "__proto__", "constructor", "length", "\U00010400", "\xed\xa0\x80"}

var jsonStringRunes = []rune{'a', 'Z', ' ', '<', '/', '\'', 0x7F, 0x80, 0xA0, 0xE9, 0x2028, 0x2029, 0xFEFF, 0xFFFD, 0x10400,
	0x10FFFF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF}

// jsonText draws a JSON text as UTF-16 code units: a random value written with random
// whitespace and escapes, then, half the time, damaged by a few edits.
func jsonText() *rapid.Generator[[]uint16] {
	return rapid.Custom(func(t *rapid.T) []uint16 {
		var b []uint16
		writeValue(t, &b, rapid.IntRange(0, 4).Draw(t, "depth"))
		ws(t, &b)
		if rapid.Bool().Draw(t, "damage") {
			for n := rapid.IntRange(1, 3).Draw(t, "edits"); n > 0; n-- {
				b = damage(t, b)
			}
		}
		return b
	})
}

func put(b *[]uint16, s string) { *b = append(*b, js.UTF16(s)...) }

func ws(t *rapid.T, b *[]uint16) {
	if rapid.IntRange(0, 3).Draw(t, "ws?") == 0 {
		put(b, rapid.SampledFrom([]string{" ", "\t", "\n", "\r", "  \r\n\t"}).Draw(t, "ws"))
	}
}

func writeValue(t *rapid.T, b *[]uint16, depth int) {
	ws(t, b)
	kind := rapid.IntRange(0, 9).Draw(t, "kind")
	if depth == 0 && kind >= 7 {
		kind = 3
	}
	switch kind {
	case 0:
		put(b, rapid.SampledFrom([]string{"null", "true", "false"}).Draw(t, "lit"))
	case 1, 2:
		put(b, numberText(t))
	case 3, 4, 5:
		writeString(t, b, "")
	case 6:
		writeString(t, b, rapid.SampledFrom(jsonKeys).Draw(t, "strkey"))
	case 7:
		put(b, "[")
		n := rapid.IntRange(0, 4).Draw(t, "len")
		for i := 0; i < n; i++ {
			if i > 0 {
				ws(t, b)
				put(b, ",")
			}
			writeValue(t, b, depth-1)
			ws(t, b)
		}
		ws(t, b)
		put(b, "]")
	default:
		put(b, "{")
		n := rapid.IntRange(0, 5).Draw(t, "len")
		for i := 0; i < n; i++ {
			if i > 0 {
				put(b, ",")
			}
			ws(t, b)
			if rapid.IntRange(0, 4).Draw(t, "poolkey") > 0 {
				writeString(t, b, rapid.SampledFrom(jsonKeys).Draw(t, "key"))
			} else {
				writeString(t, b, "")
			}
			ws(t, b)
			put(b, ":")
			writeValue(t, b, depth-1)
			ws(t, b)
		}
		put(b, "}")
	}
}

func numberText(t *rapid.T) string {
	switch rapid.IntRange(0, 3).Draw(t, "numkind") {
	case 0:
		return rapid.SampledFrom([]string{"0", "-0", "0.0", "-0.0e-0", "1e400", "-1e400", "1e-400", "9007199254740993",
			"2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623158e308", "1.7976931348623159e308",
			"0.30000000000000004", "123456789012345678901234567890", "1E21", "1e+21", "1e-7", "5e-324",
			"0.1e1", "10.5E-3"}).Draw(t, "special")
	case 1:
		return strconv.FormatFloat(math.Float64frombits(rapid.Uint64().Draw(t, "bits")), 'g', -1, 64)
	case 2:
		return strconv.FormatFloat(math.Float64frombits(rapid.Uint64().Draw(t, "bits")), 'e', rapid.IntRange(0, 25).Draw(t, "prec"), 64)
	}
	var s strings.Builder
	if rapid.Bool().Draw(t, "neg") {
		s.WriteByte('-')
	}
	digits := func(n int, lead bool) {
		for i := 0; i < n; i++ {
			lo := 0
			if i == 0 && lead && n > 1 {
				lo = 1
			}
			s.WriteByte(byte('0' + rapid.IntRange(lo, 9).Draw(t, "digit")))
		}
	}
	digits(rapid.IntRange(1, 25).Draw(t, "intdigits"), true)
	if rapid.Bool().Draw(t, "frac") {
		s.WriteByte('.')
		digits(rapid.IntRange(1, 25).Draw(t, "fracdigits"), false)
	}
	if rapid.Bool().Draw(t, "exp") {
		s.WriteString(rapid.SampledFrom([]string{"e", "E", "e+", "e-", "E+", "E-"}).Draw(t, "e"))
		digits(rapid.IntRange(1, 3).Draw(t, "expdigits"), false)
	}
	return s.String()
}

// writeString writes s as a JSON string literal; when s is "", it draws the content.
func writeString(t *rapid.T, b *[]uint16, s string) {
	put(b, `"`)
	var units []uint16
	if s != "" {
		units = js.UTF16(s)
	} else {
		for _, r := range rapid.SliceOfN(rapid.SampledFrom(jsonStringRunes), 0, 6).Draw(t, "runes") {
			if r >= 0x10000 {
				h, l := utf16.EncodeRune(r)
				units = append(units, uint16(h), uint16(l))
			} else {
				units = append(units, uint16(r))
			}
		}
	}
	for _, u := range units {
		switch esc := rapid.IntRange(0, 3).Draw(t, "esc"); {
		case u == '"' || u == '\\' || u < 0x20 || esc == 0:
			hexd := "0123456789abcdef"
			if rapid.Bool().Draw(t, "upper") {
				hexd = "0123456789ABCDEF"
			}
			*b = append(*b, '\\', 'u', uint16(hexd[u>>12]), uint16(hexd[u>>8&15]), uint16(hexd[u>>4&15]), uint16(hexd[u&15]))
		case u == '/' && esc == 1:
			put(b, `\/`)
		default:
			*b = append(*b, u)
		}
	}
	if rapid.IntRange(0, 5).Draw(t, "extraesc") == 0 {
		put(b, rapid.SampledFrom([]string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\ud800`, `\udc00`, `\uD834\uDD1E`}).Draw(t, "extra"))
	}
	put(b, `"`)
}

// damage inserts a troublesome token, deletes a span, or duplicates a span.
func damage(t *rapid.T, b []uint16) []uint16 {
	i := rapid.IntRange(0, len(b)).Draw(t, "at")
	switch rapid.IntRange(0, 2).Draw(t, "how") {
	case 0:
		tok := rapid.SampledFrom([]string{",", "]", "}", "[", "{", ":", "0", "00", "-", "+", ".", "e", "E", `"`, `\`, `\x`, `\u12`,
			`\u`, "'", "/*c*/", "//", "\v", "\f", "\u00A0", "\uFEFF", "\u2028", "\x00", "\x01", "\x1f", "\x7f", "\n", " ",
			"NaN", "Infinity", "undefined", "tru", "nul", ",]", ",}", "\xed\xa0\x80", "1", "9"}).Draw(t, "tok")
		return slices.Insert(b, i, js.UTF16(tok)...)
	case 1:
		j := rapid.IntRange(i, min(len(b), i+3)).Draw(t, "to")
		return slices.Delete(b, i, j)
	default:
		j := rapid.IntRange(i, min(len(b), i+4)).Draw(t, "to")
		return slices.Insert(b, j, b[i:j]...)
	}
}

func TestNodeParse(t *testing.T) {
	p := nodejs.StartTB(t, nodeScript)
	texts := drawMany(jsonText(), 20000)
	for _, s := range []string{"", " ", "1", "-", "01", "1.", ".5", "+1", "NaN", "\v1", "\u00A01", "[1,]", `{"a":1,}`,
		"[1]\n", "\"\x00\"", `"\u12G4"`, `"\ud800"`, `"\ud800\udc00"`, `{"4294967295":1,"4294967294":2,"01":3,"1":4}`,
		`{"a":1,"b":2,"a":3}`, `{"__proto__":[]}`, "1 2", "/**/1", "'a'", `"\'"`, "\"\u2028\"", "-0"} {
		texts = append(texts, js.UTF16(s))
	}
	var want []*struct {
		Enc  string
		JSON []uint16
	}
	var raw [][]any
	p.MustCall(t, map[string]any{"op": "parse", "t": texts}, &raw)
	for _, r := range raw {
		if r == nil {
			want = append(want, nil)
			continue
		}
		w := &struct {
			Enc  string
			JSON []uint16
		}{Enc: r[0].(string)}
		for _, x := range r[1].([]any) {
			w.JSON = append(w.JSON, uint16(x.(float64)))
		}
		want = append(want, w)
	}
	bad, accepted := 0, 0
	for i, u := range texts {
		text := js.FromUTF16(u)
		v, err := jsjson.Parse(text)
		w := want[i]
		var problem string
		switch {
		case w == nil && err == nil:
			problem = fmt.Sprintf("accepted as %s; JSON.parse throws", enc(v))
		case w != nil && err != nil:
			problem = fmt.Sprintf("rejected (%v); JSON.parse gives %s", err, w.Enc)
		case w != nil:
			accepted++
			m, merr := jsjson.Marshal(v)
			if got := enc(v); got != w.Enc {
				problem = fmt.Sprintf("= %s; JSON.parse gives %s", got, w.Enc)
			} else if merr != nil || string(m) != js.FromUTF16(w.JSON) {
				problem = fmt.Sprintf("Marshal = %+q, %v; JSON.stringify gives %+q", m, merr, js.FromUTF16(w.JSON))
			}
		}
		if problem != "" {
			if bad++; bad <= 20 {
				t.Errorf("Parse(%+q) %s", text, problem)
			}
		}
	}
	t.Logf("compared JSON.parse (and JSON.stringify of the result) on %d texts, %d valid; %d differ", len(texts), accepted, bad)
}
