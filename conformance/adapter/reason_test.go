package adapter_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

func TestUnsupportedReason(t *testing.T) {
	unsupported := func(msg string) protocol.Response {
		return protocol.Response{Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: msg}}
	}
	for _, tt := range []struct {
		msg, want string
	}{
		{"", "the adapter does not support op prepare"},
		{"  \n", "the adapter does not support op prepare"},
		{"cancel mode during-read is not supported", "the adapter does not support op prepare (it says: cancel mode during-read is not supported)"},
		{"reference 12 is null\nstack trace …", "the adapter does not support op prepare (it says: reference # is null)"},
		{"bad \xff byte", "the adapter does not support op prepare (it says: bad \uFFFD byte)"},
	} {
		if got := adapter.UnsupportedReason(protocol.OpPrepare, unsupported(tt.msg)); got != tt.want {
			t.Errorf("message %q: reason %q, want %q", tt.msg, got, tt.want)
		}
	}
	long := adapter.UnsupportedReason(protocol.OpPrepare, unsupported(strings.Repeat("é", 300)))
	if len(long) > 300 || !utf8.ValidString(long) || !strings.HasSuffix(long, "…)") {
		t.Errorf("a long message is not clipped to valid UTF-8: %d bytes %q", len(long), long)
	}
	if got := adapter.UnsupportedReason(protocol.OpPrepare, protocol.Response{}); got != "the adapter does not support op prepare" {
		t.Errorf("no error: %q", got)
	}
}
