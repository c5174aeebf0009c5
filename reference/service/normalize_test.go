package service_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
)

func refsJSON(t *testing.T, text string) any {
	t.Helper()
	v, err := jsjson.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestNormalizeReferencesValue(t *testing.T) {
	N := func(id, label string) service.Normalized { return service.Normalized{SessionID: id, Label: label} }
	tests := []struct {
		name string
		refs string
		max  int
		want []service.Normalized
		code errcode.Code // "" with want nil: a TypeError
	}{
		{"empty", `[]`, 3, nil, ""},
		{"empty string iterates nothing", `""`, 3, nil, ""},
		{"label defaults to id", `[{"sessionId":"a"}]`, 3, []service.Normalized{N("a", "a")}, ""},
		{"first label kept, first-mention order", `[{"sessionId":"b","label":"B1"},{"sessionId":"a"},{"sessionId":"b","label":"B2"},{"sessionId":"a","label":"A"}]`, 3,
			[]service.Normalized{N("b", "B1"), N("a", "a")}, ""},
		{"empty id and label", `[{"sessionId":"","label":""}]`, 3, []service.Normalized{N("", "")}, ""},
		{"extra keys ignored", `[{"sessionId":"a","label":"x","cwd":5}]`, 3, []service.Normalized{N("a", "x")}, ""},
		{"duplicates do not count", `[{"sessionId":"a"},{"sessionId":"b"},{"sessionId":"c"},{"sessionId":"a"},{"sessionId":"b"}]`, 3,
			[]service.Normalized{N("a", "a"), N("b", "b"), N("c", "c")}, ""},
		{"non-empty string", `"ab"`, 3, nil, errcode.InvalidReference},
		{"null element", `[null]`, 3, nil, errcode.InvalidReference},
		{"number element", `[1]`, 3, nil, errcode.InvalidReference},
		{"string element", `["a"]`, 3, nil, errcode.InvalidReference},
		{"boolean element", `[true]`, 3, nil, errcode.InvalidReference},
		{"array element", `[["a"]]`, 3, nil, errcode.InvalidReference},
		{"missing sessionId", `[{"label":"a"}]`, 3, nil, errcode.InvalidReference},
		{"numeric sessionId", `[{"sessionId":1}]`, 3, nil, errcode.InvalidReference},
		{"null sessionId", `[{"sessionId":null}]`, 3, nil, errcode.InvalidReference},
		{"null label", `[{"sessionId":"a","label":null}]`, 3, nil, errcode.InvalidReference},
		{"numeric label", `[{"sessionId":"a","label":1}]`, 3, nil, errcode.InvalidReference},
		{"self", `[{"sessionId":"me"}]`, 3, nil, errcode.SelfReference},
		{"self after others", `[{"sessionId":"a"},{"sessionId":"me","label":"x"}]`, 3, nil, errcode.SelfReference},
		{"invalid before self", `[{"sessionId":1},{"sessionId":"me"}]`, 3, nil, errcode.InvalidReference},
		{"self before invalid", `[{"sessionId":"me"},{"sessionId":1}]`, 3, nil, errcode.SelfReference},
		{"too many", `[{"sessionId":"a"},{"sessionId":"b"},{"sessionId":"c"},{"sessionId":"d"}]`, 3, nil, errcode.TooMany},
		{"too many under a lower cap", `[{"sessionId":"a"},{"sessionId":"b"}]`, 1, nil, errcode.TooMany},
		{"invalid after too many is INVALID", `[{"sessionId":"a"},{"sessionId":"b"},{"sessionId":"c"},{"sessionId":"d"},5]`, 3, nil, errcode.InvalidReference},
		{"self after too many is SELF (checked before dedup and count)", `[{"sessionId":"a"},{"sessionId":"b"},{"sessionId":"c"},{"sessionId":"d"},{"sessionId":"me"}]`, 3, nil, errcode.SelfReference},
		{"self duplicate of nothing, self first", `[{"sessionId":"me"},{"sessionId":"me"}]`, 3, nil, errcode.SelfReference},
		{"null", `null`, 3, nil, ""},
		{"object", `{"sessionId":"a"}`, 3, nil, ""},
		{"number", `3`, 3, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := service.NormalizeReferencesValue("me", refsJSON(t, tt.refs), tt.max)
			switch {
			case tt.code != "":
				if !errors.Is(err, tt.code) {
					t.Fatalf("= %v, %v; want %s", got, err, tt.code)
				}
			case tt.want == nil && tt.refs != `[]` && tt.refs != `""`:
				var te *errcode.TypeError
				if !errors.As(err, &te) || errcode.Of(err) != "" {
					t.Fatalf("= %v, %v; want a TypeError", got, err)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tt.want, got); d != "" {
					t.Errorf("(-want +got)\n%s", d)
				}
			}
		})
	}
}

