package retention_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

const (
	bom    = "\uFEFF"
	hiD800 = "\xed\xa0\x80"
	hiD83D = "\xed\xa0\xbd"
	loDE00 = "\xed\xb8\x80"
)

func TestNotice(t *testing.T) {
	if got, want := retention.Notice(34), "\n[… omitted 34 UTF-8 bytes …]"; got != want {
		t.Errorf("Notice(34) = %q; want %q", got, want)
	}
	if got := retention.Notice(0); got != "\n[… omitted 0 UTF-8 bytes …]" {
		t.Errorf("Notice(0) = %q", got)
	}
}

func TestTruncateKnown(t *testing.T) {
	a100 := strings.Repeat("a", 100)
	tests := []struct {
		name    string
		text    string
		max     int
		want    string
		omitted int
	}{
		{"fits", "abc", 3, "abc", 0},
		{"fits loosely", "abc", 100, "abc", 0},
		{"empty", "", 0, "", 0},
		{"zero budget", "abc", 0, "", 3},
		{"notice cannot fit", a100, 33, "", 100},
		// n=0 would fit too (34 bytes), but bisection tries n=1 first.
		{"one kept", a100, 34, "a\n[… omitted 99 UTF-8 bytes …]", 99},
		{"seven kept", a100, 40, "aaaaaaa\n[… omitted 93 UTF-8 bytes …]", 93},
		{"head and tail", "0123456789" + strings.Repeat("-", 80) + "abcdefghij", 50, "012345678hijklmnopqrstuvwxyz"[:9] + "cdefghij\n[… omitted 83 UTF-8 bytes …]", 83},
		// smoke.sh request 10: the BOM at the head is kept and counted, but not visible.
		{"BOM at head", bom + "é0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", 37, "WXYZ\n[… omitted 34 UTF-8 bytes …]", 34},
		// A BOM at the start of the tail disappears as well.
		{"BOM at tail", strings.Repeat("x", 60) + bom + "yz", 40, "xxxxx" + "yz\n[… omitted 55 UTF-8 bytes …]", 55},
		// Half of an emoji never survives; a lone surrogate is U+FFFD (3 bytes) once truncated.
		{"emoji halves", strings.Repeat("😀", 20), 41, "😀😀\n[… omitted 72 UTF-8 bytes …]", 72},
		{"lone surrogate", hiD800 + strings.Repeat("b", 60), 38, "\uFFFDbb\n[… omitted 58 UTF-8 bytes …]", 58},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := retention.Truncate(tt.text, tt.max)
			want := retention.Truncated{Text: tt.want, OmittedBytes: tt.omitted}
			if got != want {
				t.Errorf("Truncate(%+q, %d) = %+v; want %+v", tt.text, tt.max, got, want)
			}
			mt, mo := modelTruncate(tt.text, tt.max)
			if mt != tt.want || mo != tt.omitted {
				t.Errorf("model: (%+q, %d); table says (%+q, %d)", mt, mo, tt.want, tt.omitted)
			}
		})
	}
}

// Every budget from 0 to beyond the text's length, for texts whose code points are 1 to 4
// bytes long and that hold BOMs at the head, in the middle and at the tail.
func TestTruncateEveryBoundary(t *testing.T) {
	texts := []string{
		"a😀é中" + bom + "b" + strings.Repeat("中😀", 10) + bom + "zé😀",
		bom + strings.Repeat("é", 30) + bom,
		strings.Repeat("😀", 30),
		strings.Repeat("中", 40) + bom + bom + "x",
		hiD800 + "x" + loDE00 + strings.Repeat("y", 40) + hiD83D,
		strings.Repeat("<\"\\\n", 20),
		strings.Repeat("a", 150) + bom + strings.Repeat("b", 10),
	}
	for _, text := range texts {
		n := js.ByteLength(text)
		for max := 0; max <= n+2; max++ {
			got := retention.Truncate(text, max)
			mt, mo := modelTruncate(text, max)
			if got.Text != mt || got.OmittedBytes != mo {
				t.Fatalf("Truncate(%+q, %d) = %+q, %d; model %+q, %d", text, max, got.Text, got.OmittedBytes, mt, mo)
			}
			if max < n && len(got.Text) > max {
				t.Fatalf("Truncate(%+q, %d) is %d bytes", text, max, len(got.Text))
			}
			if !js.Canonical(got.Text) {
				t.Fatalf("Truncate(%+q, %d) = %+q is not canonical", text, max, got.Text)
			}
		}
	}
}

