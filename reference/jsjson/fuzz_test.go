package jsjson_test

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// FuzzParse checks that Parse never panics, fails only with a *SyntaxError, and that a value it
// accepts survives Marshal: parsing the output gives the same value (but for −0 and ±Infinity,
// which JSON.stringify writes as 0 and null) and marshaling again gives the same bytes.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,-0,1e400,"\ud800"],"1":null,"0":true}`, `"\uD801\uDC00<\u2028"`, "[1,]", "01",
		"\"\xed\xa0\x81\xed\xb0\x80\"", `{"a":1,"a":2}`, " \t\r\n[]", "\"\xff\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsjson.Parse(text)
		if err != nil {
			var se *jsjson.SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(text) {
				t.Fatalf("Parse(%q) error %#v", text, err)
			}
			return
		}
		m, err := jsjson.Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(Parse(%q)): %v", text, err)
		}
		if !utf8.Valid(m) {
			t.Fatalf("Marshal(Parse(%q)) = %q is not well-formed", text, m)
		}
		v2, err := jsjson.Parse(string(m))
		if err != nil {
			t.Fatalf("Parse(Marshal(Parse(%q))) = Parse(%q): %v", text, m, err)
		}
		if a, b := encStringified(v), encStringified(v2); a != b {
			t.Fatalf("round trip of %q via %q: %s != %s", text, m, b, a)
		}
		m2, _ := jsjson.Marshal(v2)
		if string(m2) != string(m) {
			t.Fatalf("Marshal not idempotent on %q: %q then %q", text, m, m2)
		}
		if c, _ := jsjson.Marshal(jsjson.Clone(v)); string(c) != string(m) {
			t.Fatalf("Marshal(Clone) = %q; want %q", c, m)
		}
	})
}

// FuzzQuote checks that JSON.parse(JSON.stringify(s)) gives back the JavaScript string s
// denotes, for the plain and tag-safe forms, and that StringSize predicts their lengths.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\x00\x1f\x7f<>&", "\xed\xa0\x80", "\xed\xb0\x80\xed\xa0\x80",
		"\xed\xa0\x81\xed\xb0\x80", "\u2028\uFEFF\U0010FFFF", "\xff\xed\xa0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := js.Normalize(s)
		for _, tagSafe := range []bool{false, true} {
			var q string
			if tagSafe {
				q = string(jsjson.AppendStringTagSafe(nil, s))
			} else {
				q = jsjson.Quote(s)
			}
			if !utf8.ValidString(q) {
				t.Fatalf("quoted %q = %q is not well-formed", s, q)
			}
			if n := jsjson.StringSize(s, tagSafe); n != len(q) {
				t.Fatalf("StringSize(%q, %v) = %d; want %d", s, tagSafe, n, len(q))
			}
			v, err := jsjson.Parse(q)
			if err != nil || v != want {
				t.Fatalf("Parse(%q) = %q, %v; want %q", q, v, err, want)
			}
		}
	})
}
