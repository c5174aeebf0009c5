// Package uriport is a partial Go port written against goport.Port alone, as an
// independent port author starts one: the URI functions from the standard library, and
// errors.ErrUnsupported for the rest. It imports nothing of the kit but the Go API and
// nothing of the reference (conformancetest's TestPortImportsNoReference).
package uriport

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
)

// Port implements the URI half of the contract, for well-formed strings.
type Port struct{}

const scheme = "dsh-session:"

// Features implements goport.Port: strings are plain UTF-8.
func (Port) Features() []goport.Feature { return nil }

// EncodeURI is base64url(JSON.stringify(id)), JSON.stringify's escapes written by hand:
// encoding/json would escape <, >, &, U+2028 and U+2029, which JavaScript leaves as they are.
func (Port) EncodeURI(id string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range id {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return scheme + base64.RawURLEncoding.EncodeToString([]byte(b.String()))
}

var errInvalid = &goport.Error{Code: goport.InvalidReference, Message: "invalid session reference URI"}

// DecodeURI accepts exactly the URIs EncodeURI writes.
func (p Port) DecodeURI(u string) (string, error) {
	payload, ok := strings.CutPrefix(u, scheme)
	if !ok || payload == "" || strings.Trim(payload, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		return "", errInvalid
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(payload)
	if err != nil || !utf8.Valid(raw) {
		return "", errInvalid
	}
	var id string
	if err := json.Unmarshal(raw, &id); err != nil || p.EncodeURI(id) != u {
		return "", errInvalid
	}
	return id, nil
}

// FormatMention is not implemented; a method without an error result says so by panicking.
func (Port) FormatMention(goport.Reference) string {
	panic(fmt.Errorf("uriport: mentions: %w", errors.ErrUnsupported))
}

// ParseMentions is not implemented.
func (Port) ParseMentions(string) (goport.ParsedText, error) {
	return goport.ParsedText{}, fmt.Errorf("uriport: mentions: %w", errors.ErrUnsupported)
}

// NewService is not implemented.
func (Port) NewService(goport.SessionStore, goport.Config) (goport.Service, error) {
	return nil, fmt.Errorf("uriport: the service: %w", errors.ErrUnsupported)
}
