package compare_test

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// TestDeepAnswerDiffIsLinear: a wrong answer nested deep (the wire allows 10,000 levels) is
// explained in text linear in its size. With an indent growing at every level, each failed
// check's canonical JSON was 100 MB of spaces, and a run of 145 such answers took 2.6 GB and
// its whole deadline.
func TestDeepAnswerDiffIsLinear(t *testing.T) {
	const depth = 5_000
	line := `{"id":1,"ok":true,"result":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}"
	got, err := protocol.ParseResponse(line)
	if err != nil {
		t.Fatal(err)
	}
	want := protocol.Response{ID: 1, OK: true, Result: "dsh-session:ImEi"}
	d := compare.Explain(want, got)
	if d == nil {
		t.Fatal("no difference")
	}
	if n := len(d.Got) + len(d.Lines); n > 400*depth { // 2 lines of at most 64 spaces and a bracket per level, twice
		t.Errorf("%d bytes of text for an answer of %d", n, len(line))
	}
	v, err := wire.Parse(d.Got)
	if err != nil {
		t.Fatalf("the canonical text is not JSON: %v", err)
	}
	v, _ = v.(*wire.Object).Get("result")
	for i := range depth {
		a, ok := v.([]any)
		if !ok || len(a) != min(1, depth-1-i) {
			t.Fatalf("level %d of the canonical text: not the answer's", i)
		}
		if len(a) > 0 {
			v = a[0]
		}
	}
}
