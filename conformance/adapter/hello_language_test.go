package adapter_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// helloWith answers hello with the given language key (absent for nil).
type helloWith struct{ language any }

func (h helloWith) Handle(_ context.Context, req protocol.Request) protocol.Response {
	o := wire.NewObject().Set("protocol", float64(protocol.Version)).Set("name", "n").Set("version", "1").Set("spec", "0.0.1-rc.1")
	if h.language != nil {
		o.Set("language", h.language)
	}
	return protocol.Response{ID: req.ID, OK: true, Result: o.Set("features", []any{})}
}

// The hello's optional language is kept as given when it is a short string, and dropped
// otherwise (a long text is no language id; it reaches reports, so it stays bounded).
func TestHelloLanguage(t *testing.T) {
	for _, tc := range []struct {
		language any
		want     string
	}{
		{nil, ""},
		{"Java", "Java"},
		{7.0, ""},
		{strings.Repeat("x", 300), ""},
	} {
		c, err := adapter.Connect(context.Background(), adapter.InProcess{H: helloWith{tc.language}})
		if err != nil {
			t.Fatal(err)
		}
		if c.Hello.Language != tc.want {
			t.Errorf("language %v: Hello.Language = %q, want %q", tc.language, c.Hello.Language, tc.want)
		}
	}
}
