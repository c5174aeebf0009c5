package uri_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

const (
	hiD800 = "\xed\xa0\x80" // a lone high surrogate in WTF-8
	loDC00 = "\xed\xb0\x80" // a lone low surrogate
	hiD83D = "\xed\xa0\xbd" // the high half of U+1F600
	loDE00 = "\xed\xb8\x80" // its low half
)

// payload returns the base64url form of raw JSON text, as the scheme carries it.
func payload(jsonText string) string {
	return uri.Scheme + base64.RawURLEncoding.EncodeToString([]byte(jsonText))
}

func TestEncodeKnownVectors(t *testing.T) {
	tests := []struct{ id, want string }{
		{"a", "dsh-session:ImEi"},
		{"", "dsh-session:IiI"},
		{"session-1", payload(`"session-1"`)},
		{`"`, payload(`"\""`)},
		{`\`, payload(`"\\"`)},
		{"<", payload(`"<"`)}, // no tag-safe escaping in URIs
		{"\u2028", payload("\"\u2028\"")},
		{"\x00\x1f\t\n", payload(`"\u0000\u001f\t\n"`)},
		{"\x7f", payload("\"\x7f\"")},
		{"😀", payload(`"😀"`)},
		{hiD800, payload(`"\ud800"`)},
		{loDC00 + "x", payload(`"\udc00x"`)},
		{hiD83D + loDE00, payload(`"😀"`)}, // a split pair is the JavaScript string "😀"
	}
	for _, tt := range tests {
		if got := uri.Encode(tt.id); got != tt.want {
			t.Errorf("Encode(%+q) = %q; want %q", tt.id, got, tt.want)
		}
	}
	if got := uri.EncodeJSON([]byte(`{"a":1}`)); got != payload(`{"a":1}`) {
		t.Errorf("EncodeJSON = %q", got)
	}
}

func TestRoundTrip(t *testing.T) {
	ids := []string{
		"", "a", "abc", "session-0001", `"`, `\`, `\\"`, "<script>", "\u2028\u2029", "\x00", "\x01\x1f",
		"\b\f\n\r\t", "\x7f", "é", "中文", "😀", "👩‍👩‍👧", "\uFEFF", "\uFFFD", hiD800, loDC00,
		hiD800 + hiD800, loDC00 + hiD800, "a" + hiD800 + "b", "\U0010FFFF", strings.Repeat("x", 1000),
		"ends with high " + hiD800, "/home/user/project name", "=", "==", "a+b/c",
	}
	for _, id := range ids {
		u := uri.Encode(id)
		if !strings.HasPrefix(u, uri.Scheme) {
			t.Errorf("Encode(%+q) = %q lacks the scheme", id, u)
		}
		for i := len(uri.Scheme); i < len(u); i++ {
			if !uri.IsPayloadByte(u[i]) {
				t.Errorf("Encode(%+q) = %q has byte %q outside the payload alphabet", id, u, u[i])
			}
		}
		got, err := uri.Decode(u)
		if err != nil {
			t.Errorf("Decode(Encode(%+q)) failed: %v", id, err)
			continue
		}
		if got != id {
			t.Errorf("Decode(Encode(%+q)) = %+q", id, got)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	good := uri.Encode("a")
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"missing scheme", "ImEi"},
		{"other scheme", "dsh-sessions:ImEi"},
		{"upper-case scheme", "DSH-SESSION:ImEi"},
		{"leading space", " " + good},
		{"empty payload", "dsh-session:"},
		{"padding", "dsh-session:IiI="},
		{"padding on full quantum", payload(`"ab"`) + "=="},
		{"standard base64 plus", "dsh-session:Ij4+Ig"},
		{"standard base64 slash", "dsh-session:Ij8/Ig"},
		{"trailing space", good + " "},
		{"trailing newline", good + "\n"},
		{"dot", "dsh-session:Im.Ei"},
		{"non-ASCII", "dsh-session:ImEié"},
		{"one stray char", good + "A"},      // length 1 mod 4: Node drops it, re-encoding differs
		{"stray bits", "dsh-session:ImEj"},  // "a" with non-zero padding bits
		{"stray bits 2", "dsh-session:IiJ"}, // `""` with non-zero padding bits
		{"whitespace in JSON", payload(` "a"`)},
		{"whitespace after JSON", payload(`"a" `)},
		{"non-minimal escape", payload(`"\u0061"`)},
		{"upper-case surrogate escape", payload(`"\uD800"`)},
		{"escaped slash", payload(`"\/"`)},
		{"raw control char", payload("\"\x01\"")},
		{"escaped pair", payload(`"\ud83d\ude00"`)},
		{"number", payload(`1`)},
		{"null", payload(`null`)},
		{"true", payload(`true`)},
		{"array", payload(`["a"]`)},
		{"object", payload(`{"a":1}`)},
		{"bad JSON", payload(`"a`)},
		{"two strings", payload(`"a""b"`)},
		{"invalid UTF-8 payload", payload("\"\xff\"")},
		{"WTF-8 surrogate bytes", payload("\"" + hiD800 + "\"")},
		{"overlong UTF-8", payload("\"\xc0\xaf\"")},
		{"BOM before JSON", payload("\uFEFF\"a\"")},
		{"mention form", "@[a](" + good + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := uri.Decode(tt.in)
			if err == nil {
				t.Fatalf("Decode(%q) = %+q; want an error", tt.in, id)
			}
			if !errors.Is(err, errcode.InvalidReference) {
				t.Fatalf("Decode(%q) error %v is not INVALID_REFERENCE", tt.in, err)
			}
			if errcode.Of(err) != errcode.InvalidReference {
				t.Fatalf("Of = %q", errcode.Of(err))
			}
			if !strings.Contains(err.Error(), "invalid session reference URI") {
				t.Errorf("message %q", err.Error())
			}
		})
	}
}