// The bisection's answer is the contract even where a longer retained text would fit: with a
// BOM entering the tail, the omitted count loses a digit, so the fit is not monotone.
func TestTruncateBisectionNotBestFit(t *testing.T) {
	found := 0
	for pad := 90; pad < 110; pad++ {
		text := strings.Repeat("a", pad) + bom + strings.Repeat("z", 6)
		total := len(text)
		for max := 30; max < 60; max++ {
			got := retention.Truncate(text, max)
			// best fit over every retained count
			best := 0
			for n := 0; n <= max; n++ {
				mt, mo := textRetainer(text, (n+1)/2, n/2)
				if len(mt)+len(retention.Notice(mo)) <= max && total-mo > best {
					best = total - mo
				}
			}
			if total-got.OmittedBytes < best {
				found++
			}
		}
	}
	if found == 0 {
		t.Fatal("no budget where bisection keeps less than the best fit; the test lost its point")
	}
}

func str(s string) *string   { return &s }
func num(f float64) *float64 { return &f }

func surface(t testing.TB, id string, cwd *string, seq *float64, evs string) sessionquery.Surface {
	return sessionquery.Surface{Session: sessionquery.Header{ID: id, CWD: cwd}, CapturedThroughSeq: seq, Events: events(t, evs)}
}

func msg(role, text string) string {
	b := jsjson.Quote(text)
	if role == "assistant" {
		return `{"type":"assistant/message","data":{"message":{"content":[{"type":"text","text":` + b + `}]}}}`
	}
	if role == "checkpoint" {
		return `{"type":"user/message","data":{"content":[{"type":"text","text":` + b + `}],"source":{"kind":"plugin","plugin":"compact"}}}`
	}
	return `{"type":"user/message","data":{"content":[{"type":"text","text":` + b + `}],"source":{"kind":"user"}}}`
}

func list(evs ...string) string { return "[" + strings.Join(evs, ",") + "]" }

func serialized(d retention.Data) string { return string(d.AppendJSON(nil)) }

func TestRetainFits(t *testing.T) {
	s := surface(t, "s<1", str("/w"), num(7), list(msg("user", "hello"), msg("assistant", "hi <b>")))
	d, st, ok, err := retention.Retain(s, "Label", 1<<20)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	want := `{"sessionId":"s\u003c1","label":"Label","cwd":"/w","capturedThroughSeq":7,"conversation":[{"role":"user","text":"hello"},{"role":"assistant","text":"hi \u003cb>"}]}`
	if got := serialized(d); got != want {
		t.Errorf("JSON\n got %s\nwant %s", got, want)
	}
	if d := cmp.Diff(retention.Stats{OriginalMessages: 2, RetainedMessages: 2}, st); d != "" {
		t.Errorf("stats (-want +got)\n%s", d)
	}
	// null cwd and capturedThroughSeq
	d, _, _, _ = retention.Retain(surface(t, "s", nil, nil, `[]`), "s", 1000)
	if got := serialized(d); got != `{"sessionId":"s","label":"s","cwd":null,"capturedThroughSeq":null,"conversation":[]}` {
		t.Errorf("empty JSON %s", got)
	}
}

