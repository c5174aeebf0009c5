package jsstring_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"pgregory.net/rapid"

	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// Raw WTF-8 forms of surrogate code units, written byte by byte so that a high one followed by
// a low one stays split (non-canonical) instead of being joined into a pair.
const (
	hiD800  = "\xed\xa0\x80"
	hiD801  = "\xed\xa0\x81"
	hiDBFF  = "\xed\xaf\xbf"
	loDC00  = "\xed\xb0\x80"
	loDFFF  = "\xed\xbf\xbf"
	u10000  = "\U00010000"
	u10400  = "\U00010400" // DESERET CAPITAL LETTER LONG I = D801 DC00
	u10428  = "\U00010428" // its lowercase
	u10FFFF = "\U0010FFFF"
)

func TestDecodeRune(t *testing.T) {
	tests := []struct {
		in   string
		r    rune
		size int
	}{
		{"", utf8.RuneError, 0},
		{"a", 'a', 1},
		{"\x00", 0, 1},
		{"\x7f", 0x7F, 1},
		{"é", 0xE9, 2},
		{"\u2028x", 0x2028, 3},
		{"\uFEFF", 0xFEFF, 3},
		{"\uFFFD", 0xFFFD, 3},
		{u10000, 0x10000, 4},
		{u10FFFF, 0x10FFFF, 4},
		{hiD800, 0xD800, 3},
		{hiDBFF + "x", 0xDBFF, 3},
		{loDC00, 0xDC00, 3},
		{loDFFF, 0xDFFF, 3},
		{hiD801 + loDC00, 0xD801, 3}, // a split pair is read one half at a time
		{"\xed\xa0", utf8.RuneError, 1},
		{"\xed", utf8.RuneError, 1},
		{"\xed\xa0\xc0", utf8.RuneError, 1},
		{"\xff", utf8.RuneError, 1},
		{"\x80", utf8.RuneError, 1},
		{"\xc0\x80", utf8.RuneError, 1},         // overlong NUL
		{"\xe0\x80\x80", utf8.RuneError, 1},     // overlong
		{"\xf4\x90\x80\x80", utf8.RuneError, 1}, // beyond U+10FFFF
		{"\xf0\xed\xa0\x80", utf8.RuneError, 1}, // a surrogate inside a 4-byte lead
		{"\xf0\x90\x80", utf8.RuneError, 1},     // truncated
		{"\xc3", utf8.RuneError, 1},             // truncated
		{"\xef\xbb\xbfrest", 0xFEFF, 3},         // BOM
	}
	for _, tc := range tests {
		r, n := js.DecodeRune(tc.in)
		if r != tc.r || n != tc.size {
			t.Errorf("DecodeRune(%q) = %U, %d; want %U, %d", tc.in, r, n, tc.r, tc.size)
		}
	}
}

func TestDecodeLastRune(t *testing.T) {
	tests := []struct {
		in   string
		r    rune
		size int
	}{
		{"", utf8.RuneError, 0},
		{"a", 'a', 1},
		{"xé", 0xE9, 2},
		{"x" + u10FFFF, 0x10FFFF, 4},
		{"x" + hiD800, 0xD800, 3},
		{hiD801 + loDC00, 0xDC00, 3},
		{loDFFF, 0xDFFF, 3},
		{"\xa0\x80", utf8.RuneError, 1},
		{"\xed\xa0", utf8.RuneError, 1},
		{"a\xff", utf8.RuneError, 1},
		{"\xf0\x90\x80", utf8.RuneError, 1},
		{"\u2029", 0x2029, 3},
	}
	for _, tc := range tests {
		r, n := js.DecodeLastRune(tc.in)
		if r != tc.r || n != tc.size {
			t.Errorf("DecodeLastRune(%q) = %U, %d; want %U, %d", tc.in, r, n, tc.r, tc.size)
		}
	}
}

