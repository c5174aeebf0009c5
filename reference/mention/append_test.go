package mention_test

import (
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/mention"
)

func TestAppendFormat(t *testing.T) {
	for _, tc := range [][2]string{{"a", "a"}, {"a", `x]y\z`}, {"\xed\xa0\x80", "中文"}, {"", ""}} {
		if got, want := string(mention.AppendFormat([]byte("> "), tc[0], tc[1])), "> "+mention.Format(tc[0], tc[1]); got != want {
			t.Errorf("AppendFormat(%q, %q) = %q, want %q", tc[0], tc[1], got, want)
		}
	}
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(100, func() { buf = mention.AppendFormat(buf[:0], "session-1", `label]`) }); n != 0 {
		t.Errorf("AppendFormat allocates %v times per call", n)
	}
}
