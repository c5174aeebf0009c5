package refadapter

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// The kit states the contract's constants and encoders itself (package contract); the wiring
// of the embedded reference is the one place that may see both, so it checks they agree.
func TestContractAgreesWithReference(t *testing.T) {
	ints := []struct {
		name     string
		kit, ref int
	}{
		{"MaxReferences", contract.MaxReferences, service.MaxReferences},
		{"DefaultCandidateLimit", contract.DefaultCandidateLimit, service.DefaultCandidateLimit},
		{"DefaultMaxReferenceBytes", contract.DefaultMaxReferenceBytes, service.DefaultMaxReferenceBytes},
		{"MaxSafeInteger", contract.MaxSafeInteger, service.MaxSafeInteger},
	}
	for _, c := range ints {
		if c.kit != c.ref {
			t.Errorf("%s: kit %d, reference %d", c.name, c.kit, c.ref)
		}
	}
	if contract.PromptPrefix != service.PromptPrefix || contract.PromptSuffix != service.PromptSuffix {
		t.Error("prompt prefix or suffix differs from the reference's")
	}
	if contract.Scheme != uri.Scheme {
		t.Errorf("Scheme: kit %q, reference %q", contract.Scheme, uri.Scheme)
	}
	if len(contract.Codes) != len(errcode.All) {
		t.Fatalf("codes: kit %d, reference %d", len(contract.Codes), len(errcode.All))
	}
	for i, c := range errcode.All {
		if contract.Codes[i] != string(c) {
			t.Errorf("code %d: kit %s, reference %s", i, contract.Codes[i], c)
		}
	}
	for _, s := range []string{"", "a", "sess-1", `\]`, "\u2028", "\x00\x1f\"", "\xed\xa0\x80", "😀", "é]x\\"} {
		if got, want := contract.URI(s), uri.Encode(s); got != want {
			t.Errorf("URI(%q) = %q, reference %q", s, got, want)
		}
		if got, want := contract.Mention(s, s+"]"), mention.Format(s, s+"]"); got != want {
			t.Errorf("Mention(%q) = %q, reference %q", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		id, label := rapid.String().Draw(t, "id"), rapid.String().Draw(t, "label")
		if got, want := contract.Mention(id, label), mention.Format(id, label); got != want {
			t.Fatalf("Mention(%q, %q) = %q, reference %q", id, label, got, want)
		}
	})
}
