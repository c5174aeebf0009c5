package uri_test

import (
	"strings"
	"testing"

	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// FuzzDecode checks that Decode never panics, that it accepts only canonical URIs
// (success implies Encode(id) == input), and that Decode(Encode(s)) is the JavaScript
// string s denotes, for any Go string s.
func FuzzDecode(f *testing.F) {
	f.Add("dsh-session:ImEi")
	f.Add("dsh-session:IiI")
	f.Add("dsh-session:IiI=")
	f.Add("dsh-session:ImEj")
	f.Add("dsh-session:")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := uri.Decode(s)
		if err == nil {
			if got := uri.Encode(id); got != s {
				t.Fatalf("Decode(%q) = %+q but Encode gives %q", s, id, got)
			}
			if !js.Canonical(id) {
				t.Fatalf("Decode(%q) = %+q is not canonical WTF-8", s, id)
			}
		}
		u := uri.Encode(s)
		back, err := uri.Decode(u)
		if err != nil {
			t.Fatalf("Decode(Encode(%+q)) failed: %v", s, err)
		}
		if want := js.Normalize(s); back != want {
			t.Fatalf("Decode(Encode(%+q)) = %+q; want %+q", s, back, want)
		}
		// The payload is what the seed's URI test sees: the decoded id behind any payload
		// string, if it decodes, re-encodes to it.
		p := uri.Scheme + strings.Map(func(r rune) rune {
			if r < 0x80 && uri.IsPayloadByte(byte(r)) {
				return r
			}
			return -1
		}, s)
		if id, err := uri.Decode(p); err == nil && uri.Encode(id) != p {
			t.Fatalf("Decode(%q) accepted a non-canonical URI", p)
		}
	})
}
