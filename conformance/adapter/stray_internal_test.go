package adapter

import (
	"strings"
	"testing"
)

func TestStray(t *testing.T) {
	for line, want := range map[string]bool{
		"adapter ready":                      true,
		"":                                   true,
		`{"level":"info","msg":"listening"}`: true,  // a structured log record
		`{"id":1,"ok":true,"result":"a"}`:    false, // an answer
		`{"id":1,"ok":true,"result":`:        false, // a truncated answer is a bad answer
		`{"ok":true,"result":`:               false, // so is one truncated before its id
		"  {\"id\":2}":                       false,
	} {
		if got := stray([]byte(line)); got != want {
			t.Errorf("stray(%q) = %v, want %v", line, got, want)
		}
	}
}

// An answer behind a UTF-8 byte order mark (.NET's Encoding.UTF8 on stdout) is stray, and
// its reason names the mark, not logging.
func TestStrayReasonNamesABOM(t *testing.T) {
	bom := "\ufeff" + `{"id":1,"ok":true,"result":{"protocol":1}}`
	if !stray([]byte(bom)) {
		t.Fatalf("stray(%q) = false, want true", bom)
	}
	if got := strayReason([]byte(bom)); !strings.Contains(got, BOMRule) || !strings.Contains(got, `"\ufeff{`) {
		t.Errorf("strayReason(%q) = %q, want the BOM rule and the mark shown", bom, got)
	}
	if got := strayReason([]byte("\ufeffadapter ready")); !strings.Contains(got, StdoutRule) {
		t.Errorf("a log line behind a BOM: %q, want the stdout rule", got)
	}
	if got := strayReason([]byte("adapter ready")); !strings.Contains(got, StdoutRule) {
		t.Errorf("a log line: %q, want the stdout rule", got)
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, \"quoted\" \\ kept": "plain text, \"quoted\" \\ kept",
		"é 日本":                           "é 日本",
		"a\x1b[2Jb":                      `a\x1b[2Jb`,
		"line\u2028sep":                  `line\u2028sep`,
		"zero\u200bwidth":                `zero\u200bwidth`,
		"no\u00a0break":                  `no\u00a0break`,
		"tab\there\r":                    `tab\there\r`,
		"bad\xffbyte":                    `bad\xffbyte`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := quoteLine([]byte("a\u2028b\x1b"), 200); got != `"a\u2028b\x1b"` {
		t.Errorf("quoteLine = %s", got)
	}
}
