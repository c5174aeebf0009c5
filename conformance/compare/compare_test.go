package compare_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func ok(v any) protocol.Response { return protocol.Response{OK: true, Result: v} }

func failed(code string, extra *wire.Object) protocol.Response {
	return protocol.Response{Err: &protocol.Error{Code: code, Message: "any", Extra: extra}}
}

func TestDiff(t *testing.T) {
	obj := func(kv ...any) *wire.Object {
		o := wire.NewObject()
		for i := 0; i < len(kv); i += 2 {
			o.Set(kv[i].(string), kv[i+1])
		}
		return o
	}
	for _, tt := range []struct {
		name      string
		want, got protocol.Response
		agree     bool
	}{
		{"equal strings", ok("a"), ok("a"), true},
		{"strings differ by one byte", ok("a<"), ok(`a\u003c`), false},
		{"key order ignored", ok(obj("a", 1.0, "b", 2.0)), ok(obj("b", 2.0, "a", 1.0)), true},
		{"number differs", ok(obj("a", 1.0)), ok(obj("a", 1.5)), false},
		{"missing key", ok(obj("a", 1.0, "cwd", "x")), ok(obj("a", 1.0)), false},
		{"error messages ignored", failed("SESSION_REFERENCE_TOO_MANY", nil), protocol.Response{Err: &protocol.Error{Code: "SESSION_REFERENCE_TOO_MANY", Message: "other"}}, true},
		{"error codes differ", failed("SESSION_REFERENCE_TOO_MANY", nil), failed("SESSION_REFERENCE_INVALID_REFERENCE", nil), false},
		{"null code is not a code", failed("", nil), failed("SESSION_REFERENCE_READ_FAILED", nil), false},
		{"result versus error", ok("a"), failed("", nil), false},
		{"reads are a multiset", ok(obj("reads", []any{"a", "b"})), ok(obj("reads", []any{"b", "a"})), true},
		{"a read missing", ok(obj("reads", []any{"a", "b"})), ok(obj("reads", []any{"a"})), false},
		{"a read twice", ok(obj("reads", []any{"a", "b"})), ok(obj("reads", []any{"a", "b", "b"})), false},
		{"error reads are a multiset", failed("SESSION_REFERENCE_READ_FAILED", obj("reads", []any{"x", "y"})), failed("SESSION_REFERENCE_READ_FAILED", obj("reads", []any{"y", "x"})), true},
		{"error reads missing one", failed("SESSION_REFERENCE_READ_FAILED", obj("reads", []any{"x", "y"})), failed("SESSION_REFERENCE_READ_FAILED", obj("reads", []any{"x"})), false},
		{"infinity travels as null", ok(obj("createdAt", math.Inf(1))), ok(obj("createdAt", nil)), true},
		{"an infinite wire number travels as null", ok(obj("n", wire.Number("-1e400"))), ok(obj("n", nil)), true},
		{"infinity is not zero", ok(obj("createdAt", math.Inf(-1))), ok(obj("createdAt", 0.0)), false},
		{"a finite wire number is not null", ok(obj("n", wire.Number("1e300"))), ok(obj("n", nil)), false},
		{"other arrays keep their order", ok(obj("titleReads", []any{"a", "b"})), ok(obj("titleReads", []any{"b", "a"})), false},
	} {
		if got := compare.Diff(tt.want, tt.got) == ""; got != tt.agree {
			t.Errorf("%s: agree = %v, want %v\n%s", tt.name, got, tt.agree, compare.Diff(tt.want, tt.got))
		}
	}
}

// Large outcomes get a diff whose first difference names the place, and whose line diff the
// bytes that differ; outcomes that differ only where their JSON is alike still differ.
func TestLargeOutcomesDiff(t *testing.T) {
	big := strings.Repeat("a", 256<<10)
	want := protocol.Response{OK: true, Result: wire.NewObject().Set("text", big+"XYZ"+big).Set("n", 1.0)}
	got := protocol.Response{OK: true, Result: wire.NewObject().Set("n", 1.0).Set("text", big+"XQZ"+big)}
	d := compare.Explain(want, got)
	if d == nil || !strings.HasPrefix(d.First, `$.result.text: want "aaaa`) || !strings.Contains(d.Lines, "-     \"text\": \""+big+"XYZ") || !strings.Contains(d.Lines, "+     \"text\": \""+big+"XQZ") {
		t.Errorf("Explain of large outcomes: %.200q", d)
	}
	if compare.Diff(want, protocol.Response{OK: true, Result: wire.NewObject().Set("n", 1.0).Set("text", big+"XYZ"+big)}) != "" {
		t.Error("large outcomes that differ in key order only are reported different")
	}
	bad := protocol.Response{OK: true, Result: "a\xff"}
	if d := compare.Explain(bad, protocol.Response{OK: true, Result: "a\xfe"}); d == nil || !strings.Contains(d.First, "not UTF-8") {
		t.Errorf("strings that differ in bytes that are not UTF-8: %+v", d)
	}
}

// An answer received with a number no double holds is shown as it was written.
func TestExplainShowsNumbersAsReceived(t *testing.T) {
	got, err := protocol.ParseResponse(`{"id":3,"ok":true,"result":[1e400,2.50]}`)
	if err != nil {
		t.Fatal(err)
	}
	d := compare.Explain(ok([]any{1.0, 2.5}), got)
	if d == nil || d.First != "$.result[0]: want 1, got 1e400" || !strings.Contains(d.Got, "2.50") {
		t.Errorf("Explain = %+v", d)
	}
}
