package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// FuzzPrepare prepares a reference to a world of one session, with a random budget. What
// the service reads of the session is fuzzed: its id; its cwd (none unless hasCWD); its surface,
// the events as JSON text (an array; "" for a session with no surface) and capturedThroughSeq
// (null when seqNull); and its read error (none unless hasReadError). Then the id referenced
// and the budget. Whatever the input: no panic; a failure is a contract error or a surface
// that breaks the query contract, never anything else; a success frames the prompt once, lets
// no data '<' through, and keeps every source object within the byte budget.
func FuzzPrepare(f *testing.F) {
	f.Add("a", "", false, `[{"type":"user/message","seq":1,"data":{"content":[{"type":"text","text":"hello <b>"}],"source":{"kind":"user"}}}]`, 3.0, false, "", false, "a", 200)
	f.Add("a", "/w", true, `[{"type":"user/message","seq":1,"data":{"content":[{"type":"text","text":"\ufeffxyz\u00e9\u4e2d\ud83d\ude00"}],"source":{"kind":"plugin","plugin":"compact"}}},{"type":"assistant/message","seq":2,"data":{"message":{"content":[{"type":"text","text":"\ud800 reply"}]}}}]`, 0.0, true, "", false, "a", 90)
	f.Add("b", "", false, "", 0.0, true, "boom", true, "b", 65536)
	f.Add("c", "", false, `[{"type":"weird"}]`, 0.0, true, "", false, "c", 100)
	f.Fuzz(func(t *testing.T, sessionID, cwd string, hasCWD bool, eventsJSON string, capturedThroughSeq float64, seqNull bool, readError string, hasReadError bool, id string, budget int) {
		s := sessionquerytest.WorldSession{Header: sessionquery.Header{ID: sessionID, CreatedAt: 1}}
		if hasCWD {
			s.Header.CWD = &cwd
		}
		if eventsJSON != "" {
			v, err := jsjson.Parse(eventsJSON)
			events, ok := v.([]any)
			if err != nil || !ok {
				return
			}
			s.Surface = &sessionquery.Surface{Events: events}
			if !seqNull {
				s.Surface.CapturedThroughSeq = &capturedThroughSeq
			}
		}
		if hasReadError {
			s.ReadError = &readError
		}
		world := &sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{s}}
		svc, err := service.New(world, service.Config{MaxReferenceBytes: budget})
		if err != nil {
			if !errors.Is(err, errcode.InvalidConfig) {
				t.Fatalf("config %d: %v", budget, err)
			}
			return
		}
		budget = svc.Config().MaxReferenceBytes // 0 stands for the default
		p, err := svc.Prepare(context.Background(), service.Agent{ID: "\x00target"}, []any{}, []service.Input{{SessionID: id}})
		if err != nil {
			var se *retention.SurfaceError
			if errcode.Of(err) == "" && !errors.As(err, &se) {
				t.Fatalf("error with no contract code that is not a surface error: %v", err)
			}
			return
		}
		prompt := p.Context.Text
		data, ok := strings.CutPrefix(prompt, service.PromptPrefix)
		if !ok {
			t.Fatal("prompt prefix missing")
		}
		if data, ok = strings.CutSuffix(data, service.PromptSuffix); !ok {
			t.Fatal("prompt suffix missing")
		}
		if strings.Contains(data, "<") {
			t.Fatal("a data '<' reached the prompt")
		}
		v, err := jsjson.Parse(data)
		if err != nil {
			t.Fatalf("prompt data is not JSON: %v", err)
		}
		for _, src := range v.([]any) {
			b, _ := jsjson.Marshal(src)
			// Marshal writes '<' raw; the prompt escapes it as \u003c, five bytes more.
			size := len(b) + 5*strings.Count(string(b), "<")
			if size > budget {
				t.Fatalf("source object of %d bytes exceeds the budget %d", size, budget)
			}
		}
	})
}
