package refadapter

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// TestTagSafeAgreesWithReference: the kit's tag-safe JSON of a string (contract.AppendTagSafe,
// which the properties' byte-cost model uses) is the reference's, lone surrogates, split
// pairs and invalid bytes included.
func TestTagSafeAgreesWithReference(t *testing.T) {
	for _, s := range []string{"", "<", "</referenced-sessions>", "a<b>c&d", "\u2028<\u2029", "\x00\x1f\"\\\n",
		"\xed\xa0\x80<", "\xed\xa0\xbd\xed\xb8\x80", "\xff<\xfe", "😀<", "<<<"} {
		if got, want := string(contract.AppendTagSafe([]byte("x"), s)), string(jsjson.AppendStringTagSafe([]byte("x"), s)); got != want {
			t.Errorf("AppendTagSafe(%q) = %s, reference %s", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		// Pieces of WTF-8 as well as whole runes: halves of a pair written apart, bad bytes.
		pieces := rapid.SliceOf(rapid.SampledFrom([]string{"<", ">", "a", "\"", "\\", "\n", "\u00e9", "😀", "\xed\xa0\xbd", "\xed\xb8\x80", "\xff"})).Draw(t, "pieces")
		s := rapid.String().Draw(t, "s") + strings.Join(pieces, "")
		if got, want := string(contract.AppendTagSafe(nil, s)), string(jsjson.AppendStringTagSafe(nil, s)); got != want {
			t.Fatalf("AppendTagSafe(%q) = %s, reference %s", s, got, want)
		}
	})
}
