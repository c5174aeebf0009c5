package retention_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
)

// events parses a JSON array of surface events.
func events(t testing.TB, text string) []any {
	t.Helper()
	v, err := jsjson.Parse(text)
	if err != nil {
		t.Fatalf("parse %s: %v", text, err)
	}
	return v.([]any)
}

const (
	user       = `{"type":"user/message","seq":1,"data":{"id":"m","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}}}`
	checkpoint = `{"type":"user/message","seq":2,"data":{"content":[{"type":"text","text":"summary"}],"source":{"kind":"plugin","plugin":"compact","compactionId":"c1"}}}`
	assistant  = `{"type":"assistant/message","seq":3,"data":{"message":{"id":"m3","role":"assistant","content":[{"type":"reasoning","text":"hmm"},{"type":"text","text":"answer"},{"type":"tool-call","id":"c1","name":"read","arguments":"{}"}],"source":{"kind":"model"}}}}`
	toolResult = `{"type":"tool/result","seq":4,"data":{"message":{"role":"user","content":[{"type":"tool-result","toolCallId":"c1","content":[{"type":"text","text":"secret"}]}],"source":{"kind":"tool","callId":"c1"}}}}`
)

func TestProject(t *testing.T) {
	U := func(s string) retention.Item { return retention.Item{Role: retention.User, Text: s} }
	A := func(s string) retention.Item { return retention.Item{Role: retention.Assistant, Text: s} }
	C := func(s string) retention.Item { return retention.Item{Role: retention.User, Text: s, Checkpoint: true} }
	um := func(source, content string) string {
		return `{"type":"user/message","data":{"content":` + content + `,"source":` + source + `}}`
	}
	am := func(content string) string {
		return `{"type":"assistant/message","data":{"message":{"content":` + content + `}}}`
	}
	tests := []struct {
		name   string
		events string
		want   []retention.Item
	}{
		{"empty", `[]`, []retention.Item{}},
		{"typical", "[" + user + "," + checkpoint + "," + assistant + "," + toolResult + "]", []retention.Item{U("hi"), C("summary"), A("answer")}},
		{"tool results excluded", "[" + toolResult + "," + toolResult + "]", []retention.Item{}},
		{"checkpoint extra keys ignored", "[" + um(`{"kind":"plugin","plugin":"compact","x":1}`, `[{"type":"text","text":"s"}]`) + "]", []retention.Item{C("s")}},
		{"other plugin skipped", "[" + um(`{"kind":"plugin","plugin":"other"}`, `[{"type":"text","text":"s"}]`) + "]", []retention.Item{}},
		{"compact without plugin kind skipped", "[" + um(`{"kind":"compact","plugin":"compact"}`, `[{"type":"text","text":"s"}]`) + "]", []retention.Item{}},
		{"session-reference source skipped", "[" + um(`{"kind":"session-reference","form":"recall"}`, `[{"type":"text","text":"s"}]`) + "]", []retention.Item{}},
		{"model source skipped", "[" + um(`{"kind":"model"}`, `[{"type":"text","text":"s"}]`) + "]", []retention.Item{}},
		{"string source skipped", "[" + um(`"user"`, `[{"type":"text","text":"s"}]`) + "]", []retention.Item{}},
		{"number source skipped", "[" + um(`7`, `[{"type":"text","text":"s"}]`) + "]", []retention.Item{}},
		{"array source skipped", "[" + um(`["user"]`, `[{"type":"text","text":"s"}]`) + "]", []retention.Item{}},
		{"skipped message content not read", "[" + um(`{"kind":"tool"}`, `"not an array"`) + "]", []retention.Item{}},
		{"joined with newline", "[" + um(`{"kind":"user"}`, `[{"type":"text","text":"a"},{"type":"image","url":"x"},{"type":"text","text":"b"}]`) + "]", []retention.Item{U("a\nb")}},
		{"empty texts still joined", "[" + um(`{"kind":"user"}`, `[{"type":"text","text":""},{"type":"text","text":""}]`) + "]", []retention.Item{U("\n")}},
		{"empty text skipped", "[" + um(`{"kind":"user"}`, `[{"type":"text","text":""}]`) + "," + am(`[]`) + "]", []retention.Item{}},
		{"only non-text blocks skipped", "[" + am(`[{"type":"reasoning","text":"r"},{"type":"tool-call","id":"c"}]`) + "]", []retention.Item{}},
		{"non-string text ignored", "[" + am(`[{"type":"text","text":5},{"type":"text"},{"type":"text","text":null},{"type":"text","text":"ok"}]`) + "]", []retention.Item{A("ok")}},
		{"non-object blocks ignored", "[" + am(`[1,"text",true,["text"],{"type":"text","text":"ok"}]`) + "]", []retention.Item{A("ok")}},
		{"assistant source not checked", "[" + `{"type":"assistant/message","data":{"message":{"content":[{"type":"text","text":"x"}],"source":{"kind":"plugin","plugin":"compact"}}}}` + "]", []retention.Item{A("x")}},
		{"lone surrogate kept", "[" + am(`[{"type":"text","text":"\ud800<"}]`) + "]", []retention.Item{A("\xed\xa0\x80<")}},
		{"tool result needs no data", `[{"type":"tool/result"}]`, []retention.Item{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := retention.Project(events(t, tt.events))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestProjectSurfaceErrors(t *testing.T) {
	tests := []struct {
		name   string
		events string
		index  int
	}{
		{"unknown type", `[` + user + `,{"type":"weird/event","seq":1}]`, 1},
		{"missing type", `[{"seq":1}]`, 0},
		{"null event", `[null]`, 0},
		{"string event", `["user/message"]`, 0},
		{"array event", `[["user/message"]]`, 0},
		{"user without data", `[{"type":"user/message"}]`, 0},
		{"user with null data", `[{"type":"user/message","data":null}]`, 0},
		{"user without source", `[{"type":"user/message","data":{"content":[]}}]`, 0},
		{"user with null source", `[{"type":"user/message","data":{"content":[],"source":null}}]`, 0},
		{"user content missing", `[{"type":"user/message","data":{"source":{"kind":"user"}}}]`, 0},
		{"user content not an array", `[{"type":"user/message","data":{"content":"hi","source":{"kind":"user"}}}]`, 0},
		{"checkpoint content an object", `[{"type":"user/message","data":{"content":{},"source":{"kind":"plugin","plugin":"compact"}}}]`, 0},
		{"null block", `[{"type":"user/message","data":{"content":[{"type":"text","text":"a"},null],"source":{"kind":"user"}}}]`, 0},
		{"assistant without message", `[{"type":"assistant/message","data":{}}]`, 0},
		{"assistant with null message", `[{"type":"assistant/message","data":{"message":null}}]`, 0},
		{"assistant content null", `[{"type":"assistant/message","data":{"message":{"content":null}}}]`, 0},
		{"assistant null block", `[{"type":"assistant/message","data":{"message":{"content":[null]}}}]`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := retention.Project(events(t, tt.events))
			var se *retention.SurfaceError
			if !errors.As(err, &se) {
				t.Fatalf("Project = %v, %v; want a *SurfaceError", got, err)
			}
			if se.Index != tt.index {
				t.Errorf("Index = %d; want %d", se.Index, tt.index)
			}
			if errcode.Of(err) != "" {
				t.Errorf("a surface error carries code %q; want none", errcode.Of(err))
			}
			if se.Error() == "" {
				t.Error("empty message")
			}
		})
	}
}

func TestIsCompactCheckpoint(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{`{"kind":"plugin","plugin":"compact"}`, true},
		{`{"plugin":"compact","kind":"plugin","compactionId":"x"}`, true},
		{`{"kind":"plugin","plugin":"Compact"}`, false},
		{`{"kind":"plugin"}`, false},
		{`{"kind":"user"}`, false},
		{`"plugin"`, false},
		{`[]`, false},
		{`null`, false},
	}
	for _, tt := range tests {
		v, _ := jsjson.Parse(tt.src)
		if got := retention.IsCompactCheckpoint(v); got != tt.want {
			t.Errorf("IsCompactCheckpoint(%s) = %v", tt.src, got)
		}
	}
}
