package mention_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

const (
	hiD83D = "\xed\xa0\xbd" // the high half of U+1F600 as a lone surrogate
	loDE00 = "\xed\xb8\x80" // its low half
	hiD800 = "\xed\xa0\x80"
)

var (
	uA  = uri.Encode("a")  // dsh-session:ImEi
	uB  = uri.Encode("b")  // dsh-session:ImIi
	uAB = uri.Encode("ab") // a payload that starts like uA's
)

func TestFormat(t *testing.T) {
	tests := []struct{ id, label, want string }{
		{"a", "a", "@[a](dsh-session:ImEi)"},
		{"a", "", "@[](dsh-session:ImEi)"},
		{"a", `x\y`, `@[x\\y](dsh-session:ImEi)`},
		{"a", `x]y`, `@[x\]y](dsh-session:ImEi)`},
		{"a", `\]`, `@[\\\]](dsh-session:ImEi)`},
		{"a", "[(x)]", `@[[(x)\]](dsh-session:ImEi)`}, // only \ and ] are escaped
		{"a", "two\nlines", "@[two\nlines](dsh-session:ImEi)"},
		{"", "", "@[](dsh-session:IiI)"},
		{"b", "😀 Plan", "@[😀 Plan](" + uB + ")"},
	}
	for _, tt := range tests {
		if got := mention.Format(tt.id, tt.label); got != tt.want {
			t.Errorf("Format(%q, %q) = %q; want %q", tt.id, tt.label, got, tt.want)
		}
	}
	if got := mention.EscapeLabel(`a\b]c`); got != `a\\b\]c` {
		t.Errorf("EscapeLabel = %q", got)
	}
	if got := mention.EscapeLabel("plain"); got != "plain" {
		t.Errorf("EscapeLabel(plain) = %q", got)
	}
}