func TestAppendRune(t *testing.T) {
	tests := []struct {
		r    rune
		want string
	}{
		{'a', "a"},
		{0, "\x00"},
		{0xE9, "é"},
		{0xD800, hiD800},
		{0xDBFF, hiDBFF},
		{0xDC00, loDC00},
		{0xDFFF, loDFFF},
		{0x10400, u10400},
		{-1, "\uFFFD"},
		{0x110000, "\uFFFD"},
	}
	for _, tc := range tests {
		if got := string(js.AppendRune([]byte("<"), tc.r)); got != "<"+tc.want {
			t.Errorf("AppendRune(%U) = %q; want %q", tc.r, got, "<"+tc.want)
		}
	}
	// AppendRune does not join: that is Builder's job.
	if got := string(js.AppendRune([]byte(hiD801), 0xDC00)); got != hiD801+loDC00 {
		t.Errorf("AppendRune joined a pair: %q", got)
	}
	for r := rune(0); r <= 0x10FFFF; r++ {
		b := js.AppendRune(nil, r)
		if got, n := js.DecodeRune(string(b)); got != r || n != len(b) {
			t.Fatalf("DecodeRune(AppendRune(%U)) = %U, %d; want %U, %d", r, got, n, r, len(b))
		}
		if got, n := js.DecodeLastRune(string(b)); got != r || n != len(b) {
			t.Fatalf("DecodeLastRune(AppendRune(%U)) = %U, %d", r, got, n)
		}
		if js.IsSurrogate(r) != (r >= 0xD800 && r <= 0xDFFF) {
			t.Fatalf("IsSurrogate(%U)", r)
		}
	}
}

func TestUTF16(t *testing.T) {
	tests := []struct {
		s     string
		units []uint16
	}{
		{"", []uint16{}},
		{"a", []uint16{'a'}},
		{"\uFEFFé", []uint16{0xFEFF, 0xE9}},
		{u10000, []uint16{0xD800, 0xDC00}},
		{u10400, []uint16{0xD801, 0xDC00}},
		{u10FFFF, []uint16{0xDBFF, 0xDFFF}},
		{hiD800, []uint16{0xD800}},
		{loDC00 + hiD800, []uint16{0xDC00, 0xD800}},
		{hiD801 + loDC00, []uint16{0xD801, 0xDC00}}, // split pair: same code units as the pair
		{"a\xffb", []uint16{'a', 0xFFFD, 'b'}},
		{"\xed\xa0", []uint16{0xFFFD, 0xFFFD}},
	}
	for _, tc := range tests {
		got := js.UTF16(tc.s)
		if !slices.Equal(got, tc.units) {
			t.Errorf("UTF16(%q) = %04X; want %04X", tc.s, got, tc.units)
		}
		if n := js.Length(tc.s); n != len(tc.units) {
			t.Errorf("Length(%q) = %d; want %d", tc.s, n, len(tc.units))
		}
	}
}

func TestFromUTF16(t *testing.T) {
	tests := []struct {
		units []uint16
		want  string
	}{
		{nil, ""},
		{[]uint16{'a', 'b'}, "ab"},
		{[]uint16{0xD800}, hiD800},
		{[]uint16{0xDC00}, loDC00},
		{[]uint16{0xD801, 0xDC00}, u10400},
		{[]uint16{0xDC00, 0xD801}, loDC00 + hiD801},
		{[]uint16{0xD800, 0xD800, 0xDC00}, hiD800 + u10000},
		{[]uint16{0xD800, 'x', 0xDC00}, hiD800 + "x" + loDC00},
		{[]uint16{0xDBFF, 0xDFFF, 0xDFFF}, u10FFFF + loDFFF},
		{[]uint16{0xFFFD, 0xFEFF, 0x2028}, "\uFFFD\uFEFF\u2028"},
	}
	for _, tc := range tests {
		got := js.FromUTF16(tc.units)
		if got != tc.want {
			t.Errorf("FromUTF16(%04X) = %q; want %q", tc.units, got, tc.want)
		}
		if !js.Canonical(got) {
			t.Errorf("FromUTF16(%04X) = %q is not canonical", tc.units, got)
		}
		if u := js.UTF16(got); !slices.Equal(u, tc.units) {
			t.Errorf("UTF16(FromUTF16(%04X)) = %04X", tc.units, u)
		}
	}
}

