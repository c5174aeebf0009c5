package readmetest

import "testing"

func TestMatch(t *testing.T) {
	out := "a\nseed 12 x\nb 0.31s\nc\n"
	if err := Match("a\n…\nb 1.20s\nc\n", out); err != nil {
		t.Error(err)
	}
	for _, stale := range []string{"a\nb 1.2s\nz\n", "c\na\n", "seed 1 y\n"} {
		if Match(stale, out) == nil {
			t.Errorf("%q matched %q", stale, out)
		}
	}
}