func refs(pairs ...string) []mention.Reference {
	var out []mention.Reference
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, mention.Reference{SessionID: pairs[i], Label: pairs[i+1]})
	}
	return out
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		text string
		refs []mention.Reference
	}{
		{"no scheme", "hello @[a](x)", "hello @[a](x)", nil},
		{"empty", "", "", nil},
		{"markdown", "see @[Plan](" + uA + ") now", "see @Plan now", refs("a", "Plan")},
		{"markdown empty label", "@[](" + uA + ")", "@", refs("a", "")},
		{"bare", "see " + uA + " now", "see @a now", refs("a", "a")},
		{"bare inside a word, delimited", "foo" + uA + ".bar", "foo@a.bar", refs("a", "a")},
		{"bare followed by paren", "(" + uA + ")", "(@a)", refs("a", "a")},
		{"scheme only stays text", "dsh-session: and dsh-session:", "dsh-session: and dsh-session:", nil},
		{"punctuation-only payload stays text", "dsh-session:!!! dsh-session:=", "dsh-session:!!! dsh-session:=", nil},
		{"scheme in markdown label", "@[dsh-session:](" + uA + ")", "@dsh-session:", refs("a", "dsh-session:")},
		{"escaped bracket in label", `@[a\]b](` + uA + `)`, "@a]b", refs("a", "a]b")},
		{"escaped backslash in label", `@[a\\](` + uA + `)`, `@a\`, refs("a", `a\`)},
		{"escape of any char", `@[\x\(\)](` + uA + `)`, "@x()", refs("a", "x()")},
		{"escaped emoji", `@[\😀](` + uA + `)`, "@😀", refs("a", "😀")},
		{"newline in label", "@[a\nb](" + uA + ")", "@a\nb", refs("a", "a\nb")},
		{
			// `\` cannot escape a line terminator, so the Markdown form fails at '@' and only
			// the bare URI inside it matches.
			"backslash newline in label", "@[a\\\nb](" + uA + ")", "@[a\\\nb](@a)", refs("a", "a"),
		},
		{"backslash U+2028 in label", "@[a\\\u2028b](" + uA + ")", "@[a\\\u2028b](@a)", refs("a", "a")},
		{"unclosed label", "@[a(" + uA + ")", "@[a(@a)", refs("a", "a")},
		{"label bracket not followed by paren", "@[a] (" + uA + ")", "@[a] (@a)", refs("a", "a")},
		{"several, duplicates kept", uA + " @[B](" + uB + ") " + uA, "@a @B @a", refs("a", "a", "b", "B", "a", "a")},
		{"adjacent", uA + "@[x](" + uB + ")", "@a@x", refs("a", "a", "b", "x")},
		{"nested bracket label", "@[[x](" + uA + ")", "@[x", refs("a", "[x")},
		{"at-sign before", "@@[x](" + uA + ")", "@@x", refs("a", "x")},
		{"empty id", "@[e](dsh-session:IiI)", "@e", refs("", "e")},
		{"bare empty id", "dsh-session:IiI", "@", refs("", "")},
		{"lone surrogate id", uri.Encode(hiD800), "@" + hiD800, refs(hiD800, hiD800)},
		{"longer payload wins", uAB, "@ab", refs("ab", "ab")},
		{
			// U+00A0 is JavaScript whitespace: it ends the Markdown URI, which then lacks
			// its ')', so only the bare URI matches.
			"NBSP ends markdown uri", "@[x](" + uA + "\u00a0)", "@[x](@a\u00a0)", refs("a", "a"),
		},
		{"FEFF ends markdown uri", "@[x](" + uA + "\uFEFF)", "@[x](@a\uFEFF)", refs("a", "a")},
		{"U+2028 ends markdown uri", "@[x](" + uA + "\u2028)", "@[x](@a\u2028)", refs("a", "a")},
		{"U+3000 ends markdown uri", "@[x](" + uA + "\u3000)", "@[x](@a\u3000)", refs("a", "a")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mention.Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			want := mention.Parsed{Text: tt.text, References: tt.refs}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, d)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct{ name, in string }{
		{"markdown empty uri", "@[x](dsh-session:)"},
		{"markdown padded uri", "@[x](dsh-session:IiI=)"},
		{"markdown bad chars", "@[x](dsh-session:Im.Ei)"},
		{"markdown non-canonical", "@[x](dsh-session:ImEj)"},
		{"markdown non-string JSON", "@[x](" + uri.EncodeJSON([]byte("1")) + ")"},
		{"markdown uri with bracket", "@[x](dsh-session:ImEi])"},
		{"bare non-canonical", "see dsh-session:ImEj"},
		{"bare payload glued to a word", "x" + uA + "y"},
		{"NEL is no whitespace: it is part of the markdown uri", "@[x](" + uA + "\u0085)"},
		{"bare non-string JSON", uri.EncodeJSON([]byte(`{"a":1}`))},
		{"first failure aborts after a good mention", uA + " dsh-session:ImEj " + uB},
		{"failure before a good mention", "dsh-session:x " + uA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mention.Parse(tt.in)
			if !errors.Is(err, errcode.InvalidReference) {
				t.Fatalf("Parse(%q) = %+v, %v; want INVALID_REFERENCE", tt.in, got, err)
			}
			if got.Text != "" || got.References != nil {
				t.Errorf("partial result %+v", got)
			}
		})
	}
	// The error names the first failing URI.
	_, err := mention.Parse("dsh-session:ImEj @[x](dsh-session:)")
	if err == nil || !strings.Contains(err.Error(), `"dsh-session:ImEj"`) {
		t.Errorf("error %v does not name the first failing URI", err)
	}
}

// JavaScript strings are UTF-16: a label ending with a high surrogate joins a low surrogate
// that follows the mention, and the result is one code point.
func TestParseJoinsSurrogates(t *testing.T) {
	in := "@[x" + hiD83D + "](" + uA + ")" + loDE00 + "!"
	got, err := mention.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := "@x😀!"; got.Text != want {
		t.Errorf("Text = %+q; want %+q", got.Text, want)
	}
	if want := refs("a", "x"+hiD83D); !cmp.Equal(got.References, want) {
		t.Errorf("References = %+q; want %+q", got.References, want)
	}
	if !js.Canonical(got.Text) {
		t.Errorf("Text %+q is not canonical", got.Text)
	}
	// The same with a bare URI whose id ends with a high surrogate.
	in = uri.Encode("y"+hiD83D) + loDE00
	got, err = mention.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := "@y😀"; got.Text != want {
		t.Errorf("bare: Text = %+q; want %+q", got.Text, want)
	}
	// The text is canonical even when nothing matches: a split pair is one code point.
	for _, in := range []string{"x" + hiD83D + loDE00, "@[" + hiD83D + loDE00 + "dsh-session:"} {
		if got, err := mention.Parse(in); err != nil || got.Text != js.Normalize(in) || !js.Canonical(got.Text) {
			t.Errorf("Parse(%+q).Text = %+q, %v; want %+q", in, got.Text, err, js.Normalize(in))
		}
	}
	// An escaped lone surrogate in a label is kept.
	got, err = mention.Parse(`@[\` + hiD800 + `](` + uA + ")")
	if err != nil || got.References[0].Label != hiD800 {
		t.Errorf("escaped lone surrogate: %+v, %v", got, err)
	}
}

// genLabel draws labels rich in the characters the mention grammar treats specially.
var genLabel = rapid.Custom(func(t *rapid.T) string {
	parts := rapid.SliceOfN(rapid.SampledFrom([]string{
		"a", "Z", " ", `\`, "]", "[", "(", ")", "@", "\n", "\u2028", "\u00a0", "😀", hiD83D, loDE00, "dsh-session:", "é",
	}), 0, 8).Draw(t, "parts")
	return strings.Join(parts, "")
})

// Format of any id and label parses back to the same reference unless the label holds a line
// terminator right after an escaping backslash (which the grammar cannot express).
func TestFormatParseRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		id := js.Normalize(genLabel.Draw(t, "id"))
		label := js.Normalize(genLabel.Draw(t, "label"))
		m := mention.Format(id, label)
		got, err := mention.Parse(m)
		if err != nil {
			t.Fatalf("Parse(Format(%+q, %+q)) = %v", id, label, err)
		}
		want := []mention.Reference{{SessionID: id, Label: label}}
		if !cmp.Equal(got.References, want) {
			t.Fatalf("Parse(%+q).References = %+q; want %+q", m, got.References, want)
		}
		if got.Text != js.Normalize("@"+label) {
			t.Fatalf("Parse(%+q).Text = %+q", m, got.Text)
		}
	})
}
