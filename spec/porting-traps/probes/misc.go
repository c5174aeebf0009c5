//go:build ignore

// Small behaviours of the running Go that the catalogue cites; each line is "what: result".
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"unicode/utf16"
)

func show(what string, v ...any) { fmt.Printf("%s: %v\n", what, fmt.Sprint(v...)) }

func main() {
	show("version", runtime.Version())
	re := regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	for _, s := range []string{"IiI\n", "IiI\r\n", "!!\nIiI"} {
		show(fmt.Sprintf("MatchString ^..$ %q", s), re.MatchString(s))
	}
	for _, label := range []string{"$1", "${1}", "$0", "$x", "$$"} {
		show("ReplaceAllString '@'+"+label, regexp.MustCompile(`@\[(x)\]`).ReplaceAllString("@[x]", "@"+label))
	}
	for _, v := range []any{"é<>&/\u2028\u007f\x1f", map[string]int{"b": 1, "a": 2}, 2.0, 1e16, 1e21, 1e-7, 5e-324, -0.0} {
		b, err := json.Marshal(v)
		show(fmt.Sprintf("json.Marshal %#v", v), string(b), err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode("é<>&\u2028")
	show("Encoder SetEscapeHTML(false)", strings.TrimSpace(buf.String()))
	b, _ := json.Marshal(string([]byte{0xed, 0xa0, 0x80}))
	show("json.Marshal of WTF-8 lone surrogate bytes", string(b))
	var s string
	show("json.Unmarshal lone surrogate escape", json.Unmarshal([]byte(`"\ud800"`), &s), fmt.Sprintf(" %x", s))
	var n int
	show("json.Unmarshal 2.0 into int", json.Unmarshal([]byte(`2.0`), &n))
	show("json.Unmarshal true into int", json.Unmarshal([]byte(`true`), &n))
	show("json.Unmarshal \"3\" into int", json.Unmarshal([]byte(`"3"`), &n))
	var f any
	json.Unmarshal([]byte(`9007199254740993`), &f)
	show("json.Unmarshal 9007199254740993 into any", fmt.Sprintf("%T %v", f, f))
	show("RawURLEncoding", base64.RawURLEncoding.EncodeToString([]byte(`"~~"`)))
	show("URLEncoding", base64.URLEncoding.EncodeToString([]byte(`"~~"`)))
	_, err := base64.URLEncoding.DecodeString("IiI")
	show("URLEncoding.DecodeString unpadded", err)
	_, err = base64.RawURLEncoding.DecodeString("IiI=")
	show("RawURLEncoding.DecodeString padded", err)
	d, err := base64.RawURLEncoding.DecodeString("IiJ")
	show("RawURLEncoding.DecodeString trailing bits IiJ", string(d), err)
	_, err = base64.RawURLEncoding.Strict().DecodeString("IiJ")
	show("RawURLEncoding.Strict() trailing bits IiJ", err)
	d, err = base64.RawURLEncoding.DecodeString("Ii\nI")
	show("RawURLEncoding newline", string(d), err)
	type rec struct{ rank, i int }
	xs := make([]rec, 100)
	for i := range xs {
		xs[i] = rec{i % 3, i}
	}
	sort.Slice(xs, func(a, b int) bool { return xs[a].rank < xs[b].rank })
	stable := true
	for i := 1; i < len(xs); i++ {
		if xs[i-1].rank == xs[i].rank && xs[i-1].i > xs[i].i {
			stable = false
		}
	}
	show("sort.Slice keeps order of 100 items in 3 ranks", stable)
	m := map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true}
	order := []string{}
	for k := range m {
		order = append(order, k)
	}
	show("map iteration order", order)
	show("utf16.Decode lone surrogate", fmt.Sprintf("%x", string(utf16.Decode([]uint16{0xd800}))))
	show("string(rune(0xD800)) bytes", fmt.Sprintf("% x", string(rune(0xD800))))
	show("BOM kept by string([]byte)", len([]rune(string([]byte{0xef, 0xbb, 0xbf, 'a'}))))
	show("strings.ToLower(\"AΣ\")", strings.ToLower("AΣ"))
	show("strings.EqualFold(\"ß\",\"SS\"), (\"K\",\"k\")", strings.EqualFold("ß", "SS"), strings.EqualFold("\u212a", "k"))
}
