package adapter_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// faulty is the reference with one fault on uri.decode, for the test binary's serve mode.
type faulty struct {
	h    adapter.Handler
	mode string
}

func (f faulty) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpURIDecode {
		switch f.mode {
		case "hang":
			time.Sleep(time.Hour) // not select{}: the runtime would call that a deadlock and exit
		case "crash":
			os.Exit(2)
		case "garbage":
			fmt.Println("not a response")
		}
	}
	return f.h.Handle(ctx, req)
}

// startFaulty starts the test binary as an adapter with the given fault.
func startFaulty(t *testing.T, mode string, timeout time.Duration) *adapter.Process {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &adapter.Process{Argv: []string{self}, Env: append(os.Environ(), serveEnv+"="+mode), Timeout: timeout}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

var (
	encodeA = protocol.Request{ID: 1, Op: protocol.OpURIEncode, Args: wire.NewObject().Set("sessionId", "a")}
	decodeA = protocol.Request{ID: 2, Op: protocol.OpURIDecode, Args: wire.NewObject().Set("uri", "dsh-session:ImEi")}
)

// TestProcessReaders runs the process client's answers and failures through both ways of
// reading stdout: read deadlines in the caller (unix) and a reader goroutine (Windows).
func TestProcessReaders(t *testing.T) {
	for _, reader := range []string{"deadline", "goroutine"} {
		t.Run(reader, func(t *testing.T) {
			if reader == "goroutine" {
				adapter.UseReaderGoroutine(t)
			}
			t.Run("answers", func(t *testing.T) {
				before := runtime.NumGoroutine()
				p := startFaulty(t, "1", 10*time.Second)
				for i := range 50 {
					req := decodeA
					req.ID = int64(i)
					resp, err := p.Call(context.Background(), req)
					if err != nil || resp.ID != req.ID || resp.Result != "a" {
						t.Fatalf("call %d: %+v %v", i, resp, err)
					}
				}
				reqs := []protocol.Request{encodeA, decodeA, encodeA}
				resps, err := p.CallPipelined(context.Background(), reqs)
				if err != nil || len(resps) != 3 || resps[1].Result != "a" || resps[2].Result != "dsh-session:ImEi" {
					t.Fatalf("pipelined: %+v %v", resps, err)
				}
				// Close leaves no goroutine behind (the reader goroutine included).
				p.Close()
				if late := p.LateStdout(); late != "" {
					t.Errorf("an adapter that wrote nothing after its last answer: %s", late)
				}
				for deadline := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > before; time.Sleep(10 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("%d goroutines after Close, %d before", runtime.NumGoroutine(), before)
					}
				}
			})
			// A line written after the last answer, when stdin closes, is found by Close.
			t.Run("late stdout", func(t *testing.T) {
				p := startFaulty(t, "bye", 10*time.Second)
				if _, err := p.Call(context.Background(), encodeA); err != nil {
					t.Fatal(err)
				}
				p.Close()
				if late, want := p.LateStdout(), `wrote 4 bytes to stdout after its last answer, which no request asked for (logs go to stderr): "bye\n"`; !strings.Contains(late, want) {
					t.Errorf("LateStdout %q, want it to hold %q", late, want)
				}
			})
			// Each failure is asserted by its kind, not by the wording that won a race (a
			// write to a dead adapter and a read of its stdout both notice it is gone).
			for _, tt := range []struct {
				mode        string
				kind        adapter.Kind
				timeout     time.Duration
				cancelAfter time.Duration
			}{
				{"hang", adapter.KindTimeout, 200 * time.Millisecond, 0},
				{"hang", adapter.KindCancelled, 10 * time.Second, 100 * time.Millisecond},
				{"crash", adapter.KindExited, 10 * time.Second, 0},
				{"garbage", adapter.KindStray, 10 * time.Second, 0},
			} {
				t.Run(tt.mode+"/"+string(tt.kind), func(t *testing.T) {
					p := startFaulty(t, tt.mode, tt.timeout)
					ctx := context.Background()
					if tt.cancelAfter > 0 {
						var cancel context.CancelFunc
						ctx, cancel = context.WithTimeout(ctx, tt.cancelAfter)
						defer cancel()
					}
					start := time.Now()
					_, err := p.Call(ctx, decodeA)
					if d := time.Since(start); d > 9*time.Second {
						t.Errorf("the call returned after %v", d)
					}
					if got := adapter.KindOf(err); got != tt.kind {
						t.Fatalf("error %v of kind %q, want %q", err, got, tt.kind)
					}
					// The next call starts the adapter again: its hello gets at least the
					// default timeout, whatever the short one of the test, and the call a
					// timeout that covers a loaded machine under -race.
					p.Timeout = 10 * time.Second
					resp, err := p.Call(context.Background(), encodeA)
					if err != nil || resp.Result != "dsh-session:ImEi" || p.Restarts != 1 {
						t.Errorf("after the failure: %+v %v, %d restarts", resp, err, p.Restarts)
					}
				})
			}
		})
	}
}

// An adapter that never reads its stdin fills the pipe: the write of a large request is
// bounded by the timeout as the read is, and fails as a timeout.
func TestProcessWriteIsBounded(t *testing.T) {
	p := startFaulty(t, "deaf", 300*time.Millisecond)
	big := protocol.Request{ID: 1, Op: protocol.OpURIEncode, Args: wire.NewObject().Set("sessionId", strings.Repeat("x", 4<<20))}
	start := time.Now()
	_, err := p.Call(context.Background(), big)
	if got := adapter.KindOf(err); got != adapter.KindTimeout {
		t.Errorf("error %v of kind %q, want %q", err, got, adapter.KindTimeout)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the call returned after %v", d)
	}
}
