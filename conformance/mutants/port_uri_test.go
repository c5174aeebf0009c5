package mutants

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// EncodeURI is the seed's encodeSessionReferenceUri, ported.
func (p port) EncodeURI(id string) string {
	var j []byte
	if f := p.k.trap.json; f != nil {
		j = []byte(f(id)) // MUTANT: a language's JSON writer
	} else if p.k.encodingJSON {
		j, _ = json.Marshal(id) // MUTANT: HTML-escapes <>&, escapes U+2028/U+2029, U+FFFD for lone surrogates
	} else {
		j = jsjson.AppendString(nil, id)
	}
	if p.k.upperSurrogateHex {
		j = upperSurrogateEscapes(j) // MUTANT: \uD800 instead of \ud800
	}
	enc := base64.RawURLEncoding
	if p.k.paddedStdBase64 {
		enc = base64.StdEncoding // MUTANT: + / and = padding
	}
	return uri.Scheme + enc.EncodeToString(j)
}

// upperSurrogateEscapes uppercases the hex digits of every \udXXX escape.
func upperSurrogateEscapes(j []byte) []byte {
	out := bytes.Clone(j)
	for i := 0; i+6 <= len(out); i++ {
		if out[i] == '\\' && out[i+1] == 'u' && (out[i+2] == 'd' || out[i+2] == 'D') {
			for k := i + 2; k < i+6; k++ {
				if 'a' <= out[k] && out[k] <= 'f' {
					out[k] -= 'a' - 'A'
				}
			}
			i += 5
		} else if out[i] == '\\' {
			i++ // skip the escaped character
		}
	}
	return out
}

// decodeURI is the seed's decodeSessionReferenceUri, ported.
func (p port) decodeURI(u string) (string, error) {
	bad := func() (string, error) {
		return "", errcode.New(errcode.InvalidReference, "invalid session reference URI "+jsjson.Quote(u))
	}
	if !strings.HasPrefix(u, uri.Scheme) {
		return bad()
	}
	payload := u[len(uri.Scheme):]
	if payload == "" {
		return bad()
	}
	for i := 0; i < len(payload); i++ {
		if !uri.IsPayloadByte(payload[i]) {
			return bad()
		}
	}
	enc := base64.RawURLEncoding
	if p.k.trimSpaceJSON {
		enc = enc.Strict()
	}
	raw, err := enc.DecodeString(payload)
	if err == nil && !utf8.Valid(raw) && p.k.trap.utf8Unmapped {
		// MUTANT: the strict decoder's error escapes unmapped (no contract code)
		return "", &errcode.TypeError{Msg: "UnicodeDecodeError: 'utf-8' codec can't decode byte"}
	}
	if err != nil || !utf8.Valid(raw) {
		return bad()
	}
	text := string(raw)
	if p.k.strictNoncharURI {
		text = strings.Map(replaceNonchar, text) // MUTANT: Encode::decode('UTF-8', …) is strict about noncharacters
	}
	if f := p.k.trap.jsonLimit; f != nil {
		if msg, hit := f(text); hit {
			return "", &errcode.TypeError{Msg: msg} // MUTANT: the parser's limit error escapes unmapped (no contract code)
		}
	}
	if p.k.trimSpaceJSON {
		text = strings.TrimSpace(text) // MUTANT: whitespace around the JSON accepted
	}
	v, err := jsjson.Parse(text)
	if err != nil {
		return bad()
	}
	id, ok := v.(string)
	if !ok {
		return bad()
	}
	switch {
	case p.k.noCanonicalCheck:
		// MUTANT: no canonical re-encode check ("\u0061" accepted)
	case p.k.canonicalJSON, p.k.trimSpaceJSON:
		// MUTANT: the canonical check compares the JSON text, not the URI, so stray bits in
		// the last base64 character pass (and, with trimSpaceJSON, surrounding whitespace).
		if string(jsjson.AppendString(nil, id)) != text {
			return bad()
		}
	default:
		if p.EncodeURI(id) != u {
			return bad()
		}
	}
	return id, nil
}

// replaceNonchar is what Perl's strict UTF-8 decoder (Encode::decode('UTF-8', …)) makes of a
// code point: a noncharacter (U+FDD0–U+FDEF, and the last two code points of every plane)
// becomes U+FFFD.
func replaceNonchar(r rune) rune {
	if r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE {
		return '\uFFFD'
	}
	return r
}