func TestRetainDropOrder(t *testing.T) {
	evs := list(msg("checkpoint", "C0"), msg("user", "u1"), msg("assistant", "a2"), msg("checkpoint", "C3"), msg("user", "u4"), msg("assistant", "a5"))
	s := surface(t, "s", nil, nil, evs)
	full, _, _, _ := retention.Retain(s, "s", 1<<20)
	fullSize := len(serialized(full))
	entry := len(`{"role":"user","text":"u1"},`)
	tests := []struct {
		budget int
		texts  []string
		st     retention.Stats
	}{
		{fullSize, []string{"C0", "u1", "a2", "C3", "u4", "a5"}, retention.Stats{Compacted: true, OriginalMessages: 6, RetainedMessages: 6}},
		{fullSize - 1, []string{"C0", "a2", "C3", "u4", "a5"}, retention.Stats{Compacted: true, OriginalMessages: 6, RetainedMessages: 5, OmittedMessages: 1, OmittedBytes: 2, Truncated: true}},
		{fullSize - entry - 1, []string{"C0", "C3", "u4", "a5"}, retention.Stats{Compacted: true, OriginalMessages: 6, RetainedMessages: 4, OmittedMessages: 2, OmittedBytes: 4, Truncated: true}},
		// Checkpoints and the newest message survive; the rest go oldest first.
		{fullSize - 3*entry, []string{"C0", "C3", "a5"}, retention.Stats{Compacted: true, OriginalMessages: 6, RetainedMessages: 3, OmittedMessages: 3, OmittedBytes: 6, Truncated: true}},
	}
	for _, tt := range tests {
		d, st, ok, err := retention.Retain(s, "s", tt.budget)
		if err != nil || !ok {
			t.Fatalf("budget %d: %v %v", tt.budget, ok, err)
		}
		var texts []string
		for _, m := range d.Conversation {
			texts = append(texts, m.Text)
		}
		if !cmp.Equal(texts, tt.texts) {
			t.Errorf("budget %d: kept %q; want %q", tt.budget, texts, tt.texts)
		}
		if d := cmp.Diff(tt.st, st); d != "" {
			t.Errorf("budget %d: stats (-want +got)\n%s", tt.budget, d)
		}
		if n := len(serialized(d)); n > tt.budget {
			t.Errorf("budget %d: %d bytes", tt.budget, n)
		}
	}
}

// The newest message is never dropped, only truncated; and if it cannot shrink enough the
// source does not fit.
func TestRetainNewestTruncated(t *testing.T) {
	long := strings.Repeat("x", 500)
	s := surface(t, "s", nil, nil, list(msg("user", "old"), msg("assistant", long)))
	d, st, ok, _ := retention.Retain(s, "s", 200)
	if !ok || len(d.Conversation) != 1 || !strings.HasSuffix(d.Conversation[0].Text, " UTF-8 bytes …]") {
		t.Fatalf("got %+v %v", d, ok)
	}
	if !st.Truncated || st.OmittedMessages != 1 || st.OmittedBytes != 3+500-strings.Index(d.Conversation[0].Text, "\n") {
		t.Errorf("stats %+v", st)
	}
	if n := len(serialized(d)); n > 200 {
		t.Errorf("%d bytes", n)
	}
}

func TestRetainBudgetAtFixedSize(t *testing.T) {
	s := surface(t, "sess", str("/home/u"), num(42), list(msg("user", "hello"), msg("checkpoint", "sum"), msg("assistant", "bye")))
	empty := retention.Data{SessionID: "sess", Label: "L", CWD: str("/home/u"), CapturedThroughSeq: num(42)}
	fixed := len(serialized(empty))
	if fixed != len(`{"sessionId":"sess","label":"L","cwd":"/home/u","capturedThroughSeq":42,"conversation":[]}`) {
		t.Fatalf("fixed size %d", fixed)
	}
	// An empty surface fits exactly at the fixed size and not one below.
	e := surface(t, "sess", str("/home/u"), num(42), `[]`)
	if d, st, ok, _ := retention.Retain(e, "L", fixed); !ok || st != (retention.Stats{}) || len(serialized(d)) != fixed {
		t.Errorf("empty at fixed: %v %+v", ok, st)
	}
	if _, _, ok, _ := retention.Retain(e, "L", fixed-1); ok {
		t.Error("empty at fixed-1 fits")
	}
	// With messages, the checkpoint and the newest cannot be dropped, only emptied: the
	// smallest budget is the fixed size plus their two empty entries and a comma.
	floor := fixed + len(`{"role":"user","text":""}`) + 1 + len(`{"role":"assistant","text":""}`)
	for _, b := range []int{fixed - 1, fixed, floor - 1} {
		if _, _, ok, _ := retention.Retain(s, "L", b); ok {
			t.Errorf("budget %d (floor %d) fits", b, floor)
		}
	}
	d, st, ok, err := retention.Retain(s, "L", floor)
	if err != nil || !ok {
		t.Fatalf("budget = floor %d: ok %v err %v", floor, ok, err)
	}
	want := `{"sessionId":"sess","label":"L","cwd":"/home/u","capturedThroughSeq":42,"conversation":[{"role":"user","text":""},{"role":"assistant","text":""}]}`
	if got := serialized(d); got != want {
		t.Errorf("at floor:\n got %s\nwant %s", got, want)
	}
	wantStats := retention.Stats{Compacted: true, OriginalMessages: 3, RetainedMessages: 2, OmittedMessages: 1, OmittedBytes: 5 + 3 + 3, Truncated: true}
	if st != wantStats {
		t.Errorf("stats %+v; want %+v", st, wantStats)
	}
	// Fixed fields alone over budget: a long label.
	if _, _, ok, _ := retention.Retain(e, strings.Repeat("<", 100), 100); ok {
		t.Error("a 600-byte label fits in 100")
	}
}

