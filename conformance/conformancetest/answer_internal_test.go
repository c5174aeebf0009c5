package conformancetest

import (
	"fmt"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// A port's goport.Error is answered with its code and its own message, not its Error() (which
// leads with the code); a wrapped one keeps the wrapping's words.
func TestAnswerMessage(t *testing.T) {
	b := &bridge{}
	for _, tc := range []struct {
		err        error
		code, want string
	}{
		{&goport.Error{Code: goport.TooMany, Message: "at most 3"}, string(goport.TooMany), "at most 3"},
		{fmt.Errorf("prepare: %w", &goport.Error{Code: goport.TooMany, Message: "at most 3"}), string(goport.TooMany), "prepare: SESSION_REFERENCE_TOO_MANY: at most 3"},
		{goport.Cancelled, string(goport.Cancelled), "SESSION_REFERENCE_CANCELLED"},
		{&goport.Error{Code: goport.ReadFailed}, string(goport.ReadFailed), "SESSION_REFERENCE_READ_FAILED: "},
	} {
		resp := b.answer(protocol.Request{ID: 1, Op: protocol.OpPrepare}, tc.err)
		if resp.Err == nil || resp.Err.Code != tc.code || resp.Err.Message != tc.want {
			t.Errorf("%v: answered %+v, want code %s, message %q", tc.err, resp.Err, tc.code, tc.want)
		}
	}
}
