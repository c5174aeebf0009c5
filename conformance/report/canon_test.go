package report

import (
	"strings"
	"testing"
)

func TestDiffComparesOutcomes(t *testing.T) {
	for _, tt := range []struct {
		name, want, got string
		differ          bool
		first           string
	}{
		{"ids and key order are not compared", `{"id":0,"ok":true,"result":{"a":1,"b":2}}`, `{"result":{"b":2,"a":1},"ok":true,"id":7}`, false, ""},
		{"error messages are not compared", `{"id":0,"ok":false,"error":{"code":"X","message":""}}`, `{"id":3,"ok":false,"error":{"code":"X","message":"why"}}`, false, ""},
		{"reads are a multiset", `{"ok":true,"result":{"reads":["a","b"]}}`, `{"ok":true,"result":{"reads":["b","a"]}}`, false, ""},
		{"codes are compared", `{"ok":false,"error":{"code":"X"}}`, `{"ok":false,"error":{"code":null}}`, true, `$.error.code: want "X", got null`},
		{"lone surrogates kept as written", `{"ok":true,"result":"\ud800"}`, `{"ok":true,"result":"\udc00"}`, true, `$.result: want "\ud800", got "\udc00"`},
		{"numbers kept as written", `[1e21]`, `[1000000000000000000000]`, true, `$[0]: want 1e21, got 1000000000000000000000`},
		{"missing key", `{"a":1,"b":2}`, `{"a":1}`, true, `$.b: want 2, got nothing`},
		{"extra key", `{"a":1}`, `{"a":1,"c d":[]}`, true, `$["c d"]: want nothing, got []`},
		{"array length", `[1,2]`, `[1]`, true, `$[1]: want 2, got nothing`},
		{"kind", `{"a":[]}`, `{"a":{}}`, true, `$.a: want [], got {}`},
	} {
		d, ok := Diff(tt.want, tt.got)
		if ok != tt.differ || d.First != tt.first {
			t.Errorf("%s: Diff = %+v, %v; want differ %v, first %q", tt.name, d, ok, tt.differ, tt.first)
		}
	}
	for _, bad := range [][2]string{{"", `1`}, {`1`, ""}, {`{`, `1`}, {`1`, `[1,]`}, {`"\x"`, `1`}, {`1 2`, `1`}} {
		if _, ok := Diff(bad[0], bad[1]); ok {
			t.Errorf("Diff(%q, %q) claims a JSON difference", bad[0], bad[1])
		}
	}
}

func TestLineDiff(t *testing.T) {
	d, _ := Diff(`{"ok":true,"result":{"text":"a","list":[1,2,3,4,5,6,7,8,9]}}`, `{"ok":true,"result":{"list":[1,2,3,4,5,6,7,8,0],"text":"b"}}`)
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
		if again, _ := Diff(`{"ok":true,"result":{"text":"a","list":[1,2,3,4,5,6,7,8,9]}}`, `{"ok":true,"result":{"list":[1,2,3,4,5,6,7,8,0],"text":"b"}}`); again != d {
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

func TestParseJSONDepth(t *testing.T) {
	if _, err := parseJSON(strings.Repeat("[", 10000) + strings.Repeat("]", 10000)); err == nil {
		t.Error("a 10000-deep array parsed")
	}
}

// A repeated key reads as its last value (as JSON.parse and encoding/json take it), in a
// small object (scanned) and a large one (looked up in a map), after a delete too.
func TestRepeatedKeyReadsLast(t *testing.T) {
	for _, n := range []int{0, 3, 20} {
		var b strings.Builder
		b.WriteString(`{"k":1`)
		for i := range n {
			b.WriteString(`,"x` + strings.Repeat("y", i) + `":0`)
		}
		b.WriteString(`,"k":2,"d":3}`)
		v, err := parseJSON(b.String())
		if err != nil {
			t.Fatal(err)
		}
		if got := v.get(`"k"`); got == nil || got.raw != "2" {
			t.Errorf("%d other keys: k reads %v, want 2", n, got)
		}
		v.del(`"k"`)
		if got := v.get(`"k"`); got == nil || got.raw != "1" {
			t.Errorf("%d other keys: after deleting the last k, k reads %v, want 1", n, got)
		}
		if got := v.get(`"d"`); got == nil || got.raw != "3" {
			t.Errorf("%d other keys: after the delete, d reads %v, want 3", n, got)
		}
	}
}
