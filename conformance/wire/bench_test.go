package wire_test

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// A world-sized request: many events whose texts mix ASCII, other scripts, escapes and the
// odd lone surrogate, as the kit writes prepare requests and reads their answers.
func benchValue() any {
	text := strings.Repeat("lorem ipsum dolor é中😀 \"q\" \n", 40) + "\xed\xa0\x80"
	events := make([]any, 2000)
	for i := range events {
		events[i] = wire.NewObject().Set("type", "user/message").Set("seq", float64(i)).
			Set("data", wire.NewObject().Set("content", []any{wire.NewObject().Set("type", "text").Set("text", text)}))
	}
	return wire.NewObject().Set("events", events)
}

func BenchmarkMarshal(b *testing.B) {
	v := benchValue()
	out, _ := wire.Marshal(v)
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		if _, err := wire.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	text, _ := wire.Marshal(benchValue())
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := wire.Parse(string(text)); err != nil {
			b.Fatal(err)
		}
	}
}
