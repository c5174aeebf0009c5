package uri_test

import (
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

func TestAppendEncodeEqualsEncode(t *testing.T) {
	for _, id := range []string{"", "a", benchID, "\xed\xa0\x80", string(make([]byte, 500))} {
		prefix := []byte("x:")
		got := uri.AppendEncode(prefix, id)
		if string(got) != "x:"+uri.Encode(id) {
			t.Errorf("AppendEncode(%q) = %q, want x:%q", id, got, uri.Encode(id))
		}
	}
}

// The hot path allocates nothing when the destination has room.
func TestAppendEncodeAllocations(t *testing.T) {
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(100, func() { buf = uri.AppendEncode(buf[:0], benchID) }); n != 0 {
		t.Errorf("AppendEncode allocates %v times per call", n)
	}
}

func BenchmarkAppendEncode(b *testing.B) {
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = uri.AppendEncode(buf[:0], benchID)
	}
}
