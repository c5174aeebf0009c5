package mention_test

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

func BenchmarkParse(b *testing.B) {
	text := strings.Repeat("Compare the plan in ", 20) + mention.Format("session-a", "Plan [v2]") +
		" with " + uri.Encode("session-b") + " and " + mention.Format("会话-c", "设计 😀") + strings.Repeat(" thanks", 20)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if p, err := mention.Parse(text); err != nil || len(p.References) != 3 {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseNoMention(b *testing.B) {
	text := strings.Repeat("plain text without any reference at all ", 25)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := mention.Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormat(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = mention.Format("session-a", `Plan [v2] \ draft`)
	}
}
