package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// A group of failures gives its likeliest trap hints, not only the trap ids: a Go port whose
// encoding/json escaped "<" read "traps: TRAP-JSON-ESCAPES (2)" above a property's example,
// which names no trap, so the "looks like" line of a single failure never showed.
func TestGroupGivesTrapHints(t *testing.T) {
	r := &Report{Spec: "0.0.1-rc.1", Command: []string{"./port"}}
	escapes := "looks like a JSON writer escaping more than JSON.stringify: TRAP-JSON-ESCAPES"
	alphabet := "looks like standard base64: TRAP-B64-ALPHABET"
	for i, hints := range [][]string{nil, {escapes}, {escapes, alphabet}, {alphabet}} {
		c := result.Case{Part: "fixtures", Area: "uri", Name: fmt.Sprint("uri-encode/c", i), Status: result.Fail, Message: "result differs", TrapHints: hints}
		for _, h := range hints {
			c.Traps = append(c.Traps, h[strings.LastIndex(h, " ")+1:])
		}
		r.Cases = append(r.Cases, exchange(c, `{"id":1,"op":"uri.encode","args":{"sessionId":"<"}}`,
			`{"id":1,"ok":true,"result":"dsh-session:Ijwi"}`, `{"id":1,"ok":true,"result":"dsh-session:Ilx1MDAzYyI"}`))
	}
	r.Finish()
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	want := "  traps: TRAP-JSON-ESCAPES (2), TRAP-B64-ALPHABET (2)\n  trap:  " + escapes + "\n  trap:  " + alphabet + "\n"
	if !strings.Contains(text, "FAIL 4 checks, one cause") || !strings.Contains(text, want) {
		t.Errorf("no %q in\n%s", want, text)
	}
}
