package adapter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Caller sends one request to an implementation and returns its response. A non-nil error is
// a transport failure: the implementation did not answer within the protocol (crash, hang,
// garbage), as opposed to a response that is wrong.
type Caller interface {
	Call(ctx context.Context, req protocol.Request) (protocol.Response, error)
}

// InProcess adapts a Handler to a Caller: it never fails to answer.
type InProcess struct{ H Handler }

// Call answers req with the handler, reporting the handler's time as the response's
// Elapsed (there is no transport in-process).
func (p InProcess) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	start := time.Now()
	if _, raw := p.H.(WireNumbers); !raw {
		req = req.Plain()
	}
	resp := p.H.Handle(ctx, req)
	resp.Elapsed = max(time.Since(start), 1)
	return resp, nil
}

// Close does nothing.
func (InProcess) Close() error { return nil }

// WireNumbers is implemented by a Handler that wants a number a fixture writes as exact JSON
// text ({$number: "2.0"}) as that text, a jsjson.Number, the way a port reading the request
// line sees it. Other in-process handlers get the double it reads as (protocol.Request.Plain).
type WireNumbers interface{ WireNumbers() }

// TransportError is an adapter that broke the protocol or stopped answering.
type TransportError struct {
	Op     string // the request's op
	Reason string // one line: what the adapter did wrong
	Stderr string // the tail of the adapter's stderr
}

// Error implements the error interface.
func (e *TransportError) Error() string { return fmt.Sprintf("adapter %s: %s", e.Op, e.Reason) }

// Process runs an adapter command and speaks the protocol over its stdin and stdout. A process
// that crashes, hangs past Timeout or breaks the protocol is killed (with its process group,
// where the platform has them) and started again on the next call, replaying the hello the
// runner sent first.
type Process struct {
	Argv    []string
	Dir     string
	Env     []string
	Timeout time.Duration // per call; 0 means 10 s

	mu       sync.Mutex
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	stdout   lineReader
	stderr   *tailBuffer
	dead     bool
	waited   bool // cmd.Wait has returned
	hello    *protocol.Request
	Restarts int
}

// DefaultTimeout is the per-call timeout when Process.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// StartProcess starts argv as an adapter.
func StartProcess(argv []string, dir string, timeout time.Duration) (*Process, error) {
	p := &Process{Argv: argv, Dir: dir, Timeout: timeout}
	if err := p.start(); err != nil {
		return nil, err
	}
	return p, nil
}

// Start starts a Process built as a struct literal (for Env, which StartProcess does not
// take). A Process must be started before its first call.
func (p *Process) Start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.start()
}

func (p *Process) start() error {
	if len(p.Argv) == 0 {
		return errors.New("adapter: empty command")
	}
	cmd := exec.Command(p.Argv[0], p.Argv[1:]...)
	cmd.Dir = p.Dir
	if p.Env != nil {
		cmd.Env = p.Env
	}
	newGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	f, ok := stdout.(*os.File)
	if !ok {
		return errors.New("adapter: stdout pipe is not a file")
	}
	p.stderr = &tailBuffer{max: 16 << 10}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("adapter did not start: %w", err)
	}
	p.cmd, p.stdin, p.stdout, p.dead, p.waited = cmd, stdin, newLineReader(f), false, false
	return nil
}

// Call sends req and waits for its response line.
func (p *Process) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if req.Op == protocol.OpHello && p.hello == nil {
		h := req
		p.hello = &h
	}
	if p.dead {
		if err := p.restart(ctx); err != nil {
			return protocol.Response{}, &TransportError{Op: req.Op, Reason: "restart failed: " + err.Error(), Stderr: p.stderr.String()}
		}
	}
	return p.call(ctx, req)
}

func (p *Process) restart(ctx context.Context) error {
	p.Restarts++
	if err := p.start(); err != nil {
		return err
	}
	if p.hello != nil {
		resp, err := p.call(ctx, *p.hello)
		if err != nil {
			return err
		}
		if !resp.OK {
			return fmt.Errorf("hello failed after restart: %v", resp.Err)
		}
	}
	return nil
}

func (p *Process) call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	fail := func(format string, args ...any) (protocol.Response, error) {
		p.kill()
		return protocol.Response{}, &TransportError{Op: req.Op, Reason: fmt.Sprintf(format, args...), Stderr: p.stderr.String()}
	}
	// Output nobody asked for is a protocol violation.
	if line, ok := p.stdout.unasked(); ok {
		return fail("wrote to stdout without a request: %s", clip(line))
	}
	line := append(req.Line(), '\n')
	if _, err := p.stdin.Write(line); err != nil {
		return fail("stdin closed: %v (%v)", err, p.reap())
	}
	resp, failure := p.answer(ctx, req)
	if failure != "" {
		return fail("%s", failure)
	}
	return resp, nil
}

