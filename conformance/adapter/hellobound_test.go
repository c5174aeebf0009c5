package adapter_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

type helloFunc func() *wire.Object

func (h helloFunc) Handle(_ context.Context, req protocol.Request) protocol.Response {
	return protocol.Response{ID: req.ID, OK: true, Result: h()}
}

// TestHugeHelloIsBounded: a hello's name, version and spec are shown in every report (the
// text header, each JUnit suite, the HTML page), so a name of 10 MB and 100,000 features made
// a 120 MB page and a 10 MB line on the terminal. The client keeps 256 bytes of each text,
// saying how much it left out, the features the protocol names, and 16 others.
func TestHugeHelloIsBounded(t *testing.T) {
	big := strings.Repeat("é", 5_000_000)
	features := []any{"f-typo", protocol.FeatureHost}
	for i := range 100_000 {
		features = append(features, fmt.Sprint("x", i))
	}
	features = append(features, protocol.FeatureLoneSurrogates, protocol.FeatureHost, strings.Repeat("y", 100))
	h := helloFunc(func() *wire.Object {
		return wire.NewObject().Set("protocol", float64(protocol.Version)).Set("name", big).
			Set("version", "1.0").Set("spec", big).Set("features", features)
	})
	cl, err := adapter.Connect(context.Background(), adapter.InProcess{H: h})
	if err != nil {
		t.Fatal(err)
	}
	got := cl.Hello
	if len(got.Name) > 300 || !strings.HasSuffix(got.Name, "… (9999744 more bytes)") || !strings.HasPrefix(got.Name, "éé") {
		t.Errorf("name %d bytes: %.40q…%q", len(got.Name), got.Name, got.Name[max(0, len(got.Name)-30):])
	}
	if len(got.Spec) > 300 || got.Version != "1.0" {
		t.Errorf("spec %d bytes, version %q", len(got.Spec), got.Version)
	}
	if len(got.Features) != 18 || got.Features[0] != "f-typo" || got.Features[1] != protocol.FeatureHost || got.Features[17] != protocol.FeatureLoneSurrogates {
		t.Errorf("features %q", got.Features)
	}
	if !cl.Supports(protocol.FeatureLoneSurrogates) || !cl.Supports(protocol.FeatureHost) {
		t.Error("a feature the protocol names, declared after 100,000 others, was dropped")
	}
}
