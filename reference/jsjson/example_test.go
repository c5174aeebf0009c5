package jsjson_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// Quote writes a lone surrogate as a lowercase \u escape, as JSON.stringify does, and
// leaves U+2028 and < raw.
func ExampleQuote() {
	s := js.FromUTF16([]uint16{'<', 0xD83D, 'x', 0x2028})
	fmt.Println(jsjson.Quote(s) == "\"<\\ud83dx\u2028\"")
	fmt.Println(string(jsjson.AppendStringTagSafe(nil, "</b>")))
	// Output:
	// true
	// "\u003c/b>"
}

// Parse keeps a lone surrogate from a \uD800 escape, where encoding/json would write U+FFFD.
func ExampleParse() {
	v, _ := jsjson.Parse(`["\ud800", "\ud83d\ude00", {"b": 1, "10": 2, "2": 3, "b": 4}]`)
	a := v.([]any)
	fmt.Printf("%+q %04X\n", a[0], js.UTF16(a[0].(string)))
	fmt.Printf("%+q\n", a[1])
	fmt.Println(a[2].(*jsjson.Object).Keys())
	out, _ := jsjson.Marshal(v)
	fmt.Println(string(out))
	_, err := jsjson.Parse("[1,]")
	fmt.Println(err)
	// Output:
	// "\xed\xa0\x80" [D800]
	// "\U0001f600"
	// [2 10 b]
	// ["\ud800","😀",{"2":3,"10":2,"b":4}]
	// jsjson: unexpected token at offset 3
}

func ExampleNumberString() {
	for _, f := range []float64{1e21, 1e-7, 123e-20, 0.000001, -0.0, 1 << 53} {
		fmt.Println(jsjson.NumberString(f))
	}
	// Output:
	// 1e+21
	// 1e-7
	// 1.23e-18
	// 0.000001
	// 0
	// 9007199254740992
}