// answer reads the response to req. A failure is what the adapter did wrong, in one line;
// the caller kills the adapter.
func (p *Process) answer(ctx context.Context, req protocol.Request) (protocol.Response, string) {
	timeout := p.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	line, why := p.stdout.read(ctx, timeout)
	switch why {
	case readTooLong:
		return protocol.Response{}, fmt.Sprintf("response line longer than %d bytes", MaxLine)
	case readExited:
		return protocol.Response{}, fmt.Sprintf("exited without answering (%v)", p.reap())
	case readTimeout:
		return protocol.Response{}, fmt.Sprintf("no response within %v (raise it with --timeout)", timeout)
	case readCanceled:
		return protocol.Response{}, fmt.Sprintf("cancelled: %v", ctx.Err())
	}
	resp, err := protocol.ParseResponse(string(line))
	if err != nil {
		return protocol.Response{}, fmt.Sprintf("invalid response line: %v: %s", err, clip(line))
	}
	if resp.ID != req.ID {
		return protocol.Response{}, fmt.Sprintf("answered id %d to request id %d", resp.ID, req.ID)
	}
	return resp, ""
}

// CallPipelined sends every request of reqs without waiting for the answers between them,
// then reads the responses in order: the protocol's ids and in-order processing make that
// safe, and it saves a round trip per request. Only adapters that declare the pipelining
// feature may be called so; the bench uses it for its small-op loops when asked
// (--pipeline), the certification never does. Timeout applies to each response in turn.
// On a transport failure the adapter is killed, as in Call, and the responses read so far
// are returned with the error.
func (p *Process) CallPipelined(ctx context.Context, reqs []protocol.Request) ([]protocol.Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(reqs) == 0 {
		return nil, nil
	}
	if p.dead {
		if err := p.restart(ctx); err != nil {
			return nil, &TransportError{Op: reqs[0].Op, Reason: "restart failed: " + err.Error(), Stderr: p.stderr.String()}
		}
	}
	var buf []byte
	for _, r := range reqs {
		buf = append(append(buf, r.Line()...), '\n')
	}
	// Write from another goroutine: an adapter that answers while we are still writing fills
	// its stdout pipe, and if nobody read it both sides would block.
	stdin := p.stdin
	wrote := make(chan error, 1)
	go func() {
		_, err := stdin.Write(buf)
		wrote <- err
	}()
	out := make([]protocol.Response, 0, len(reqs))
	for _, req := range reqs {
		resp, failure := p.answer(ctx, req)
		if failure != "" {
			p.kill()
			<-wrote // kill closed stdin, so the writer has returned
			return out, &TransportError{Op: req.Op, Reason: failure, Stderr: p.stderr.String()}
		}
		out = append(out, resp)
	}
	if err := <-wrote; err != nil {
		p.kill()
		return out, &TransportError{Op: reqs[0].Op, Reason: fmt.Sprintf("stdin closed: %v", err), Stderr: p.stderr.String()}
	}
	return out, nil
}

func (p *Process) exitStatus() string {
	if p.cmd == nil || p.cmd.ProcessState == nil {
		return "process ended"
	}
	return p.cmd.ProcessState.String()
}

// reap waits for a process whose stdout has ended and returns how it exited ("exit status
// 2", "signal: killed"), so the report names what the adapter did. A process that closed
// stdout but lives on is killed after a second.
func (p *Process) reap() string {
	if p.cmd == nil || p.waited {
		return p.exitStatus()
	}
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		killGroup(p.cmd)
		<-done
	}
	p.stdout.done()
	p.waited = true
	return p.exitStatus()
}

// kill ends the process group and marks the process dead.
func (p *Process) kill() {
	if p.cmd != nil && p.cmd.Process != nil && !p.dead {
		killGroup(p.cmd) // grandchildren too
		_ = p.stdin.Close()
		if !p.waited {
			_ = p.cmd.Wait()
			p.stdout.done()
			p.waited = true
		}
	}
	p.dead = true
}

// Close closes the adapter's stdin, waits briefly for it to exit, then kills it.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead || p.cmd == nil {
		return nil
	}
	_ = p.stdin.Close()
	// Let it finish and close stdout (within 2 s), discarding what it still writes.
	p.stdout.drain(2 * time.Second)
	killGroup(p.cmd)
	_ = p.cmd.Wait()
	p.stdout.done()
	p.dead = true
	return nil
}

// Stderr returns the tail of the adapter's stderr.
func (p *Process) Stderr() string { return p.stderr.String() }

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(b)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
