package goport_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
)

// uriPort encodes URIs as the seed does, JSON.stringify then base64url: for a string id
// through EncodeURI, and for an id JavaScript may pass with any other type through the
// escape hatch, EncodeURIValue, whose argument is already that JSON text.
type uriPort struct{}

func (uriPort) Features() []goport.Feature { return nil }

func (uriPort) EncodeURI(id string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range id {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case strings.ContainsRune("\b\f\n\r\t", r):
			b.WriteString(map[rune]string{'\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}[r])
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return "dsh-session:" + base64.RawURLEncoding.EncodeToString([]byte(b.String()))
}

func (uriPort) EncodeURIValue(id goport.Value) (string, error) {
	if id == nil { // undefined: JSON.stringify returns undefined, which Buffer.from rejects
		return "", errors.New("the session id is undefined")
	}
	return "dsh-session:" + base64.RawURLEncoding.EncodeToString(id), nil
}

func (uriPort) DecodeURI(string) (string, error) { return "", errors.ErrUnsupported }
func (uriPort) DecodeURIValue(goport.Value) (string, error) {
	return "", errors.ErrUnsupported
}
func (uriPort) FormatMention(goport.Reference) string { panic(errors.ErrUnsupported) }
func (uriPort) FormatMentionValue(_, _ goport.Value) (string, error) {
	return "", errors.ErrUnsupported
}
func (uriPort) ParseMentions(string) (goport.ParsedText, error) {
	return goport.ParsedText{}, errors.ErrUnsupported
}
func (uriPort) ParseMentionsValue(goport.Value) (goport.ParsedText, error) {
	return goport.ParsedText{}, errors.ErrUnsupported
}
func (uriPort) NewService(goport.SessionStore, goport.Config) (goport.Service, error) {
	return nil, errors.ErrUnsupported
}
func (uriPort) NewServiceValue(goport.SessionStore, goport.Value) (goport.Service, error) {
	return nil, errors.ErrUnsupported
}

func ExampleValuePort() {
	var _ goport.ValuePort = uriPort{}
	rep, err := conformancetest.Certify(context.Background(), uriPort{}, conformancetest.Options{Match: "^fixtures/uri-encode"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d passed, %d failed, %d not covered\n", rep.Totals.Pass, rep.Totals.Fail, rep.Totals.NotCovered)
	for _, c := range rep.Cases {
		if c.Status != "pass" {
			fmt.Printf("%s %s: %s\n", c.Status, c.Name, c.Message)
		}
	}
	// Output:
	// 20 passed, 0 failed, 3 not covered
	// not-covered uri-encode/lone-high-surrogate: the port does not declare goport.FeatureLoneSurrogates
	// not-covered uri-encode/lone-low-surrogate: the port does not declare goport.FeatureLoneSurrogates
	// not-covered uri-encode/reversed-pair: the port does not declare goport.FeatureLoneSurrogates
}
