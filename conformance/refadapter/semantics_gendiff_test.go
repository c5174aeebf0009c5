package refadapter_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
)

// The generators' table of the traps' lowercase (gen.Trap.Lower) is the contract's
// lowercasing of each trap: a trap added to the list without its entry fails here.
func TestTrapLowerIsTheContracts(t *testing.T) {
	for _, tr := range gen.Traps() {
		if want := jsstring.ToLower(tr.S); tr.Lower != want {
			t.Errorf("trap %+q: Lower %+q, the reference lowercases it to %+q (gen's trapLower table)", tr.S, tr.Lower, want)
		}
	}
}

// contract.Notice is the reference's omission notice.
func TestContractNoticeAgreesWithReference(t *testing.T) {
	for _, n := range []int{0, 1, 9, 10, 41, 99, 100, 65536, 1 << 40} {
		if got, want := contract.Notice(n), retention.Notice(n); got != want {
			t.Errorf("Notice(%d) = %q, reference %q", n, got, want)
		}
	}
}

// Semantics answers with the reference's building blocks.
func TestSemantics(t *testing.T) {
	var s refadapter.Semantics
	if got := s.Lower("\u0130Σ"); got != "i\u0307ς" {
		t.Errorf("Lower = %+q", got)
	}
	if got, want := s.Truncate("abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz", 40), retention.Truncate("abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz", 40).Text; got != want || got == "" {
		t.Errorf("Truncate = %q, want %q", got, want)
	}
	if s.Project([]any{nil}, func(string, string, bool) { t.Error("called for a broken surface") }) {
		t.Error("Project accepted a null event")
	}
	msg := func(typ string, source *wire.Object, text string) *wire.Object {
		data := wire.NewObject().Set("role", "user").Set("content", []any{wire.NewObject().Set("type", "text").Set("text", text)}).Set("source", source)
		if typ == "assistant/message" {
			data = wire.NewObject().Set("message", data)
		}
		return wire.NewObject().Set("type", typ).Set("seq", 1.0).Set("data", data)
	}
	events := []any{
		msg("user/message", wire.NewObject().Set("kind", "user"), "hi"),
		msg("user/message", wire.NewObject().Set("kind", "plugin").Set("plugin", "compact"), "summary"),
		msg("user/message", wire.NewObject().Set("kind", "context"), "not projected"),
		msg("assistant/message", wire.NewObject().Set("kind", "model"), "answer"),
	}
	var got []string
	if !s.Project(events, func(role, text string, checkpoint bool) {
		got = append(got, fmt.Sprint(role, " ", text, " ", checkpoint))
	}) {
		t.Fatal("Project rejected a valid surface")
	}
	if want := []string{"user hi false", "user summary true", "assistant answer false"}; !slices.Equal(got, want) {
		t.Errorf("Project called each with %q, want %q", got, want)
	}
}
