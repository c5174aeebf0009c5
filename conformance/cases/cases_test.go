package cases_test

import (
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/tagexpr"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func TestMarshalParseRoundTrip(t *testing.T) {
	args := o("text", u(`a\ud800\u2028\ufeff\"\\`), "n", 1.5, "list", a(true, nil, "x"), "obj", o())
	f := cases.File{Name: "x.yaml", Version: 1, Op: protocol.OpMentionParse, Cases: []cases.Case{
		{Name: "one", Requirements: []string{"SR-MENTION-9"}, Args: args, Want: cases.Want{OK: true, Result: u(`\udfff`)}},
		{Name: "two", Requirements: []string{"SR-MENTION-5"}, Args: o(), Want: cases.Want{Code: "SESSION_REFERENCE_INVALID_REFERENCE", Reads: a(), HasReads: true}},
		{Name: "three", Requirements: []string{"SR-ERR-2"}, Profiles: []string{cases.Profile010}, Args: o(), Want: cases.Want{}},
	}}
	data := cases.Marshal(f, "header")
	back, err := cases.Parse("x.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if again := cases.Marshal(back, "header"); string(again) != string(data) {
		t.Errorf("round trip differs:\n%s\n---\n%s", data, again)
	}
	if got, _ := back.Cases[0].Args.Get("text"); got != u(`a\ud800\u2028\ufeff\"\\`) {
		t.Errorf("text = %q", got)
	}
	if feats := back.Features(back.Cases[0]); len(feats) != 1 || feats[0] != protocol.FeatureLoneSurrogates {
		t.Errorf("features = %v", feats)
	}
	if back.Cases[2].AppliesTo("") || !back.Cases[2].AppliesTo(cases.Profile010) {
		t.Error("profiles not applied")
	}
}

func TestWantExplain(t *testing.T) {
	w := cases.Want{Code: "SESSION_REFERENCE_READ_FAILED", Reads: a("a"), HasReads: true}
	got := protocol.Response{Err: &protocol.Error{Code: "SESSION_REFERENCE_READ_FAILED", Message: "any", Extra: wire.NewObject().Set("reads", a("a"))}}
	if d := w.Explain(got); d != nil {
		t.Errorf("diff %s", d)
	}
	got.Err.Extra.Set("reads", a("a", "b"))
	if w.Explain(got) == nil {
		t.Error("different reads agree")
	}
	got.Err.Code = "SESSION_REFERENCE_CANCELLED"
	if w.Explain(got) == nil {
		t.Error("different codes agree")
	}
}

// The tags a part gives its checks, matched as --tags matches them.
func TestMatchTags(t *testing.T) {
	tags := []string{"prepare", "SR-PREP-1", "SR-ERR-3"}
	for expr, want := range map[string]bool{
		"":                       true,
		"@SR-PREP-1":             true,
		"@SR-PREP-2":             false,
		"@SR-PREP-2,@prepare":    true,
		"@prepare && ~@SR-ERR-3": false,
		"prepare && SR-ERR-3":    true,
		"~@uri":                  true,
	} {
		if got := tagexpr.Match(expr, tags); got != want {
			t.Errorf("MatchTags(%q) = %v", expr, got)
		}
	}
}
