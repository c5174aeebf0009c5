package protocol_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// manyKeys is the answer of a hostile adapter: {"id":1,"ok":true,"result":{"k0":0,...}}
// with n keys in the result.
func manyKeys(n int) string {
	var b strings.Builder
	b.WriteString(`{"id":1,"ok":true,"result":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`":0`)
	}
	b.WriteString("}}")
	return b.String()
}

// BenchmarkParseResponseManyKeys reads an answer of 1M keys, past MaxResponseValues: it
// must be refused in time and memory linear in what was read, not sorted or indexed.
func BenchmarkParseResponseManyKeys(b *testing.B) {
	line := manyKeys(1_000_000)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		protocol.ParseResponse(line)
	}
}

// BenchmarkParseResponseKeysUnderLimit reads the largest object answer the limit admits:
// it is built in time and memory linear in its keys.
func BenchmarkParseResponseKeysUnderLimit(b *testing.B) {
	line := manyKeys(protocol.MaxResponseValues - 4)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := protocol.ParseResponse(line); err != nil {
			b.Fatal(err)
		}
	}
}

func TestParseResponseRefusesTooManyValues(t *testing.T) {
	// id, ok, result and the response itself are 4 values: these keys fill the limit.
	at := manyKeys(protocol.MaxResponseValues - 4)
	r, err := protocol.ParseResponse(at)
	if err != nil {
		t.Fatalf("an answer of exactly MaxResponseValues values: %v", err)
	}
	if o, ok := r.Result.(interface{ Len() int }); !ok || o.Len() != protocol.MaxResponseValues-4 {
		t.Fatalf("result = %T, want an object of %d keys", r.Result, protocol.MaxResponseValues-4)
	}
	_, err = protocol.ParseResponse(manyKeys(protocol.MaxResponseValues - 3))
	want := "response holds more than " + strconv.Itoa(protocol.MaxResponseValues) + " JSON values"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("one value past the limit: err = %v, want it to say %q", err, want)
	}
	// The 1M-key answer of the hostile-adapter review, and values nested in arrays.
	for _, line := range []string{
		manyKeys(1_000_000),
		`{"id":1,"ok":true,"result":[` + strings.Repeat("[0,0],", protocol.MaxResponseValues/3) + `0]}`,
	} {
		if _, err := protocol.ParseResponse(line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40s...: err = %v, want it to say %q", line, err, want)
		}
	}
}
