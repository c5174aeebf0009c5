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
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// FuzzPrepare prepares random worlds with random budgets. Whatever the input: no panic; a
// failure is a contract error or a surface that breaks the query contract, never anything
// else; a success frames the prompt once, lets no data '<' through, and keeps every source
// object within the byte budget.
func FuzzPrepare(f *testing.F) {
	f.Add(`{"sessions":[{"header":{"id":"a","createdAt":1},"surface":{"capturedThroughSeq":3,"events":[{"type":"user/message","seq":1,"data":{"content":[{"type":"text","text":"hello <b>"}],"source":{"kind":"user"}}}]}}]}`, "a", 200)
	f.Add(`{"sessions":[{"header":{"id":"a","cwd":"/w","createdAt":1},"surface":{"capturedThroughSeq":null,"events":[{"type":"user/message","seq":1,"data":{"content":[{"type":"text","text":"\ufeffxyz\u00e9\u4e2d\ud83d\ude00"}],"source":{"kind":"plugin","plugin":"compact"}}},{"type":"assistant/message","seq":2,"data":{"message":{"content":[{"type":"text","text":"\ud800 reply"}]}}}]}}]}`, "a", 90)
	f.Add(`{"sessions":[{"header":{"id":"b","createdAt":1},"readError":"boom"}]}`, "b", 65536)
	f.Add(`{"sessions":[{"header":{"id":"c","createdAt":1},"surface":{"events":[{"type":"weird"}]}}]}`, "c", 100)
	f.Fuzz(func(t *testing.T, worldJSON, id string, budget int) {
		world, err := sessionquerytest.ParseWorld(worldJSON)
		if err != nil {
			return
		}
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
