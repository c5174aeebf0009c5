package retention_test

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// FuzzRetain feeds Retain arbitrary message texts (split at NUL; kinds chosen by the bits of
// kinds: user, assistant, compact checkpoint, tool result) and budgets. It checks that a kept
// result fits the budget, that the stats are consistent, and that everything agrees with the
// naive model of the seed.
func FuzzRetain(f *testing.F) {
	f.Add("hello\x00world", "", uint16(0x0), uint16(120))
	f.Add("\uFEFFé0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "s", uint16(0x1), uint16(150))
	f.Add("old\x00summary\x00<b>new</b>😀😀😀", "<label>", uint16(0x18), uint16(130))
	f.Add(strings.Repeat("\x01\"\\", 30)+"\x00tail", "", uint16(0x2), uint16(100))
	f.Add("\xed\xa0\xbd\x00\xed\xb8\x80x\xff", "\xed\xa0\x80", uint16(0x6), uint16(90))
	f.Fuzz(func(t *testing.T, texts, label string, kinds, budget uint16) {
		if len(texts) > 4096 {
			return
		}
		parts := strings.Split(texts, "\x00")
		if len(parts) > 12 {
			parts = parts[:12]
		}
		var evs []any
		for i, p := range parts {
			block := []any{jsjson.NewObject().Set("type", "text").Set("text", p)}
			var ev *jsjson.Object
			switch (kinds >> (2 * (i % 8))) & 3 {
			case 0:
				ev = jsjson.NewObject().Set("type", "user/message").Set("data", jsjson.NewObject().Set("content", block).Set("source", jsjson.NewObject().Set("kind", "user")))
			case 1:
				ev = jsjson.NewObject().Set("type", "assistant/message").Set("data", jsjson.NewObject().Set("message", jsjson.NewObject().Set("content", block)))
			case 2:
				src := jsjson.NewObject().Set("kind", "plugin").Set("plugin", "compact")
				ev = jsjson.NewObject().Set("type", "user/message").Set("data", jsjson.NewObject().Set("content", block).Set("source", src))
			default:
				ev = jsjson.NewObject().Set("type", "tool/result").Set("data", jsjson.NewObject())
			}
			evs = append(evs, ev)
		}
		max := int(budget)
		surf := sessionquery.Surface{Session: sessionquery.Header{ID: "s"}, Events: evs}
		d, st, ok, err := retention.Retain(surf, label, max)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, wantStats, wantOK := modelRetain(modelSnapshot{id: "s", events: evs}, js.Normalize(label), max)
		if ok != wantOK {
			t.Fatalf("ok = %v; model %v", ok, wantOK)
		}
		if !ok {
			return
		}
		got := string(d.AppendJSON(nil))
		if len(got) > max {
			t.Fatalf("%d bytes > budget %d", len(got), max)
		}
		if got != wantJSON {
			t.Fatalf("\n got %s\nwant %s", got, wantJSON)
		}
		if st != retention.Stats(wantStats) {
			t.Fatalf("stats %+v; model %+v", st, wantStats)
		}
		if st.RetainedMessages != len(d.Conversation) || st.OriginalMessages != st.RetainedMessages+st.OmittedMessages ||
			st.Truncated != (st.OmittedMessages > 0 || st.OmittedBytes > 0) || st.OmittedBytes < 0 {
			t.Fatalf("inconsistent stats %+v for %d messages", st, len(d.Conversation))
		}
		if !js.Canonical(got) {
			t.Fatalf("serialized data is not canonical: %+q", got)
		}
	})
}