func TestCanonicalNormalize(t *testing.T) {
	tests := []struct {
		in        string
		canonical bool
		norm      string
	}{
		{"", true, ""},
		{"abc", true, "abc"},
		{"\uFEFF\u2028\u2029\x7f", true, "\uFEFF\u2028\u2029\x7f"},
		{hiD800, true, hiD800},
		{loDC00, true, loDC00},
		{loDC00 + hiD800, true, loDC00 + hiD800},
		{hiD800 + "a" + loDC00, true, hiD800 + "a" + loDC00},
		{hiD800 + hiD800, true, hiD800 + hiD800},
		{u10400, true, u10400},
		{hiD801 + loDC00, false, u10400},
		{"x" + hiD801 + loDC00 + "y", false, "x" + u10400 + "y"},
		{hiD800 + hiD801 + loDC00 + loDC00, false, hiD800 + u10400 + loDC00},
		{"\xff", false, "\uFFFD"},
		{"a\x80b", false, "a\uFFFDb"},
		{"\xed\xa0", false, "\uFFFD\uFFFD"},
		{"\xc0\xaf", false, "\uFFFD\uFFFD"},
		{hiD801 + "\xff" + loDC00, false, hiD801 + "\uFFFD" + loDC00},
	}
	for _, tc := range tests {
		if got := js.Canonical(tc.in); got != tc.canonical {
			t.Errorf("Canonical(%q) = %v; want %v", tc.in, got, tc.canonical)
		}
		got := js.Normalize(tc.in)
		if got != tc.norm {
			t.Errorf("Normalize(%q) = %q; want %q", tc.in, got, tc.norm)
		}
		if !js.Canonical(got) {
			t.Errorf("Normalize(%q) = %q is not canonical", tc.in, got)
		}
	}
}

func TestWellFormed(t *testing.T) {
	tests := []struct {
		in         string
		wellFormed bool
		toWF       string // TextEncoder's bytes
		byteLen    int    // Buffer.byteLength
	}{
		{"", true, "", 0},
		{"abc", true, "abc", 3},
		{"\uFEFF€" + u10000, true, "\uFEFF€" + u10000, 10},
		{hiD800, false, "\uFFFD", 3},
		{loDFFF, false, "\uFFFD", 3},
		{"a" + hiD800 + "b" + loDC00, false, "a\uFFFDb\uFFFD", 8},
		{loDC00 + hiD800, false, "\uFFFD\uFFFD", 6},
		{hiD801 + loDC00, true, u10400, 4}, // a split pair is one well-formed pair
		{hiD800 + hiD801 + loDC00, false, "\uFFFD" + u10400, 7},
		{"\xff", false, "\uFFFD", 3},
		{"a\xed\xa0", false, "a\uFFFD\uFFFD", 7},
	}
	for _, tc := range tests {
		if got := js.WellFormed(tc.in); got != tc.wellFormed {
			t.Errorf("WellFormed(%q) = %v; want %v", tc.in, got, tc.wellFormed)
		}
		if got := js.ToWellFormed(tc.in); got != tc.toWF {
			t.Errorf("ToWellFormed(%q) = %q; want %q", tc.in, got, tc.toWF)
		}
		if got := js.ByteLength(tc.in); got != tc.byteLen {
			t.Errorf("ByteLength(%q) = %d; want %d", tc.in, got, tc.byteLen)
		}
	}
	// Invalid bytes make a string not well-formed (documented), even though they read as U+FFFD.
	if js.WellFormed("\xff") {
		t.Error(`WellFormed("\xff") = true`)
	}
	// A split pair denotes a well-formed JavaScript string.
	if !js.WellFormed(hiD801 + loDC00) {
		t.Error("WellFormed(split pair) = false; the JavaScript string is one well-formed pair")
	}
}

