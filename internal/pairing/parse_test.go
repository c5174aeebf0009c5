package pairing

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuotePath(t *testing.T) {
	for in, want := range map[string]string{
		"docs/README.md":          "docs/README.md",
		"文档/README.zh.md":         "文档/README.zh.md",
		"a\x1b[31mb":              `"a\033[31mb"`,
		"cr\r":                    `"cr\r"`,
		"tab\tnl\n":               `"tab\tnl\n"`,
		`q"b\`:                    `"q\"b\\"`,
		"bad\xff":                 `"bad\377"`,
		"c1\u009b":                `"c1\302\233"`,
		"rtl\u202e":               `"rtl\342\200\256"`,
		"del\x7f":                 `"del\177"`,
		"bell\a\b\v\f":            `"bell\a\b\v\f"`,
		"truncated\xe6\x96":       `"truncated\346\226"`,
		"emoji😀":                  "emoji😀",
		"nul\x00":                 `"nul\000"`,
		"osc\x1b]8;;http://x\x07": `"osc\033]8;;http://x\a"`,
	} {
		if got := QuotePath(in); got != want {
			t.Errorf("QuotePath(%q) = %s, want %s", in, got, want)
		}
	}
	if got := EscapeTerminal("a\x1b[2Jb\r\"\\\tc"); got != `a\033[2Jb\r"\`+"\tc" {
		t.Errorf("EscapeTerminal = %q", got)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("sets:\n  - record: t.yaml\n    languages: {en: \"en/**/*.md\", zh: \"zh/**/*.md\"}\n"))
	f.Add([]byte("sets: [{record: a, languages: {en: '*.md', zh: '*.zh.md'}, exclude: ['x']}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sets, err := parseConfig(data)
		if err == nil {
			for _, s := range sets {
				s.classify("en/a.md")
			}
		}
	})
}

// Whatever a path holds, its quoted form is printable valid UTF-8 with no control
// byte, and reads back (C-unquoted, as git's quoting does) as the same bytes.
func FuzzQuotePath(f *testing.F) {
	for _, s := range []string{"a", "a\x1b[2K\r", "bad\xff", "c1\u009b", "\u202e", `q"\`, "文档", "\x00\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := QuotePath(s)
		if !utf8.ValidString(q) {
			t.Fatalf("QuotePath(%q) = %q is not UTF-8", s, q)
		}
		for _, r := range q {
			if r < 0x20 || r == 0x7f || unsafeRune(r) {
				t.Fatalf("QuotePath(%q) = %q holds %U", s, q, r)
			}
		}
		if q == s {
			return
		}
		back, n, ok := cUnquote(q)
		if !ok || n != len(q) || back != s {
			t.Fatalf("QuotePath(%q) = %q reads back as %q (%v)", s, q, back, ok)
		}
	})
}

// cUnquote reads back a quoted path: the C escapes QuotePath writes.
func cUnquote(q string) (string, int, bool) {
	if len(q) < 2 || q[0] != '"' {
		return "", 0, false
	}
	var b strings.Builder
	for i := 1; i < len(q); i++ {
		switch c := q[i]; {
		case c == '"':
			return b.String(), i + 1, true
		case c == '\\' && i+1 < len(q):
			i++
			if e := strings.IndexByte("abtnvfr", q[i]); e >= 0 {
				b.WriteByte("\a\b\t\n\v\f\r"[e])
			} else if q[i] >= '0' && q[i] <= '3' && i+2 < len(q) {
				b.WriteByte((q[i]-'0')<<6 | (q[i+1]-'0')<<3 | (q[i+2] - '0'))
				i += 2
			} else {
				b.WriteByte(q[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}
