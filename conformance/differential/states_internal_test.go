package differential

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
)

// traceCuts replays the reference's bisection: with fitsAt deciding each step, the last
// fitting count keeps what retention.Truncate keeps, so the cut states it names are those
// of the steps the reference takes.
func TestFitsAtIsTheReferenceBisection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.StringOf(rapid.SampledFrom([]rune{'a', 'é', '€', '😀', '\ufeff', '<'})).Draw(t, "text")
		maxBytes := rapid.IntRange(0, len(text)+2).Draw(t, "maxBytes")
		enc := []byte(wire.ToWellFormed(wire.Normalize(text)))
		want := retention.Truncate(text, maxBytes)
		if len(enc) <= maxBytes {
			return
		}
		lastOmitted := len(enc)
		low, high := 0, maxBytes
		for low <= high {
			n := low + (high-low)/2
			f := fitsAt(enc, (n+1)/2, n/2, maxBytes)
			if f.ok {
				low = n + 1
				lastOmitted = f.omitted
			} else {
				high = n - 1
			}
		}
		if lastOmitted != want.OmittedBytes {
			t.Fatalf("replay omits %d bytes, retention.Truncate %d (%q)", lastOmitted, want.OmittedBytes, want.Text)
		}
	})
}

// lowerHasPrefix answers as strings.HasPrefix(strings.ToLower(s), prefix) did, including where
// Go's lowering turns a non-ASCII rune into ASCII (U+0130 → i) and where s starts mid-rune.
func TestLowerHasPrefixIsToLowerHasPrefix(t *testing.T) {
	const p = "dsh-session:"
	for _, s := range []string{
		"", "dsh-session", "dsh-session:", "DSH-Session:x", "dsh-sess\u0130on:", "dsh-\u017fession:",
		"\xffdsh-session:", "dsh-session\xff", "\u00e9"[1:] + "dsh-session:", "dsh-session:\u0130\u0130",
		"dsh\u2010session:", "DSH-SESSION:" + strings.Repeat("\u0130", 100),
	} {
		if got, want := lowerHasPrefix(s, p), strings.HasPrefix(strings.ToLower(s), p); got != want {
			t.Errorf("lowerHasPrefix(%q) = %v, want %v", s, got, want)
		}
	}
}