func TestBuilder(t *testing.T) {
	var b js.Builder
	if b.String() != "" || b.Len() != 0 {
		t.Fatal("zero Builder not empty")
	}
	b.WriteUnit(0xD801)
	b.WriteUnit(0xDC00) // joins with the high surrogate
	if got := b.String(); got != u10400 {
		t.Fatalf("WriteUnit D801 DC00 = %q; want %q", got, u10400)
	}
	b.WriteRune(0xDC00) // no high surrogate before it now: stays lone
	if got := b.String(); got != u10400+loDC00 {
		t.Fatalf("got %q", got)
	}
	b.Reset()
	b.WriteString("a" + hiD801)
	b.WriteString(loDC00 + "b")
	if got := b.String(); got != "a"+u10400+"b" {
		t.Fatalf("WriteString across the split = %q", got)
	}
	b.Reset()
	b.WriteString(hiD800)
	b.WriteString("")
	b.WriteRune(0xD800)
	b.WriteString(hiD801 + loDC00) // non-canonical input joins inside WriteString too
	b.WriteString("\xff")
	b.WriteRune('é')
	if got, want := b.String(), hiD800+hiD800+u10400+"\uFFFDé"; got != want {
		t.Fatalf("got %q; want %q", got, want)
	}
	if b.Len() != len(b.String()) {
		t.Fatalf("Len = %d; want %d", b.Len(), len(b.String()))
	}
	b.Grow(100)
	if b.String() != hiD800+hiD800+u10400+"\uFFFDé" {
		t.Fatal("Grow changed the content")
	}
	b.Reset()
	b.WriteRune(0xDBFF)
	b.WriteUnit(0xDFFF)
	b.WriteUnit(0xDFFF)
	if got := b.String(); got != u10FFFF+loDFFF {
		t.Fatalf("got %q", got)
	}
}

func TestConcat(t *testing.T) {
	tests := []struct {
		parts []string
		want  string
	}{
		{nil, ""},
		{[]string{"", ""}, ""},
		{[]string{"a", "b"}, "ab"},
		{[]string{hiD801, loDC00}, u10400},
		{[]string{"x" + hiD801, "", loDC00 + "y"}, "x" + u10400 + "y"},
		{[]string{loDC00, hiD801}, loDC00 + hiD801},
		{[]string{hiD800, hiD801, loDC00, loDC00}, hiD800 + u10400 + loDC00},
		{[]string{"\xff", hiD800}, "\uFFFD" + hiD800},
		{[]string{u10400, loDC00}, u10400 + loDC00},
	}
	for _, tc := range tests {
		if got := js.Concat(tc.parts...); got != tc.want {
			t.Errorf("Concat(%q) = %q; want %q", tc.parts, got, tc.want)
		}
	}
}

func TestIsSpace(t *testing.T) {
	space := []rune{'\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2000, 0x2005, 0x200A,
		0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF}
	notSpace := []rune{0, 'a', 0x1C, 0x1F, 0x7F, 0x85, 0x180E, 0x200B, 0x200C, 0x2060, 0xFFFD,
		0xD800, 0xDC00, 0x10000, -1}
	for _, r := range space {
		if !js.IsSpace(r) {
			t.Errorf("IsSpace(%U) = false", r)
		}
	}
	for _, r := range notSpace {
		if js.IsSpace(r) {
			t.Errorf("IsSpace(%U) = true", r)
		}
	}
	for r := rune(-1); r <= 0x110000; r++ {
		want := r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
		if js.IsLineTerminator(r) != want {
			t.Errorf("IsLineTerminator(%U) = %v", r, !want)
		}
	}
}