func TestNormalizeMessages(t *testing.T) {
	_, err := service.NormalizeReferencesValue("me\"", refsJSON(t, `[{"sessionId":"me\""}]`), 3)
	if err == nil || err.Error() != `session "me\"" cannot reference itself` {
		t.Errorf("self message: %v", err)
	}
	_, err = service.NormalizeReferencesValue("me", refsJSON(t, `[{"sessionId":"a"},{"sessionId":"b"}]`), 1)
	if err == nil || err.Error() != "a message may reference at most 1 sessions" {
		t.Errorf("too-many message: %v", err)
	}
	_, err = service.NormalizeReferencesValue("me", refsJSON(t, `[1]`), 3)
	if err == nil || err.Error() != "session reference must be an object" {
		t.Errorf("object message: %v", err)
	}
	_, err = service.NormalizeReferencesValue("me", refsJSON(t, `[{}]`), 3)
	if err == nil || err.Error() != "session reference must contain a string sessionId and optional string label" {
		t.Errorf("shape message: %v", err)
	}
}

// The typed form agrees with the JavaScript one on every reference list Go can express.
func TestNormalizeReferencesTypedAgrees(t *testing.T) {
	for _, text := range []string{
		`[]`,
		`[{"sessionId":"a"}]`,
		`[{"sessionId":"b","label":"B1"},{"sessionId":"a"},{"sessionId":"b","label":"B2"},{"sessionId":"a","label":"A"}]`,
		`[{"sessionId":"","label":""}]`,
		`[{"sessionId":"a"},{"sessionId":"b"},{"sessionId":"c"},{"sessionId":"a"},{"sessionId":"b"}]`,
		`[{"sessionId":"a"},{"sessionId":"b"},{"sessionId":"c"},{"sessionId":"d"}]`,
		`[{"sessionId":"a"},{"sessionId":"me"}]`,
		`[{"sessionId":"a"},{"sessionId":"b"},{"sessionId":"c"},{"sessionId":"d"},{"sessionId":"me"}]`,
		`[{"sessionId":"me"},{"sessionId":"me"}]`,
		`[{"sessionId":"a","label":"x"},{"sessionId":"a"}]`,
	} {
		v := refsJSON(t, text)
		var refs []service.Input
		for _, e := range v.([]any) {
			o := e.(*jsjson.Object)
			idv, _ := o.Get("sessionId")
			in := service.Input{SessionID: idv.(string)}
			if lv, ok := o.Get("label"); ok {
				l := lv.(string)
				in.Label = &l
			}
			refs = append(refs, in)
		}
		for _, max := range []int{1, 3} {
			want, werr := service.NormalizeReferencesValue("me", v, max)
			got, gerr := service.NormalizeReferences("me", refs, max)
			if d := cmp.Diff(want, got); d != "" || errcode.Of(werr) != errcode.Of(gerr) || (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
				t.Errorf("%s max %d: typed %v, %v; value %v, %v", text, max, got, gerr, want, werr)
			}
		}
	}
}