// The message quotes the URI as JSON.stringify does.
func TestDecodeErrorMessage(t *testing.T) {
	_, err := uri.Decode("x\"" + hiD800)
	if want := `invalid session reference URI "x\"\ud800"`; err == nil || err.Error() != want {
		t.Fatalf("error %v; want %q", err, want)
	}
}

var genID = rapid.Custom(func(t *rapid.T) string {
	parts := rapid.SliceOfN(rapid.SampledFrom([]string{
		"a", "Z", "0", "-", "_", " ", `"`, `\`, "<", ">", "&", "\x00", "\x1f", "\n", "\x7f",
		"é", "中", "😀", "\u2028", "\uFEFF", hiD800, loDC00, hiD83D, loDE00, "=", "+", "/",
	}), 0, 12).Draw(t, "parts")
	return strings.Join(parts, "")
})

func TestRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genID.Draw(t, "id")
		u := uri.Encode(s)
		got, err := uri.Decode(u)
		if err != nil {
			t.Fatalf("Decode(Encode(%+q)) failed: %v", s, err)
		}
		if want := js.Normalize(s); got != want {
			t.Fatalf("Decode(Encode(%+q)) = %+q; want %+q", s, got, want)
		}
		if uri.Encode(got) != u {
			t.Fatalf("Encode is not stable under normalization")
		}
		// Any single-byte change of the payload is either rejected or decodes to an id whose
		// canonical URI is exactly the changed text.
		i := rapid.IntRange(len(uri.Scheme), len(u)-1).Draw(t, "pos")
		c := rapid.SampledFrom([]byte("AZaz09-_=+/. ")).Draw(t, "byte")
		mut := u[:i] + string(c) + u[i+1:]
		if id, err := uri.Decode(mut); err == nil && uri.Encode(id) != mut {
			t.Fatalf("Decode(%q) = %+q but Encode gives %q", mut, id, uri.Encode(id))
		}
	})
}
