package wire_test

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func ExampleParseKeeping() {
	v, _ := wire.ParseKeeping(`{"op":"prepare","args":{"world": {"sessions":[]} ,"n":1}}`, "args", "world")
	args, _ := v.(*wire.Object).Get("args")
	world, _ := args.(*wire.Object).Get("world")
	fmt.Printf("%T %s\n", world, world)
	b, _ := wire.Marshal(v)
	fmt.Println(string(b))
	// Output:
	// wire.Raw {"sessions":[]}
	// {"op":"prepare","args":{"world":{"sessions":[]},"n":1}}
}

// keptAlike fails t unless ParseKeeping reads text as Parse does: the same error, or the same
// value with the kept one as its text, which reads as Parse read it.
func keptAlike(t interface{ Fatalf(string, ...any) }, text string, path ...string) {
	want, werr := wire.Parse(text)
	got, gerr := wire.ParseKeeping(text, path...)
	if fmt.Sprint(werr) != fmt.Sprint(gerr) {
		t.Fatalf("ParseKeeping(%q): error %v, Parse: %v", text, gerr, werr)
	}
	if werr != nil {
		return
	}
	// The kept value, decoded, put back where it was.
	var restore func(v any, depth int) any
	restore = func(v any, depth int) any {
		o, ok := v.(*wire.Object)
		if !ok || depth == len(path) {
			return v
		}
		e, ok := o.Get(path[depth])
		if !ok {
			return v
		}
		if raw, isRaw := e.(wire.Raw); isRaw {
			if depth != len(path)-1 {
				t.Fatalf("ParseKeeping(%q): a Raw at depth %d, not at the end of the path", text, depth)
			}
			if e, _ = wire.Parse(string(raw)); e == nil && string(raw) != "null" {
				t.Fatalf("ParseKeeping(%q): Raw %q is not a value", text, raw)
			}
		} else {
			e = restore(e, depth+1)
		}
		return o.Set(path[depth], e)
	}
	wb, _ := wire.Marshal(want)
	gb, _ := wire.Marshal(restore(got, 0))
	if string(wb) != string(gb) {
		t.Fatalf("ParseKeeping(%q) read %s, Parse %s", text, gb, wb)
	}
}

func TestParseKeeping(t *testing.T) {
	for _, text := range []string{
		`{"a":{"b":[1,{"c":2}]}}`, `{"a":{"b":"x\ud800y"}}`, `{"a":[{"b":1}]}`, `{"b":{"a":1}}`,
		`{"a":{"b":1,"b":{"c":[]}}}`, `{"a":{"b":{}}} `, `{"a":{"b":[]}}`, `{"a":{"b":-0.5e3}}`,
		`{"a":{"b":[1,]}}`, `{"a":{"b":"\x"}}`, `{"a":{"b":01}}`, `{"a":{"b":{"c" 1}}}`, `{"a":{"b":tru}}`,
		`{"a":{"b":[1]}`, `{"a":{"b":"` + "\x01" + `"}}`, `{"a":{"b":1}}x`,
	} {
		keptAlike(t, text, "a", "b")
	}
	keptAlike(t, `{"a":{"b":`+strings.Repeat("[", wire.MaxDepth), "a", "b") // too deep inside the kept value
	rapid.Check(t, func(t *rapid.T) {
		inner := rapid.SampledFrom([]string{`1`, `"s"`, `[`, `]`, `{`, `}`, `,`, `:`, `"b"`, `"a"`, `null`, `\`, ` `, `-`, `e`, `"\u`}).Draw(t, "pieces")
		var text string
		for _, p := range rapid.SliceOfN(rapid.SampledFrom([]string{`1`, `"s"`, `[`, `]`, `{`, `}`, `,`, `:`, `"b"`, `"a"`, `null`, ` `, `-1.5`, `"\ud800"`}), 0, 12).Draw(t, "more") {
			text += p
		}
		keptAlike(t, `{"a":{"b":`+inner+text+`}}`, "a", "b")
		keptAlike(t, `{"a":`+text+`}`, "a", "b")
	})
}
