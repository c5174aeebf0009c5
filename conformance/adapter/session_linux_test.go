package adapter_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
)

// TestAdapterHasNoTerminal: the adapter leads a session of its own, so it has no controlling
// terminal. In the runner's session, an adapter (or a helper it left behind) could open
// /dev/tty and write "OK … conformant (exit 0)" with any escape sequence it liked, past the
// escaping of everything the runner prints, even after the runner had exited.
func TestAdapterHasNoTerminal(t *testing.T) {
	// Fields 1 and 6 of /proc/PID/stat are the pid and the session id (comm is "(sh)").
	script := `read line; read -r stat < /proc/$$/stat; set -- $stat; echo "{\"id\":1,\"ok\":true,\"result\":\"$1 $6\"}"; read line`
	p := &adapter.Process{Argv: []string{"sh", "-c", script}, Timeout: 10 * time.Second}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	resp, err := p.Call(context.Background(), encodeA)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(resp.Result.(string))
	if len(f) != 2 || f[0] != f[1] {
		t.Errorf("pid and session %q: the adapter does not lead a session of its own", f)
	}
}
