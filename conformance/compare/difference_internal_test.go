package compare

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func TestDiffComparesOutcomes(t *testing.T) {
	for _, tt := range []struct {
		name, want, got string
		differ          bool
		first           string
	}{
		{"ids and key order are not compared", `{"id":0,"ok":true,"result":{"a":1,"b":2}}`, `{"result":{"b":2,"a":1},"ok":true,"id":7}`, false, ""},
		{"error messages are not compared", `{"id":0,"ok":false,"error":{"code":"X","message":""}}`, `{"id":3,"ok":false,"error":{"code":"X","message":"why"}}`, false, ""},
		{"reads are a multiset", `{"id":1,"ok":true,"result":{"reads":["a","b"]}}`, `{"id":2,"ok":true,"result":{"reads":["b","a"]}}`, false, ""},
		{"codes are compared", `{"id":1,"ok":false,"error":{"code":"X","message":""}}`, `{"id":1,"ok":false,"error":{"code":null,"message":""}}`, true, `$.error.code: want "X", got null`},
		{"lone surrogates kept as written", `{"id":1,"ok":true,"result":"\ud800"}`, `{"id":1,"ok":true,"result":"\udc00"}`, true, `$.result: want "\ud800", got "\udc00"`},
		{"numbers kept as written", `[1e21]`, `[1000000000000000000000]`, true, `$[0]: want 1e21, got 1000000000000000000000`},
		{"missing key", `{"a":1,"b":2}`, `{"a":1}`, true, `$.b: want 2, got nothing`},
		{"extra key", `{"a":1}`, `{"a":1,"c d":[]}`, true, `$["c d"]: want nothing, got []`},
		{"array length", `[1,2]`, `[1]`, true, `$[1]: want 2, got nothing`},
		{"kind", `{"a":[]}`, `{"a":{}}`, true, `$.a: want [], got {}`},
	} {
		d := explainText(t, tt.want, tt.got)
		if (d != nil) != tt.differ || d != nil && d.First != tt.first {
			t.Errorf("%s: Explain = %+v; want differ %v, first %q", tt.name, d, tt.differ, tt.first)
		}
	}
}

// explainText is Explain of two response lines, or ExplainValues of two other JSON texts
// read with their numbers as written.
func explainText(t *testing.T, want, got string) *Difference {
	t.Helper()
	w, errW := protocol.ParseResponse(want)
	g, errG := protocol.ParseResponse(got)
	if errW == nil && errG == nil {
		return Explain(w, g)
	}
	wv, err := wire.ParseExact(want)
	if err != nil {
		t.Fatal(err)
	}
	gv, err := wire.ParseExact(got)
	if err != nil {
		t.Fatal(err)
	}
	return ExplainValues(wv, gv)
}

func TestLineDiff(t *testing.T) {
	const wantLine, gotLine = `{"id":1,"ok":true,"result":{"text":"a","list":[1,2,3,4,5,6,7,8,9]}}`, `{"id":1,"ok":true,"result":{"list":[1,2,3,4,5,6,7,8,0],"text":"b"}}`
	d := explainText(t, wantLine, gotLine)
	want := `@@ …
        6,
        7,
        8,
-       9
+       0
      ],
-     "text": "a"
+     "text": "b"
    }
  }
`
	if d.Lines != want {
		t.Errorf("lines:\n%s\nwant:\n%s", d.Lines, want)
	}
	if d.First != `$.result.list[8]: want 9, got 0` {
		t.Errorf("first: %s", d.First)
	}
	// The same inputs give the same bytes, every time (go-cmp's output does not).
	for i := 0; i < 20; i++ {
		if again := explainText(t, wantLine, gotLine); *again != *d {
			t.Fatal("Diff is not deterministic")
		}
	}
	if lineDiff("a\nb", "a\nb") != "" {
		t.Error("equal texts differ")
	}
	// Large inputs stay bounded: no quadratic table past maxDiffLines.
	big := strings.Repeat("x\n", 2*maxDiffLines)
	if out := lineDiff("a\n"+big+"b", "c\n"+big+"d"); !strings.HasPrefix(out, "- a\n- x\n") || !strings.HasSuffix(out, "+ x\n+ d\n") {
		t.Errorf("big diff: %.300s", out)
	}
}