func TestToLower(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"abc", "abc"},
		{"ABC xyz", "abc xyz"},
		{"ÀÉÎ", "àéî"},
		{"\u0130", "i\u0307"},     // İ lowercases to two code points
		{"I\u0130I", "ii\u0307i"}, //
		{"Σ", "σ"},                // not preceded by a cased letter
		{"ΑΣ", "ας"},              // final
		{"ΑΣΑ", "ασα"},            // medial
		{"ΑΣ Α", "ας α"},          //
		{"ΑΣ.", "ας."},            // '.' is case-ignorable... and after it nothing cased
		{"ΑΣ.Α", "ασ.α"},          // skipped '.' finds a cased letter after
		{"Α.Σ", "α.ς"},            // skipped '.' before
		{"Α'Σ", "α'ς"},            //
		{"Α:Σ", "α:ς"},            //
		{"Α\u00ADΣ", "α\u00ADς"},  // soft hyphen is case-ignorable
		{"Α\u0307Σ", "α\u0307ς"},  //
		{"Α\u2019Σ", "α\u2019ς"},  //
		{"Α\u00B7Σ", "α\u00B7ς"},  //
		{"Α1Σ", "α1σ"},            // a digit is neither
		{"ΑΣ1Α", "ας1α"},          //
		{"ΑΣ\u0345", "ας\u0345"},  // U+0345 is cased and case-ignorable: ignorable wins
		{"ΑΣ\u0345Α", "ασ\u0345α"},
		{"\u0345Σ", "\u0345σ"},
		{"\u02B0Σ", "\u02B0σ"},   // modifier letter: cased and ignorable
		{"Α\u02B0Σ", "α\u02B0ς"}, //
		{"ΣΣ", "σς"},
		{"ΑΣΣ", "ασς"},
		{"a" + hiD800 + "Σ", "a" + hiD800 + "σ"}, // a lone surrogate is neither cased nor ignorable
		{"aΣ" + loDC00, "aς" + loDC00},
		{hiD800 + "A" + loDC00, hiD800 + "a" + loDC00},
		{u10400 + "Σ", u10428 + "ς"},   // astral cased letter before
		{"\U0001E900Σ", "\U0001E922ς"}, // Adlam
		{"ΑΣ\U0001E900", "ασ\U0001E922"},
		{"\u212A\u2126\u1E9E", "kωß"},
		{"\u0130\u03A3", "i\u0307ς"},
		{"ΑΣ\u0130", "ασi\u0307"},
		{"ႠᲐⴀ", "ⴀაⴀ"}, // Georgian: Mtavruli lowercases to Mkhedruli
		{"Ꭰꭰᏸ", "ꭰꭰᏸ"},
		{"ԱՒև", "աւև"},
		{"ЁЖ", "ёж"},
		{"ǅǈ", "ǆǉ"},
		{"ᾈ", "ᾀ"},
		{"Ⅻⓐ", "ⅻⓐ"},
	}
	for _, tc := range tests {
		if got := js.ToLower(tc.in); got != tc.want {
			t.Errorf("ToLower(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
	// Strings without anything to change come back unchanged.
	for _, s := range []string{"", "abc", hiD800, loDC00 + hiD800, "日本語"} {
		if got := js.ToLower(s); got != s {
			t.Errorf("ToLower(%q) = %q; want it unchanged", s, got)
		}
	}
	if got := js.ToLower("A\xff"); got != "a\uFFFD" {
		t.Errorf(`ToLower("A\xff") = %q; want "a\uFFFD"`, got)
	}
	// Non-canonical input means the same JavaScript string as its normalized form.
	for _, s := range []string{hiD801 + loDC00, "A" + hiD801 + loDC00 + "Σ", "ΑΣ" + hiD801 + loDC00} {
		if got, want := js.Normalize(js.ToLower(s)), js.ToLower(js.Normalize(s)); got != want {
			t.Errorf("ToLower(%q) = %q; want (normalized) %q", s, got, want)
		}
	}
}

func TestCaseProperties(t *testing.T) {
	for _, r := range []rune{'A', 'a', 0x3A3, 0x3C2, 0x345, 0x2B0, 0x10400, 0x1E900, 0x2160, 0x24B6, 0x1D2C} {
		if !js.IsCased(r) {
			t.Errorf("IsCased(%U) = false", r)
		}
	}
	for _, r := range []rune{'1', ' ', '.', 0x307, 0xAD, 0x2019, 0xD800, 0x5D0, 0x1F600, 0x110000} {
		if js.IsCased(r) {
			t.Errorf("IsCased(%U) = true", r)
		}
	}
	for _, r := range []rune{'.', ':', '\'', 0x345, 0x2B0, 0xAD, 0x307, 0x2019, 0xB7, 0x200D, 0xE0001, 0x1D2C} {
		if !js.IsCaseIgnorable(r) {
			t.Errorf("IsCaseIgnorable(%U) = false", r)
		}
	}
	for _, r := range []rune{'A', 'a', '1', ',', ' ', 0xD800, 0x3A3, 0x110000} {
		if js.IsCaseIgnorable(r) {
			t.Errorf("IsCaseIgnorable(%U) = true", r)
		}
	}
	if js.UnicodeVersion == "" || js.ICUVersion == "" || !strings.HasPrefix(js.NodeVersion, "v") {
		t.Errorf("version constants: %q %q %q", js.UnicodeVersion, js.ICUVersion, js.NodeVersion)
	}
}

// wtf8Piece draws a short piece of Go string that may be non-canonical: raw surrogate halves
// written without joining, invalid bytes, and ordinary text.
func wtf8Piece() *rapid.Generator[string] {
	runes := []rune{'a', 'Z', ' ', '"', '\\', 0, 0x7F, 0xE9, 0x3A3, 0x2028, 0xFEFF, 0xFFFD, 0x10400, 0x10FFFF,
		0xD800, 0xD801, 0xDBFF, 0xDC00, 0xDFFF}
	return rapid.Custom(func(t *rapid.T) string {
		var b []byte
		n := rapid.IntRange(0, 6).Draw(t, "n")
		for i := 0; i < n; i++ {
			switch rapid.IntRange(0, 9).Draw(t, "kind") {
			case 0:
				b = append(b, rapid.SampledFrom([]string{"\xff", "\x80", "\xed\xa0", "\xc3", "\xf0\x90\x80", "\xe0\x80\x80"}).Draw(t, "bad")...)
			case 1:
				b = js.AppendRune(b, rapid.RuneFrom(nil, unicode.L, unicode.M, unicode.Zs, unicode.Cc).Draw(t, "any"))
			default:
				b = js.AppendRune(b, rapid.SampledFrom(runes).Draw(t, "r"))
			}
		}
		return string(b)
	})
}

// unitsGen draws UTF-16 code-unit sequences rich in surrogates.
func unitsGen() *rapid.Generator[[]uint16] {
	return rapid.SliceOfN(rapid.OneOf(
		rapid.SampledFrom([]uint16{'a', 'A', 0, 0x7F, 0xE9, 0x3A3, 0x2028, 0xFEFF, 0xFFFD, 0xFFFF}),
		rapid.Uint16Range(0xD800, 0xDFFF),
		rapid.Uint16(),
	), 0, 12)
}

func TestPropertiesUTF16(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := unitsGen().Draw(t, "units")
		s := js.FromUTF16(u)
		if !js.Canonical(s) {
			t.Fatalf("FromUTF16 not canonical: %q", s)
		}
		if got := js.UTF16(s); !slices.Equal(got, u) {
			t.Fatalf("UTF16(FromUTF16(%04X)) = %04X", u, got)
		}
		if js.Length(s) != len(u) {
			t.Fatalf("Length = %d; want %d", js.Length(s), len(u))
		}
		wf := !hasLoneSurrogate(u)
		if js.WellFormed(s) != wf {
			t.Fatalf("WellFormed(%q) = %v; want %v", s, !wf, wf)
		}
		want := string(utf16.Decode(u)) // replaces lone surrogates by U+FFFD, like TextEncoder
		if got := js.ToWellFormed(s); got != want {
			t.Fatalf("ToWellFormed(%q) = %q; want %q", s, got, want)
		}
		if js.ByteLength(s) != len(want) {
			t.Fatalf("ByteLength(%q) = %d; want %d", s, js.ByteLength(s), len(want))
		}
	})
}

