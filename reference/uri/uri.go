// Package uri encodes and decodes the contract's session URIs,
// dsh-session:<base64url(JSON.stringify(sessionId))> (spec SR-URI-*).
//
// Every JavaScript string, lone surrogates included, has exactly one URI, and Decode accepts
// only that one: it is the seed's decodeSessionReferenceUri, whose strictness is its canonical
// re-encode check.
package uri

import (
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// Scheme is the URI scheme reserved for session snapshots, colon included.
const Scheme = "dsh-session:"

// Encode returns the canonical URI of sessionId (a WTF-8 JavaScript string): the seed's
// encodeSessionReferenceUri. JSON.stringify escapes lone surrogates, so the payload is UTF-8.
func Encode(sessionID string) string {
	var buf [128]byte
	return string(AppendEncode(buf[:0], sessionID))
}

// AppendEncode appends Encode(sessionID) to dst. It allocates nothing when dst has room.
func AppendEncode(dst []byte, sessionID string) []byte {
	var buf [96]byte
	return appendEncodeJSON(dst, jsjson.AppendString(buf[:0], sessionID))
}

func appendEncodeJSON(dst, serialized []byte) []byte {
	enc := base64.RawURLEncoding
	dst = append(dst, Scheme...)
	n := len(dst)
	dst = slices.Grow(dst, enc.EncodedLen(len(serialized)))[:n+enc.EncodedLen(len(serialized))]
	enc.Encode(dst[n:], serialized)
	return dst
}

// EncodeJSON returns Scheme followed by the unpadded base64url form of a serialized JSON text.
// Encode(id) is EncodeJSON(JSON.stringify(id)); the seed encodes any JSON value that way.
func EncodeJSON(serialized []byte) string { return string(appendEncodeJSON(nil, serialized)) }

// Decode returns the session id whose canonical URI is u, or an *errcode.Error with code
// SESSION_REFERENCE_INVALID_REFERENCE: the seed's decodeSessionReferenceUri. It rejects a
// missing scheme, an empty payload or one with characters outside [A-Za-z0-9_-], and every
// payload that is not exactly what Encode writes (padding, stray bits, JSON other than one
// string, non-minimal escapes, whitespace …).
func Decode(u string) (string, error) {
	if !strings.HasPrefix(u, Scheme) {
		return "", invalid(u, nil)
	}
	payload := u[len(Scheme):]
	if payload == "" || !isBase64URL(payload) {
		return "", invalid(u, nil)
	}
	var buf [96]byte
	raw := buf[:0]
	if n := base64.RawURLEncoding.DecodedLen(len(payload)); n > len(buf) {
		raw = make([]byte, 0, n)
	}
	raw, err := base64.RawURLEncoding.Strict().AppendDecode(raw, []byte(payload))
	if err != nil {
		// Node decodes such payloads leniently, but no re-encoding can equal them.
		return "", invalid(u, err)
	}
	if !utf8.Valid(raw) {
		// Node would read U+FFFD here, whose re-encoding differs from these bytes.
		return "", invalid(u, errors.New("payload is not UTF-8"))
	}
	v, err := jsjson.Parse(string(raw))
	if err != nil {
		return "", invalid(u, err)
	}
	id, ok := v.(string)
	if !ok {
		return "", invalid(u, errors.New("decoded session id is not a string"))
	}
	var check [128]byte
	if string(AppendEncode(check[:0], id)) != u {
		return "", invalid(u, errors.New("URI is not canonical"))
	}
	return id, nil
}

// isBase64URL reports whether s matches /^[A-Za-z0-9_-]+$/ (s is not empty).
func isBase64URL(s string) bool {
	for i := 0; i < len(s); i++ {
		if !IsPayloadByte(s[i]) {
			return false
		}
	}
	return true
}

// IsPayloadByte reports whether c is in the payload alphabet [A-Za-z0-9_-].
func IsPayloadByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

func invalid(u string, cause error) error {
	return errcode.Wrap(errcode.InvalidReference, "invalid session reference URI "+jsjson.Quote(u), cause)
}

// EncodeValue is the seed's encodeSessionReferenceUri over any JavaScript value: the URI of
// JSON.stringify(sessionID), so a number or an object has a URI too (one Decode rejects).
// An undefined sessionID fails with an *errcode.TypeError, as Buffer.from(undefined) does.
func EncodeValue(sessionID jsjson.Arg) (string, error) {
	if !sessionID.Set {
		return "", &errcode.TypeError{Msg: `the first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object. Received undefined`}
	}
	b, err := jsjson.Marshal(sessionID.Value)
	if err != nil {
		return "", err
	}
	return EncodeJSON(b), nil
}

// DecodeValue is Decode over any JavaScript value: one that is not a string fails with an
// *errcode.TypeError, as the seed's uri.startsWith call does.
func DecodeValue(u jsjson.Arg) (string, error) {
	s, ok := u.Value.(string)
	if !ok {
		return "", &errcode.TypeError{Msg: "uri.startsWith is not a function"}
	}
	return Decode(s)
}
