package mention_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// FuzzParse checks that Parse never panics, fails only with INVALID_REFERENCE, and on success
// returns canonical text (the input itself, normalized, when there are no references) and references whose ids have canonical URIs, no more references than
// the input holds schemes, the input unchanged when there are none, and references whose
// Format parses back to exactly that reference.
func FuzzParse(f *testing.F) {
	f.Add("see @[Plan](dsh-session:ImEi) and dsh-session:ImIi")
	f.Add(`@[a\]b\\](dsh-session:ImEi)`)
	f.Add("@[a\\\nb](dsh-session:ImEi)")
	f.Add("@[x](dsh-session:ImEi\u00a0)")
	f.Add("@[x\xed\xa0\xbd](dsh-session:ImEi)\xed\xb8\x80")
	f.Add("dsh-session: dsh-session:!! dsh-session:ImEj")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := mention.Parse(s)
		if err != nil {
			if !errors.Is(err, errcode.InvalidReference) {
				t.Fatalf("Parse(%+q) failed with %v; want INVALID_REFERENCE", s, err)
			}
			return
		}
		if n := strings.Count(s, uri.Scheme); len(p.References) > n {
			t.Fatalf("Parse(%+q): %d references from %d schemes", s, len(p.References), n)
		}
		if !js.Canonical(p.Text) {
			t.Fatalf("Parse(%+q).Text = %+q is not canonical", s, p.Text)
		}
		if len(p.References) == 0 {
			if p.Text != js.Normalize(s) {
				t.Fatalf("Parse(%+q) changed text without references: %+q", s, p.Text)
			}
			return
		}
		for _, r := range p.References {
			if id, err := uri.Decode(uri.Encode(r.SessionID)); err != nil || id != r.SessionID {
				t.Fatalf("reference id %+q does not round-trip: %+q, %v", r.SessionID, id, err)
			}
			m := mention.Format(r.SessionID, r.Label)
			back, err := mention.Parse(m)
			if err != nil || len(back.References) != 1 || back.References[0] != r {
				t.Fatalf("Parse(Format(%+q)) = %+q, %v", r, back.References, err)
			}
			if back.Text != js.Normalize("@"+r.Label) {
				t.Fatalf("Parse(Format(%+q)).Text = %+q", r, back.Text)
			}
		}
	})
}
