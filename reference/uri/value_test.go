package uri_test

import (
	"errors"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// EncodeValue is JSON.stringify then base64url, whatever the type; only undefined fails.
func TestEncodeValue(t *testing.T) {
	for _, tt := range []struct {
		arg  jsjson.Arg
		want string
	}{
		{jsjson.Given("abc"), uri.Encode("abc")},
		{jsjson.Given("\xed\xa0\x80"), uri.Encode("\xed\xa0\x80")}, // a lone surrogate
		{jsjson.Given(5.0), "dsh-session:NQ"},
		{jsjson.Given(nil), "dsh-session:bnVsbA"},
		{jsjson.Given(jsjson.NewObject().Set("a", true)), "dsh-session:eyJhIjp0cnVlfQ"},
	} {
		got, err := uri.EncodeValue(tt.arg)
		if err != nil || got != tt.want {
			t.Errorf("EncodeValue(%#v) = %q, %v; want %q", tt.arg.Value, got, err, tt.want)
		}
	}
	_, err := uri.EncodeValue(jsjson.Arg{})
	var te *errcode.TypeError
	if !errors.As(err, &te) || errcode.Of(err) != "" {
		t.Errorf("undefined: %v; want a TypeError", err)
	}
}

func TestDecodeValue(t *testing.T) {
	if got, err := uri.DecodeValue(jsjson.Given(uri.Encode("x"))); err != nil || got != "x" {
		t.Errorf("DecodeValue = %q, %v", got, err)
	}
	if _, err := uri.DecodeValue(jsjson.Given("dsh-session:")); !errors.Is(err, errcode.InvalidReference) {
		t.Errorf("bad URI: %v", err)
	}
	for _, a := range []jsjson.Arg{{}, jsjson.Given(nil), jsjson.Given(1.0), jsjson.Given([]any{})} {
		_, err := uri.DecodeValue(a)
		var te *errcode.TypeError
		if !errors.As(err, &te) || err.Error() != "uri.startsWith is not a function" {
			t.Errorf("DecodeValue(%#v): %v; want a TypeError", a, err)
		}
	}
}