func TestRetainSurfaceError(t *testing.T) {
	s := surface(t, "s", nil, nil, `[{"type":"bogus"}]`)
	if _, _, ok, err := retention.Retain(s, "s", 1000); err == nil || ok {
		t.Errorf("Retain on a bad surface = %v, %v", ok, err)
	}
}

// --- the naive-model cross-check ---

var fragments = []string{
	"a", "b", "xyz", "hello world ", "<", ">", "&", `"`, `\`, "\n", "\t", "\x01", "\x7f", "é", "ß", "中", "文",
	"😀", "👩‍💻", bom, hiD800, hiD83D, loDE00, "\u2028", "\uFFFD", "</referenced-sessions>", " ",
}

var genText = rapid.Custom(func(t *rapid.T) string {
	return strings.Join(rapid.SliceOfN(rapid.SampledFrom(fragments), rapid.IntRange(0, 30).Draw(t, "min"), 40).Draw(t, "frags"), "")
})

var genShortText = rapid.Custom(func(t *rapid.T) string {
	return strings.Join(rapid.SliceOfN(rapid.SampledFrom(fragments), 0, 4).Draw(t, "frags"), "")
})

func textBlock(s string) *jsjson.Object { return jsjson.NewObject().Set("type", "text").Set("text", s) }

var genBlocks = rapid.Custom(func(t *rapid.T) []any {
	n := rapid.IntRange(0, 3).Draw(t, "blocks")
	var out []any
	for i := 0; i < n; i++ {
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 0:
			out = append(out, jsjson.NewObject().Set("type", "reasoning").Set("text", genText.Draw(t, "reasoning")))
		case 1:
			out = append(out, jsjson.NewObject().Set("type", "tool-call").Set("id", "c").Set("name", "read").Set("arguments", "{}"))
		case 2:
			out = append(out, jsjson.NewObject().Set("type", "text").Set("text", 1.0))
		default:
			out = append(out, textBlock(genText.Draw(t, "text")))
		}
	}
	return out
})

var genEvent = rapid.Custom(func(t *rapid.T) any {
	switch rapid.IntRange(0, 9).Draw(t, "type") {
	case 0, 1:
		msg := jsjson.NewObject().Set("role", "user").Set("content", []any{jsjson.NewObject().Set("type", "tool-result").Set("content", []any{textBlock("result")})})
		return jsjson.NewObject().Set("type", "tool/result").Set("data", jsjson.NewObject().Set("message", msg))
	case 2, 3, 4:
		msg := jsjson.NewObject().Set("content", genBlocks.Draw(t, "content")).Set("source", jsjson.NewObject().Set("kind", "model"))
		return jsjson.NewObject().Set("type", "assistant/message").Set("data", jsjson.NewObject().Set("message", msg))
	}
	var src any
	switch rapid.IntRange(0, 6).Draw(t, "source") {
	case 0:
		src = jsjson.NewObject().Set("kind", "plugin").Set("plugin", "compact").Set("compactionId", "c")
	case 1:
		src = jsjson.NewObject().Set("kind", "plugin").Set("plugin", "other")
	case 2:
		src = "user"
	case 3:
		src = jsjson.NewObject().Set("kind", "session-reference")
	default:
		src = jsjson.NewObject().Set("kind", "user")
	}
	data := jsjson.NewObject().Set("content", genBlocks.Draw(t, "content")).Set("source", src)
	return jsjson.NewObject().Set("type", "user/message").Set("data", data)
})

type retainCase struct {
	snap   modelSnapshot
	label  string
	budget int
}

var genRetainCase = rapid.Custom(func(t *rapid.T) retainCase {
	var c retainCase
	c.snap.id = genShortText.Draw(t, "id")
	if rapid.Bool().Draw(t, "hasCwd") {
		c.snap.cwd = genShortText.Draw(t, "cwd")
	}
	if rapid.Bool().Draw(t, "hasSeq") {
		c.snap.capturedThroughSeq = float64(rapid.IntRange(0, 1000).Draw(t, "seq"))
	}
	c.snap.events = rapid.SliceOfN(genEvent, rapid.IntRange(0, 8).Draw(t, "min"), 12).Draw(t, "events")
	c.label = genShortText.Draw(t, "label")
	// Budgets from below the fixed size to above the full size, where retention acts.
	full, _, _ := modelRetain(c.snap, c.label, 1<<30)
	fixed, _, _ := modelRetain(modelSnapshot{id: c.snap.id, cwd: c.snap.cwd, capturedThroughSeq: c.snap.capturedThroughSeq}, c.label, 1<<30)
	lo, hi := max(1, len(fixed)-5), len(full)+5
	c.budget = lo + (hi-lo)*rapid.IntRange(0, 1000).Draw(t, "budget‰")/1000
	return c
})

func (c retainCase) surface() sessionquery.Surface {
	s := sessionquery.Surface{Session: sessionquery.Header{ID: c.snap.id}, Events: c.snap.events}
	if c.snap.cwd != nil {
		cwd := c.snap.cwd.(string)
		s.Session.CWD = &cwd
	}
	if c.snap.capturedThroughSeq != nil {
		seq := c.snap.capturedThroughSeq.(float64)
		s.CapturedThroughSeq = &seq
	}
	return s
}

// outcomes counts what the cross-check exercised, so a weakened generator shows.
type outcomes struct{ notFit, dropped, truncated, untouched int }

func (o *outcomes) check(t *testing.T) {
	t.Logf("%+v", *o)
	if o.notFit == 0 || o.dropped == 0 || o.truncated == 0 || o.untouched == 0 {
		t.Errorf("generator misses a branch: %+v", *o)
	}
}

func checkAgainstModel(t *rapid.T, c retainCase, o *outcomes) {
	wantJSON, wantStats, wantOK := modelRetain(c.snap, c.label, c.budget)
	d, st, ok, err := retention.Retain(c.surface(), c.label, c.budget)
	if err != nil {
		t.Fatalf("Retain: %v", err)
	}
	if ok != wantOK {
		t.Fatalf("budget %d: ok = %v; model %v (model JSON %s)", c.budget, ok, wantOK, wantJSON)
	}
	if !ok {
		o.notFit++
		return
	}
	switch {
	case strings.Contains(serialized(d), " UTF-8 bytes …]"):
		o.truncated++
	case st.OmittedMessages > 0:
		o.dropped++
	case !st.Truncated:
		o.untouched++
	}
	got := serialized(d)
	if got != wantJSON {
		t.Fatalf("budget %d:\n got %s\nwant %s", c.budget, got, wantJSON)
	}
	if s := retention.Stats(wantStats); st != s {
		t.Fatalf("budget %d: stats %+v; model %+v", c.budget, st, s)
	}
	if len(got) > c.budget {
		t.Fatalf("budget %d: %d bytes", c.budget, len(got))
	}
}

func TestRetainAgainstModel(t *testing.T) {
	var o outcomes
	rapid.Check(t, func(t *rapid.T) {
		c := genRetainCase.Draw(t, "case")
		checkAgainstModel(t, c, &o)
		// and a spread of budgets over the same surface, from the fixed size to the full size
		full, _, _ := modelRetain(c.snap, c.label, 1<<30)
		fixed, _, _ := modelRetain(modelSnapshot{id: c.snap.id, cwd: c.snap.cwd, capturedThroughSeq: c.snap.capturedThroughSeq}, c.label, 1<<30)
		off := rapid.IntRange(0, 7).Draw(t, "offset")
		for k := 0; k <= 8; k++ {
			c.budget = max(1, len(fixed)+(len(full)-len(fixed))*k/8-off)
			checkAgainstModel(t, c, &o)
		}
	})
	o.check(t)
}

// Many messages at small budgets, where phase 2 truncates several texts in turn.
func TestRetainAgainstModelTight(t *testing.T) {
	var o outcomes
	defer func() { t.Logf("%+v", o) }()
	rapid.Check(t, func(t *rapid.T) {
		c := genRetainCase.Draw(t, "case")
		fixed, _, _ := modelRetain(modelSnapshot{id: c.snap.id, cwd: c.snap.cwd, capturedThroughSeq: c.snap.capturedThroughSeq}, c.label, 1<<30)
		c.budget = len(fixed) + rapid.IntRange(-2, 300).Draw(t, "slack")
		checkAgainstModel(t, c, &o)
	})
}
