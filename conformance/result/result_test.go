package result_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{strings.Repeat("a", 20_000_000), 4, "aaaa… 20.0 MB dropped"},
		{strings.Repeat("b", 1500), 500, strings.Repeat("b", 500) + "… 1.0 kB dropped"},
		{"ab" + "é" + "cd", 3, "ab… 4 B dropped"},         // not inside the two bytes of é
		{"a\xed\xa0\x80bcd", 2, "a… 6 B dropped"},         // nor inside a WTF-8 surrogate
		{strings.Repeat("€", 100), 4, "€… 297 B dropped"}, // 3-byte characters
		{strings.Repeat("x", 2_500_000_000/1000), 0, "… 2.5 MB dropped"},
	} {
		got := result.Clip(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("Clip(%.20q…, %d) = %.60q, want %.60q", tt.in, tt.n, got, tt.want)
		}
		if utf8.ValidString(tt.in) && !utf8.ValidString(got) {
			t.Errorf("Clip(%.20q, %d) cut a character: %q", tt.in, tt.n, got)
		}
	}
}

func TestClippedBoundsEveryField(t *testing.T) {
	big := strings.Repeat("z", 1<<20)
	js := result.JSONOf(big)
	d := &compare.Difference{Want: big, Got: big, Lines: big, First: big}
	c := result.Case{Input: js, Want: js, Got: result.Value{Text: big}, Diff: d, Message: big}.Clipped()
	if len(c.Input.JSON)+len(c.Want.JSON)+len(c.Got.JSON) > 0 {
		t.Error("a clipped JSON text is still kept as JSON")
	}
	for name, v := range map[string]string{"input": c.Input.Text, "want": c.Want.Text, "got": c.Got.Text, "message": c.Message,
		"diff.want": c.Diff.Want, "diff.got": c.Diff.Got, "diff.lines": c.Diff.Lines, "diff.first": c.Diff.First} {
		if len(v) > result.MaxDiff+32 || !strings.HasSuffix(v, " dropped") {
			t.Errorf("%s: %d bytes, ends %q", name, len(v), v[len(v)-20:])
		}
	}
}

// A Value is written as the JSON value it holds, or as its text in a JSON string.
func TestValueMarshalsAsItsJSON(t *testing.T) {
	c := result.Case{Input: result.JSONOf(wire.NewObject().Set("id", 3.0)), Got: result.Value{Text: "not json"}}
	b, err := json.Marshal(struct{ Input, Want, Got result.Value }{c.Input, c.Want, c.Got})
	if err != nil || string(b) != `{"Input":{"id":3},"Want":"","Got":"not json"}` {
		t.Errorf("%s, %v", b, err)
	}
}
