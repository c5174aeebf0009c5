package properties

import (
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
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
	want := uri.Encode(id)
	u, ok := enc.Result.(string)
	if !enc.OK || !ok {
		e.failf(t, protocol.OpURIEncode, encArgs, enc, wire.Quote(want), "uri.encode did not return a string")
	}
	if !strings.HasPrefix(u, uri.Scheme) || len(u) == len(uri.Scheme) || strings.IndexFunc(u[len(uri.Scheme):], func(r rune) bool { return r > 0x7f || !uri.IsPayloadByte(byte(r)) }) >= 0 {
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
		if uri.Encode(id) != u {
			e.failf(t, protocol.OpURIDecode, args, resp, `{"code":"SESSION_REFERENCE_INVALID_REFERENCE"}`,
				"uri.decode accepted a URI that is not the canonical URI of the id it returned (%s)", wire.Quote(uri.Encode(id)))
		}
		return
	}
	if resp.Err == nil || resp.Err.Code != string(errcode.InvalidReference) {
		want := `{"code":"SESSION_REFERENCE_INVALID_REFERENCE"}`
		if id, err := uri.Decode(u); err == nil {
			want = wire.Quote(id)
		}
		e.failf(t, protocol.OpURIDecode, args, resp, want, "uri.decode failed with code %q, not %s", errText(resp.Err), errcode.InvalidReference)
	}
	if _, err := uri.Decode(u); err == nil {
		e.failf(t, protocol.OpURIDecode, args, resp, "the id", "uri.decode rejected a canonical URI")
	}
}
