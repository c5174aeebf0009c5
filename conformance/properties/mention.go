package properties

import (
	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func mentionProperties() []Property {
	return []Property{
		{Name: "mention/format-parse-round-trip", Area: "mention", Requirements: []string{"SR-MENTION-1", "SR-MENTION-2", "SR-MENTION-3", "SR-MENTION-4"}, check: propMentionRoundTrip},
	}
}

// propMentionRoundTrip: mention.format then mention.parse gives back the id and the label
// (the id when no label is given) for every label, and the readable text "@label" between
// the prose around it.
func propMentionRoundTrip(e *env, t *rapid.T) {
	id := gen.String(t, "sessionId", e.gen, 5)
	fArgs := wire.NewObject().Set("sessionId", id)
	label := id
	if rapid.IntRange(0, 3).Draw(t, "labelled?") > 0 {
		label = gen.String(t, "label", e.gen, 8)
		fArgs.Set("label", label)
	}
	f := e.call(t, protocol.OpMentionFormat, fArgs)
	want := contract.Mention(id, label)
	text, ok := f.Result.(string)
	if !f.OK || !ok || text != want {
		e.failf(t, protocol.OpMentionFormat, fArgs, f, wire.Quote(want), "mention.format did not return the mention")
	}
	// Prose around the mention that cannot itself start a mention, so the parse is known.
	before := rapid.SampledFrom([]string{"", "see ", "x\n", "中 ", "(", "]"}).Draw(t, "before")
	after := rapid.SampledFrom([]string{"", " ok", ".", ")", "\u2028"}).Draw(t, "after")
	pArgs := wire.NewObject().Set("text", before+text+after)
	p := e.call(t, protocol.OpMentionParse, pArgs)
	wantParsed := wire.NewObject().Set("text", wire.Concat(before, "@", label, after)).
		Set("references", []any{wire.NewObject().Set("sessionId", id).Set("label", label)})
	wantLine, _ := wire.Marshal(wantParsed)
	o, ok := p.Result.(*wire.Object)
	if !p.OK || !ok {
		e.failf(t, protocol.OpMentionParse, pArgs, p, string(wantLine), "mention.parse failed on a formatted mention")
	}
	gotText, _ := o.Get("text")
	refs, _ := o.Get("references")
	list, _ := refs.([]any)
	if s, ok := gotText.(string); !ok || !sameString(s, wire.Concat(before, "@", label, after)) {
		e.failf(t, protocol.OpMentionParse, pArgs, p, string(wantLine), "mention.parse did not replace the mention with @label")
	}
	if len(list) != 1 {
		e.failf(t, protocol.OpMentionParse, pArgs, p, string(wantLine), "mention.parse found %d references, want 1", len(list))
	}
	r, _ := list[0].(*wire.Object)
	gid, _ := r.Get("sessionId")
	glabel, _ := r.Get("label")
	sid, ok1 := gid.(string)
	slabel, ok2 := glabel.(string)
	if !ok1 || !ok2 || !sameString(sid, id) || !sameString(slabel, label) {
		e.failf(t, protocol.OpMentionParse, pArgs, p, string(wantLine), "mention.parse did not give back the id and label")
	}
}
