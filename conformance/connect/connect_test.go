package connect_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/connect"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// faulty answers hello as the reference does and misbehaves on every other op.
type faulty struct {
	ref   refadapter.Reference
	fault string
}

func (f *faulty) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpHello {
		return f.ref.Handle(ctx, req)
	}
	switch f.fault {
	case "panic":
		panic("boom")
	case "hang":
		<-ctx.Done()
	case "wrong-id":
		return protocol.Response{ID: req.ID + 1, OK: true, Result: "x"}
	}
	return f.ref.Handle(ctx, req)
}

func encode(ctx context.Context, t *testing.T, c *adapter.Client) error {
	t.Helper()
	_, err := c.Do(ctx, protocol.OpURIEncode, wire.NewObject().Set("sessionId", "a"))
	return err
}

// TestHandlerFaultsAreTransportErrors: an in-process handler that panics, hangs or answers
// another id is reported as a broken adapter process would be, by kind.
func TestHandlerFaultsAreTransportErrors(t *testing.T) {
	for fault, kind := range map[string]adapter.Kind{"panic": adapter.KindExited, "hang": adapter.KindTimeout, "wrong-id": adapter.KindProtocol, "": ""} {
		t.Run(fault, func(t *testing.T) {
			conn, err := connect.Dial(connect.Target{Handler: &faulty{fault: fault}, Timeout: 200 * time.Millisecond}, connect.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			c, err := conn.Hello(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := adapter.KindOf(encode(context.Background(), t, c)); got != kind {
				t.Errorf("kind %q, want %q", got, kind)
			}
		})
	}
}

// TestUnboundedHandlerRecoversPanics: with no timeout the handler runs on the caller's
// goroutine, and a panic is still a transport error.
func TestUnboundedHandlerRecoversPanics(t *testing.T) {
	resp, err := adapter.InProcess{H: &faulty{fault: "panic"}}.Call(context.Background(), protocol.Request{ID: 1, Op: protocol.OpURIEncode})
	if adapter.KindOf(err) != adapter.KindExited || !strings.Contains(err.Error(), "boom") {
		t.Errorf("Call = %+v, %v; want a transport error naming the panic", resp, err)
	}
	resp, err = adapter.InProcess{H: &faulty{}}.Call(context.Background(), protocol.Request{ID: 2, Op: protocol.OpURIEncode, Args: wire.NewObject().Set("sessionId", "a")})
	if err != nil || !resp.OK || resp.Elapsed <= 0 {
		t.Errorf("Call = %+v, %v; want an answer with its handler's time", resp, err)
	}
}

// TestLimitsTrip: a connection with limits gives up after that many failures in a row, and
// then sends nothing; one without limits never does.
func TestLimitsTrip(t *testing.T) {
	conn, err := connect.Dial(connect.Target{Handler: &faulty{fault: "panic"}, Timeout: time.Second}, connect.Limits{MaxConsecutiveErrors: 3})
	if err != nil {
		t.Fatal(err)
	}
	c, err := conn.Hello(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		_ = encode(context.Background(), t, c)
	}
	if why := conn.Unusable(); !strings.Contains(why, "3 calls in a row") {
		t.Errorf("Unusable = %q", why)
	}
	if got := adapter.KindOf(encode(context.Background(), t, c)); got != adapter.KindNotSent {
		t.Errorf("after tripping: kind %q, want %q", got, adapter.KindNotSent)
	}

	free, _ := connect.Dial(connect.Target{Handler: &faulty{fault: "panic"}}, connect.Limits{})
	fc, _ := free.Hello(context.Background())
	for range 10 {
		_ = encode(context.Background(), t, fc)
	}
	if why := free.Unusable(); why != "" {
		t.Errorf("no limits, yet Unusable = %q", why)
	}
}

func TestDeadlineTrips(t *testing.T) {
	conn, _ := connect.Dial(connect.Target{Handler: &faulty{}}, connect.Limits{Deadline: time.Minute})
	c, err := conn.Hello(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(connect.ErrDeadline)
	if err := encode(ctx, t, c); adapter.KindOf(err) != adapter.KindNotSent {
		t.Errorf("after the deadline: %v", err)
	}
	if why := conn.Unusable(); !strings.Contains(why, "deadline of 1m0s passed") {
		t.Errorf("Unusable = %q", why)
	}
}

// TestCommandRunsInDir: a command target runs in its Dir (diff and bench honour --dir).
func TestCommandRunsInDir(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this system")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Says hello only where the marker is.
	script := `test -f marker || exit 9; read line; echo '{"id":1,"ok":true,"result":{"protocol":1,"name":"sh","version":"0","spec":"0.0.1-rc.1","features":[]}}'; read line`
	for _, tt := range []struct {
		dir string
		ok  bool
	}{{dir, true}, {"", false}} {
		conn, err := connect.Dial(connect.Target{Command: []string{sh, "-c", script}, Dir: tt.dir, Timeout: 5 * time.Second}, connect.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := conn.Hello(context.Background())
		conn.Close()
		if (err == nil) != tt.ok {
			t.Errorf("dir %q: hello %v, %v; want ok %v", tt.dir, c, err, tt.ok)
		}
	}
}

func TestDialNeedsATarget(t *testing.T) {
	if _, err := connect.Dial(connect.Target{}, connect.Limits{}); err == nil {
		t.Error("Dial of an empty target succeeded")
	}
	if _, err := connect.Dial(connect.Target{Command: []string{filepath.Join(t.TempDir(), "missing")}}, connect.Limits{}); err == nil {
		t.Error("Dial of a missing command succeeded")
	}
}
