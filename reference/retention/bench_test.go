package retention_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/retention"
)

var benchTexts = []string{
	"Please refactor the parser so that it handles nested brackets and reports the offset of each error clearly.",
	"把这个函数拆成三个更小的函数，并为每个函数补充单元测试，注意边界条件和错误处理。谢谢！",
	"Deploy looks good 🚀🎉 but the dashboard 📊 shows a spike at 03:00 UTC 🤔 — can you check the cron job? 👍",
	"<script>alert(\"x\")</script>\n\t\"quoted\" \\backslash\\ \x01\x02 </referenced-sessions> & {\"json\": [1,2]}\r\n",
}

func benchEvents(n int) []any {
	evs := make([]any, 0, n+n/2)
	for i := 0; i < n; i++ {
		text := benchTexts[i%len(benchTexts)]
		if i%2 == 0 {
			data := jsjson.NewObject().Set("content", []any{textBlock(text)}).Set("source", jsjson.NewObject().Set("kind", "user"))
			evs = append(evs, jsjson.NewObject().Set("type", "user/message").Set("data", data))
			continue
		}
		msg := jsjson.NewObject().Set("content", []any{jsjson.NewObject().Set("type", "reasoning").Set("text", text), textBlock(text)})
		evs = append(evs, jsjson.NewObject().Set("type", "assistant/message").Set("data", jsjson.NewObject().Set("message", msg)))
		evs = append(evs, jsjson.NewObject().Set("type", "tool/result").Set("data", jsjson.NewObject()))
	}
	return evs
}

func BenchmarkProject(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			evs := benchEvents(n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if items, err := retention.Project(evs); err != nil || len(items) != n {
					b.Fatal(len(items), err)
				}
			}
		})
	}
}

func BenchmarkRetainItems(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			items, _ := retention.Project(benchEvents(n))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, ok := retention.RetainItems("s", "s", nil, nil, items, 65536); !ok {
					b.Fatal("does not fit")
				}
			}
		})
	}
}

func BenchmarkTruncate10MB(b *testing.B) {
	big := strings.Repeat(strings.Join(benchTexts, " "), 10<<20/len(strings.Join(benchTexts, " ")))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		retention.Truncate(big, 65000)
	}
}
