package refadapter

import (
	"testing"
)

// FuzzWireParse: whatever an adapter writes, the kit's reader returns a value or a
// SyntaxError, never panics, and reads it as the reference's reader does.
func FuzzWireParse(f *testing.F) {
	for _, s := range []string{`{"id":1,"ok":true,"result":"\ud800"}`, `[1e400,-0,"\u00e9\/"]`, "\"\xed\xa0\x80\"", `{"1":2,"a":[{}]}`, `"\x01"`, "[" + `"\uD83D\uDE00"` + "]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		wireAgreesOnParse(t, text)
	})
}

// FuzzWireStrings: the kit writes and measures every string as the reference does.
func FuzzWireStrings(f *testing.F) {
	for _, s := range []string{"", "<\xed\xa0\x80>", "\xed\xa0\xbd\xed\xb8\x80", "\xff\x00\"\\", "é中😀\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		wireAgreesOnString(t, s)
	})
}
