package service_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// benchTexts are ~120-byte message texts: ASCII, CJK, emoji and JSON-hostile text.
var benchTexts = []string{
	"Please refactor the parser so that it handles nested brackets and reports the offset of each error clearly.",
	"把这个函数拆成三个更小的函数，并为每个函数补充单元测试，注意边界条件和错误处理。谢谢！",
	"Deploy looks good 🚀🎉 but the dashboard 📊 shows a spike at 03:00 UTC 🤔 — can you check the cron job? 👍",
	"<script>alert(\"x\")</script>\n\t\"quoted\" \\backslash\\ \x01\x02 </referenced-sessions> & {\"json\": [1,2]}\r\n",
}

func textBlock(s string) *jsjson.Object { return jsjson.NewObject().Set("type", "text").Set("text", s) }

// benchSurface has n projected messages, with reasoning blocks and tool results interleaved.
func benchSurface(id string, n int) *sessionquery.Surface {
	evs := make([]any, 0, n+n/2)
	for i := 0; i < n; i++ {
		text := benchTexts[i%len(benchTexts)]
		if i%2 == 0 {
			data := jsjson.NewObject().Set("content", []any{textBlock(text)}).Set("source", jsjson.NewObject().Set("kind", "user"))
			evs = append(evs, jsjson.NewObject().Set("type", "user/message").Set("seq", float64(len(evs))).Set("data", data))
			continue
		}
		msg := jsjson.NewObject().Set("content", []any{
			jsjson.NewObject().Set("type", "reasoning").Set("text", "thinking about "+text),
			textBlock(text),
			jsjson.NewObject().Set("type", "tool-call").Set("id", "c").Set("name", "read").Set("arguments", "{}"),
		})
		evs = append(evs, jsjson.NewObject().Set("type", "assistant/message").Set("data", jsjson.NewObject().Set("message", msg)))
		res := jsjson.NewObject().Set("content", []any{jsjson.NewObject().Set("type", "tool-result").Set("content", []any{textBlock(text)})})
		evs = append(evs, jsjson.NewObject().Set("type", "tool/result").Set("data", jsjson.NewObject().Set("message", res)))
	}
	seq := float64(len(evs))
	cwd := "/home/user/project"
	return &sessionquery.Surface{Session: sessionquery.Header{ID: id, CWD: &cwd}, CapturedThroughSeq: &seq, Events: evs}
}

func benchWorld(sources int, surf func(id string) *sessionquery.Surface) (*sessionquerytest.World, []service.Input) {
	w := &sessionquerytest.World{}
	var refs []service.Input
	for i := 0; i < sources; i++ {
		id := fmt.Sprintf("src-%d", i)
		w.Sessions = append(w.Sessions, sessionquerytest.WorldSession{Header: sessionquery.Header{ID: id}, Surface: surf(id)})
		refs = append(refs, service.Input{SessionID: id})
	}
	return w, refs
}

func runPrepare(b *testing.B, w *sessionquerytest.World, refs []service.Input) {
	s, err := service.New(w, service.Config{})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC() // collect the fixture's garbage outside the timed loop
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := s.Prepare(context.Background(), service.Agent{ID: "me"}, content("x"), refs)
		if err != nil || p.Context == nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepare measures snapshots of 1 and 3 sources of 1k, 10k and 100k projected
// messages under the default 64 KiB budget ("Performance: linear-time snapshots").
func BenchmarkPrepare(b *testing.B) {
	for _, sources := range []int{1, 3} {
		for _, n := range []int{1_000, 10_000, 100_000} {
			b.Run(fmt.Sprintf("sources=%d/messages=%d", sources, n), func(b *testing.B) {
				w, refs := benchWorld(sources, func(id string) *sessionquery.Surface { return benchSurface(id, n) })
				runPrepare(b, w, refs)
			})
		}
	}
	b.Run("sources=1/one-10MB-message", func(b *testing.B) {
		w, refs := benchWorld(1, func(id string) *sessionquery.Surface {
			s := benchSurface(id, 4)
			big := strings.Repeat(strings.Join(benchTexts, " "), 10<<20/len(strings.Join(benchTexts, " ")))
			data := jsjson.NewObject().Set("content", []any{textBlock(big)}).Set("source", jsjson.NewObject().Set("kind", "user"))
			s.Events = append(s.Events, jsjson.NewObject().Set("type", "user/message").Set("data", data))
			return s
		})
		runPrepare(b, w, refs)
	})
}

// BenchmarkListCandidates lists 10k and 100k sessions with a query, so every title is read.
func BenchmarkListCandidates(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			w := &sessionquerytest.World{}
			for i := 0; i < n; i++ {
				cwd := fmt.Sprintf("/home/user/proj-%d", i%37)
				// Cut on a rune boundary: a title from JSON is always a whole JavaScript string.
				title := fmt.Sprintf("Session %d: %s", i, string([]rune(benchTexts[i%len(benchTexts)])[:40]))
				h := sessionquery.Header{ID: fmt.Sprintf("session-%08d", i), CreatedAt: float64(i)}
				if i%5 != 0 {
					h.CWD = &cwd
				}
				w.Sessions = append(w.Sessions, sessionquerytest.WorldSession{Header: h, Title: &title})
			}
			s, err := service.New(w, service.Config{})
			if err != nil {
				b.Fatal(err)
			}
			agentCWD := "/home/user/proj-3"
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c, err := s.ListCandidates(context.Background(), service.Agent{ID: "session-00000007", CWD: &agentCWD}, "PROJ-1", 0)
				if err != nil || len(c) != 50 {
					b.Fatalf("%d candidates, %v", len(c), err)
				}
			}
		})
	}
}