func hasLoneSurrogate(u []uint16) bool {
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
			i++
			continue
		}
		if c >= 0xD800 && c <= 0xDFFF {
			return true
		}
	}
	return false
}

// Every function reads a non-canonical string as the JavaScript string Normalize returns.
func TestPropertiesNonCanonical(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pieces := rapid.SliceOfN(wtf8Piece(), 0, 4).Draw(t, "pieces")
		s := strings.Join(pieces, "")
		n := js.Normalize(s)
		if !js.Canonical(n) || js.Normalize(n) != n {
			t.Fatalf("Normalize(%q) = %q not canonical or not idempotent", s, n)
		}
		if js.Canonical(s) != (s == n) {
			t.Fatalf("Canonical(%q) = %v but Normalize gives %q", s, js.Canonical(s), n)
		}
		if got, want := js.UTF16(s), js.UTF16(n); !slices.Equal(got, want) {
			t.Fatalf("UTF16(%q) = %04X; UTF16(normalized) = %04X", s, got, want)
		}
		if js.FromUTF16(js.UTF16(s)) != n {
			t.Fatalf("FromUTF16(UTF16(%q)) != Normalize", s)
		}
		if js.Length(s) != js.Length(n) {
			t.Fatalf("Length(%q) = %d; Length(normalized) = %d", s, js.Length(s), js.Length(n))
		}
		if js.ByteLength(s) != js.ByteLength(n) {
			t.Fatalf("ByteLength(%q) = %d; ByteLength(normalized) = %d", s, js.ByteLength(s), js.ByteLength(n))
		}
		if got, want := js.ToWellFormed(s), js.ToWellFormed(n); got != want {
			t.Fatalf("ToWellFormed(%q) = %q; ToWellFormed(normalized) = %q", s, got, want)
		}
		if got, want := js.Normalize(js.ToLower(s)), js.ToLower(n); got != want {
			t.Fatalf("ToLower(%q) = %q; ToLower(normalized) = %q", s, got, want)
		}
		// Each piece is a JavaScript string of its own: a piece ending inside a byte sequence
		// does not complete it with the next piece's bytes.
		var normalized []string
		for _, p := range pieces {
			normalized = append(normalized, js.Normalize(p))
		}
		if got, want := js.Concat(pieces...), js.Normalize(strings.Join(normalized, "")); got != want {
			t.Fatalf("Concat(%q) = %q; want %q", pieces, got, want)
		}
		if !utf8.ValidString(js.ToWellFormed(s)) {
			t.Fatalf("ToWellFormed(%q) not valid UTF-8", s)
		}
		if js.WellFormed(s) != (utf8.ValidString(n) && !hasBadByte(s)) {
			t.Fatalf("WellFormed(%q) = %v", s, js.WellFormed(s))
		}
	})
}

// hasBadByte reports whether s holds a byte that starts no WTF-8 sequence.
func hasBadByte(s string) bool {
	for i := 0; i < len(s); {
		r, n := js.DecodeRune(s[i:])
		if r == utf8.RuneError && n == 1 {
			return true
		}
		i += n
	}
	return false
}
