package properties

import (
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func uriProperties() []Property {
	return []Property{
		{Name: "uri/round-trip", Area: "uri", Requirements: []string{"SR-URI-1", "SR-URI-2", "SR-STR-1"}, check: propURIRoundTrip},
		{Name: "uri/non-canonical-rejected", Area: "uri", Requirements: []string{"SR-URI-3", "SR-URI-4", "SR-URI-5", "SR-URI-6"}, check: propURINonCanonical},
	}
}

// sameString compares two JavaScript strings by code units: WTF-8 has one spelling per string
// only once normalised, and an adapter's JSON may pair surrogates the generator wrote apart.
func sameString(a, b string) bool { return slices.Equal(wire.UTF16(a), wire.UTF16(b)) }

// propURIRoundTrip: for every JavaScript string s (lone surrogates when declared), uri.encode
// gives the canonical URI (the scheme, then base64url without padding) and uri.decode gives s
// back.
func propURIRoundTrip(e *env, t *rapid.T) {
	id := gen.String(t, "sessionId", e.gen, 8)
	encArgs := wire.NewObject().Set("sessionId", id)
	enc := e.call(t, protocol.OpURIEncode, encArgs)
	want := contract.URI(id)
	u, ok := enc.Result.(string)
	if !enc.OK || !ok {
		e.failf(t, protocol.OpURIEncode, encArgs, enc, wire.Quote(want), "uri.encode did not return a string")
	}
	if !strings.HasPrefix(u, contract.Scheme) || len(u) == len(contract.Scheme) || strings.IndexFunc(u[len(contract.Scheme):], func(r rune) bool { return r > 0x7f || !base64URL(byte(r)) }) >= 0 {
		e.failf(t, protocol.OpURIEncode, encArgs, enc, wire.Quote(want), "uri.encode returned %s, not a scheme and a base64url payload", wire.Quote(u))
	}
	if u != want {
		e.failf(t, protocol.OpURIEncode, encArgs, enc, wire.Quote(want), "uri.encode returned a URI other than the canonical one")
	}
	decArgs := wire.NewObject().Set("uri", u)
	dec := e.call(t, protocol.OpURIDecode, decArgs)
	back, ok := dec.Result.(string)
	if !dec.OK || !ok || !sameString(back, id) {
		e.failf(t, protocol.OpURIDecode, decArgs, dec, wire.Quote(id), "uri.decode(uri.encode(s)) is not s")
	}
}

// propURINonCanonical: uri.decode of a mutated or non-canonical URI fails with
// SESSION_REFERENCE_INVALID_REFERENCE, unless it decodes to an id whose canonical URI is the
// input itself.
func propURINonCanonical(e *env, t *rapid.T) {
	u := gen.URI(t, "uri", e.gen)
	if rapid.IntRange(0, 4).Draw(t, "raw?") == 0 {
		u = gen.String(t, "raw", e.gen, 4)
	}
	args := wire.NewObject().Set("uri", u)
	resp := e.call(t, protocol.OpURIDecode, args)
	if resp.OK {
		id, ok := resp.Result.(string)
		if !ok {
			e.failf(t, protocol.OpURIDecode, args, resp, "a string", "uri.decode returned a non-string")
		}
		if contract.URI(id) != u {
			e.failf(t, protocol.OpURIDecode, args, resp, `{"code":"SESSION_REFERENCE_INVALID_REFERENCE"}`,
				"uri.decode accepted a URI that is not the canonical URI of the id it returned (%s)", wire.Quote(contract.URI(id)))
		}
		return
	}
	// Which URIs decode is the contract's answer (the oracle's), asked only once the adapter
	// has rejected one.
	id, canonical := e.decodes(u)
	if resp.Err == nil || resp.Err.Code != contract.InvalidReference {
		want := `{"code":"SESSION_REFERENCE_INVALID_REFERENCE"}`
		if canonical {
			want = wire.Quote(id)
		}
		e.failf(t, protocol.OpURIDecode, args, resp, want, "uri.decode failed with code %q, not %s", errText(resp.Err), contract.InvalidReference)
	}
	if canonical {
		e.failf(t, protocol.OpURIDecode, args, resp, "the id", "uri.decode rejected a canonical URI")
	}
}

// base64URL reports whether c is a letter of the unpadded base64url alphabet a URI's payload
// is written in (A-Z a-z 0-9 - _, SR-URI-1).
func base64URL(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// decodes asks the oracle whether u is the canonical URI of an id, and which: the contract's
// uri.decode answers the id, or fails with SESSION_REFERENCE_INVALID_REFERENCE.
func (e *env) decodes(u string) (string, bool) {
	args := wire.NewObject().Set("uri", u)
	resp := e.reference(protocol.OpURIDecode, args)
	if id, ok := resp.Result.(string); resp.OK && ok {
		return id, true
	}
	if !resp.OK && resp.Err != nil && resp.Err.Code == contract.InvalidReference {
		return "", false
	}
	e.oracleFailed(protocol.OpURIDecode, args, resp)
	return "", false
}
