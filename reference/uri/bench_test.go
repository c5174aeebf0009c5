package uri_test

import (
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

const benchID = "session-2024-06-01T12:00:00Z-\"quoted\"-中文-😀"

func BenchmarkEncode(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = uri.Encode(benchID)
	}
}

func BenchmarkDecode(b *testing.B) {
	u := uri.Encode(benchID)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := uri.Decode(u); err != nil {
			b.Fatal(err)
		}
	}
}
