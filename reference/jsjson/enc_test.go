package jsjson_test

import (
	"fmt"
	"math"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// enc writes a Value in an exact, ASCII-only form that the node helper's enc also writes:
// numbers as their IEEE 754 bits (so −0 shows),
// strings as their UTF-16 code units in hex (so lone surrogates show), and object keys in
// Keys order.
func enc(v any) string {
	var b strings.Builder
	encTo(&b, v, false)
	return b.String()
}

// encStringified is enc of what survives JSON.stringify: −0 written as 0, ±Infinity as null.
func encStringified(v any) string {
	var b strings.Builder
	encTo(&b, v, true)
	return b.String()
}

func encTo(b *strings.Builder, v any, lossy bool) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		fmt.Fprint(b, x)
	case float64:
		if lossy && x == 0 {
			x = 0
		}
		if lossy && math.IsInf(x, 0) {
			b.WriteString("null")
			return
		}
		fmt.Fprintf(b, "n%016x", math.Float64bits(x))
	case string:
		encString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			encTo(b, e, lossy)
		}
		b.WriteByte(']')
	case *jsjson.Object:
		b.WriteByte('{')
		for i, k := range x.Keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			encString(b, k)
			b.WriteByte(':')
			e, _ := x.Get(k)
			encTo(b, e, lossy)
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "?%T", v)
	}
}

func encString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, u := range js.UTF16(s) {
		fmt.Fprintf(b, "%04x", u)
	}
	b.WriteByte('"')
}

// encJS is the node helper's version of enc.
const encJS = `
function h4(c) { return c.toString(16).padStart(4, "0"); }
function encS(s) { let o = '"'; for (let i = 0; i < s.length; i++) o += h4(s.charCodeAt(i)); return o + '"'; }
function enc(v) {
  if (v === null) return "null";
  switch (typeof v) {
  case "boolean": return String(v);
  case "number": return "n" + bits(v);
  case "string": return encS(v);
  }
  if (Array.isArray(v)) return "[" + v.map(enc).join(",") + "]";
  return "{" + Object.keys(v).map((k) => encS(k) + ":" + enc(v[k])).join(",") + "}";
}
`
