package adapter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Caller sends one request to an implementation and returns its response. A non-nil error is
// a transport failure: the implementation did not answer within the protocol (crash, hang,
// garbage), as opposed to a response that is wrong.
type Caller interface {
	Call(ctx context.Context, req protocol.Request) (protocol.Response, error)
}

// InProcess adapts a Handler to a Caller with the guarantees the process path has, so a
// broken Go implementation is reported like a broken adapter process instead of hanging or
// crashing its caller: a panic is a transport error (KindExited), an answer with another id
// is one (KindProtocol), and, when Timeout is set, so is a call past it (KindTimeout) or past
// its context. It is the one Handler-to-Caller adapter of the kit.
type InProcess struct {
	H Handler
	// Timeout bounds each call; 0 means unbounded, and the call runs on the caller's
	// goroutine (what a benchmark of the handler wants). A call past it is left running
	// with its context cancelled: a goroutine cannot be stopped.
	Timeout time.Duration
}

// Call answers req with the handler, reporting the handler's time as the response's
// Elapsed (there is no transport in-process).
func (p InProcess) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if _, raw := p.H.(WireNumbers); !raw {
		req = req.Plain()
	}
	if p.Timeout <= 0 {
		resp, err := p.handle(ctx, req)
		return p.checked(req, resp, err)
	}
	type answer struct {
		resp protocol.Response
		err  error
	}
	ch := make(chan answer, 1)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		resp, err := p.handle(cctx, req)
		ch <- answer{resp, err}
	}()
	timer := time.NewTimer(p.Timeout)
	defer timer.Stop()
	select {
	case a := <-ch:
		return p.checked(req, a.resp, a.err)
	case <-timer.C:
		return protocol.Response{}, &TransportError{Op: req.Op, Kind: KindTimeout, Reason: fmt.Sprintf("no response within %v (raise it with --timeout)", p.Timeout)}
	case <-ctx.Done():
		return protocol.Response{}, &TransportError{Op: req.Op, Kind: KindCancelled, Reason: "cancelled: " + context.Cause(ctx).Error()}
	}
}

// handle calls the handler, turning a panic into a transport error.
func (p InProcess) handle(ctx context.Context, req protocol.Request) (resp protocol.Response, err error) {
	defer func() {
		if r := recover(); r != nil {
			resp, err = protocol.Response{}, &TransportError{Op: req.Op, Kind: KindExited, Reason: fmt.Sprintf("handler panicked: %v", r)}
		}
	}()
	start := time.Now()
	resp = p.H.Handle(ctx, req)
	resp.Elapsed = max(time.Since(start), 1)
	return resp, nil
}

func (p InProcess) checked(req protocol.Request, resp protocol.Response, err error) (protocol.Response, error) {
	if err == nil && resp.ID != req.ID {
		return protocol.Response{}, &TransportError{Op: req.Op, Kind: KindProtocol, Reason: fmt.Sprintf("answered id %d to request id %d", resp.ID, req.ID)}
	}
	return resp, err
}

// Close does nothing.
func (InProcess) Close() error { return nil }

// WireNumbers is implemented by a Handler that wants a number a fixture writes as exact JSON
// text ({$number: "2.0"}) as that text, a jsjson.Number, the way a port reading the request
// line sees it. Other in-process handlers get the double it reads as (protocol.Request.Plain).
type WireNumbers interface{ WireNumbers() }

// Kind classifies a transport failure, so that callers (the runner's budgets, tests) decide
// on what happened rather than on the wording of a message.
type Kind string

// The kinds of transport failure.
const (
	KindNotStarted Kind = "not-started"  // the command could not be started
	KindExited     Kind = "exited"       // the adapter crashed, exited or closed its stdin or stdout
	KindTimeout    Kind = "timeout"      // no answer within the per-call timeout
	KindProtocol   Kind = "protocol"     // a line that is not the answer: bad JSON or UTF-8, wrong id, too long, unasked
	KindStray      Kind = "stray-stdout" // a line on stdout that is no protocol line at all: a log line (see StdoutRule)
	KindCancelled  Kind = "cancelled"    // the caller's context ended first (a signal, the run's deadline)
	KindNotSent    Kind = "not-sent"     // the caller gave up on the adapter before this call
)

// TransportError is an adapter that broke the protocol or stopped answering.
type TransportError struct {
	Op     string // the request's op
	Kind   Kind   // what kind of failure; "" is treated as KindProtocol
	Reason string // one line: what the adapter did wrong
	Stderr string // the tail of the adapter's stderr
}

// Error implements the error interface. A stray stdout line is not the op's fault (it is
// read where the next answer was expected, whichever op that was), so its message names none.
func (e *TransportError) Error() string {
	if e.Kind == KindStray {
		return "adapter: " + e.Reason
	}
	return fmt.Sprintf("adapter %s: %s", e.Op, e.Reason)
}

// KindOf returns the kind of a transport error, or "" when err is not one.
func KindOf(err error) Kind {
	var te *TransportError
	if !errors.As(err, &te) {
		return ""
	}
	if te.Kind == "" {
		return KindProtocol
	}
	return te.Kind
}

// Bounds on waiting for an adapter process, so that no adapter can hang the caller: a
// process the runner gave up on is killed with its group, and a helper it started outside
// that group (setsid) is named in Orphans rather than waited for.
const (
	// killWait bounds the wait for a killed process to be reaped.
	killWait = 5 * time.Second
	// stderrGrace is how long stderr may stay open after the process ended: only a process
	// outside the group (an escaped helper) can hold it longer.
	stderrGrace = 500 * time.Millisecond
	// closeGrace is how long Close lets an adapter finish after its stdin is closed.
	closeGrace = 2 * time.Second
)

// Process runs an adapter command and speaks the protocol over its stdin and stdout. A process
// that crashes, hangs past Timeout or breaks the protocol is killed (with its process group,
// where the platform has them) and started again on the next call, replaying the hello the
// runner sent first. Every wait on the process is bounded (see Close).
type Process struct {
	Argv    []string
	Dir     string
	Env     []string
	Timeout time.Duration // per call; 0 means 10 s

	mu         sync.Mutex
	cmd        *exec.Cmd
	stdin      io.WriteCloser
	stdoutF    *os.File
	stdout     lineReader
	stderr     *tailBuffer
	stderrR    *os.File
	stderrDone chan struct{}
	exit       *exit    // of the current process
	pipes      []uint64 // identities of the three pipes, to find who else holds them
	started    uint64   // the process's start time (startTime): its helpers started no earlier
	dead       bool
	waited     bool // the process was waited for (or given up on) and its pipes closed
	hello      *protocol.Request
	orphans    []string
	seen       map[int]bool
	killedByUs bool // reap killed a process that had closed stdout but lived on
	Restarts   int
	// Strays counts the lines that were no protocol line at all (KindStray): after
	// MaxStrayLines of them the process is not restarted again.
	Strays    int
	lastStray string // the reason of the last, repeated when a restart is refused
	late      string // what Close found on stdout after the last answer (LateStdout)
	// wbuf is reused for the request lines, so a request of many megabytes (a world sent
	// with each call) is encoded into memory already in use, not grown anew each time.
	wbuf []byte
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
	// The process is waited for with os.Process.Wait, not exec.Cmd.Wait: Wait would also
	// wait on the copies of non-file pipes (the hang cmd/go bounds with WaitDelay) and close
	// stdout as soon as the process exits, losing its last lines. Here every pipe is an
	// *os.File the child gets as is, and the runner closes its own ends.
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
	// stderr is a pipe of our own, copied into the tail buffer by a goroutine whose end we
	// bound: a helper outside the process group can hold the pipe open forever.
	er, ew, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.Stderr = ew
	if err := cmd.Start(); err != nil {
		er.Close()
		ew.Close()
		stdin.Close()
		f.Close()
		return fmt.Errorf("adapter did not start: %w", err)
	}
	ew.Close()
	// Read before the process is waited for below: until then it stays in /proc, a zombie
	// at worst.
	p.started = startTime(cmd.Process.Pid)
	tail := &tailBuffer{max: 16 << 10}
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(tail, er)
		close(done)
	}()
	p.pipes = nil
	for _, x := range []any{stdin, f, er} {
		if pf, ok := x.(*os.File); ok {
			if id := pipeID(pf); id != 0 {
				p.pipes = append(p.pipes, id)
			}
		}
	}
	e := &exit{done: make(chan struct{})}
	go func() {
		// Reaps the process, whatever holds its pipes; ends when the process does.
		e.state, _ = cmd.Process.Wait()
		close(e.done)
	}()
	p.cmd, p.stdin, p.stdoutF, p.stdout, p.dead, p.waited = cmd, stdin, f, newLineReader(f, e.done), false, false
	p.stderr, p.stderrR, p.stderrDone, p.exit = tail, er, done, e
	return nil
}

// exit is how one adapter process ended: state is set before done is closed.
type exit struct {
	done  chan struct{}
	state *os.ProcessState
}

// Call sends req and waits for its response line.
func (p *Process) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	timeout := p.timeout()
	if req.Op == protocol.OpHello {
		// The first answer of a process starting on a loaded machine may take longer than
		// a short --timeout meant for the ops (a test binary started under a load of 25
		// took over 300 ms): hello gets at least DefaultTimeout, as after a restart.
		timeout = max(timeout, DefaultTimeout)
		if p.hello == nil {
			h := req
			p.hello = &h
		}
	}
	if p.dead {
		if err := p.refuseRestart(req.Op); err != nil {
			return protocol.Response{}, err
		}
		if err := p.restart(ctx); err != nil {
			return protocol.Response{}, p.restartError(req.Op, err)
		}
	}
	return p.call(ctx, req, timeout)
}

// Restarted returns how many times the process was restarted: Restarts, read under the
// lock a call holds.
func (p *Process) Restarted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.Restarts
}

// refuseRestart returns an error once the adapter has written MaxStrayLines stray lines: it
// would write them again after each restart.
func (p *Process) refuseRestart(op string) error {
	if p.Strays < MaxStrayLines {
		return nil
	}
	return &TransportError{Op: op, Kind: KindStray, Reason: fmt.Sprintf("not restarted after %d lines on stdout that are not protocol lines, the last: %s", p.Strays, p.lastStray), Stderr: p.stderr.String()}
}

func (p *Process) restartError(op string, err error) error {
	kind := KindOf(err)
	if kind == "" {
		kind = KindNotStarted
	}
	reason := "restart failed: " + err.Error()
	var te *TransportError
	if errors.As(err, &te) && kind == KindStray {
		reason = te.Reason // the stray line, not the hello it was read for
	}
	return &TransportError{Op: op, Kind: kind, Reason: reason, Stderr: p.stderr.String()}
}

func (p *Process) timeout() time.Duration {
	if p.Timeout == 0 {
		return DefaultTimeout
	}
	return p.Timeout
}

func (p *Process) restart(ctx context.Context) error {
	p.Restarts++
	if err := p.start(); err != nil {
		return err
	}
	if p.hello != nil {
		// A process starting on a loaded machine may need longer than a short --timeout
		// for its first answer: the hello after a restart gets at least DefaultTimeout.
		resp, err := p.call(ctx, *p.hello, max(p.timeout(), DefaultTimeout))
		if err != nil {
			return err
		}
		if !resp.OK {
			// Killed, not kept: the next call would go to a process that refused its
			// hello (and could pass checks), where it now starts another.
			p.kill()
			return fmt.Errorf("hello failed after restart: %s", errorText(resp.Err))
		}
	}
	return nil
}

func (p *Process) call(ctx context.Context, req protocol.Request, timeout time.Duration) (protocol.Response, error) {
	fail := func(kind Kind, format string, args ...any) (protocol.Response, error) {
		p.kill()
		reason := fmt.Sprintf(format, args...)
		if kind == KindStray {
			p.Strays++
			p.lastStray = reason
		}
		if kind == KindExited {
			reason += p.stderrEnd()
		}
		return protocol.Response{}, &TransportError{Op: req.Op, Kind: kind, Reason: reason, Stderr: p.stderr.String()}
	}
	// Output nobody asked for is a protocol violation.
	if line, ok := p.stdout.unasked(); ok {
		if stray(line) {
			return fail(KindStray, "%s", strayReason(line))
		}
		return fail(KindProtocol, "wrote to stdout without a request: %s", quoteLine(line, 200))
	}
	line := append(req.AppendLine(p.wbuf[:0]), '\n')
	p.wbuf = line[:0]
	// An adapter that stops reading fills the pipe, and a large request would block the
	// write forever: it is bounded by the timeout and the context, as the read is.
	if dl, ok := p.stdin.(interface{ SetWriteDeadline(time.Time) error }); ok {
		if dl.SetWriteDeadline(time.Now().Add(timeout)) == nil {
			stop := context.AfterFunc(ctx, func() { _ = dl.SetWriteDeadline(time.Now()) })
			defer stop()
		}
	}
	if _, err := p.stdin.Write(line); err != nil {
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil:
			return fail(KindCancelled, "cancelled: %v", context.Cause(ctx))
		case errors.Is(err, os.ErrDeadlineExceeded):
			return fail(KindTimeout, "did not read the request within %v (raise it with --timeout)", timeout)
		}
		// Whether the write or the read notices first that the adapter is gone is a race:
		// both are reported alike.
		return fail(KindExited, "%s", p.gone())
	}
	resp, kind, failure := p.answer(ctx, req, timeout)
	if failure != "" {
		return fail(kind, "%s", failure)
	}
	return resp, nil
}

// stderrEnd is what an adapter that exited last wrote on stderr, for its one-line reason:
// `; its stderr ends: "…"`, clipped and Go-quoted, or "; it wrote nothing on stderr". The
// raw line is quoted, so each character is escaped once: quoting the line StderrTail
// escaped wrote an ESC as \\x1b.
func (p *Process) stderrEnd() string {
	lines := stderrLines(p.stderr.String(), 1)
	if len(lines) == 0 {
		return "; it wrote nothing on stderr"
	}
	return "; its stderr ends: " + strconv.Quote(lines[0])
}

// StderrTail returns the last n non-blank lines of an adapter's stderr, each clipped to 300
// bytes and escaped (Escape), so that they can be shown on a terminal or in a report as they
// are: a crash's stack trace or the message of an adapter that gave up.
func StderrTail(stderr string, n int) []string {
	lines := stderrLines(stderr, n)
	for i, l := range lines {
		lines[i] = Escape(l)
	}
	return lines
}

// stderrLines returns the last n non-blank lines of stderr, each clipped to 300 bytes (at
// a rune start, "…" added), not escaped.
func stderrLines(stderr string, n int) []string {
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if l = strings.TrimRight(l, "\r \t"); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if len(l) > 300 {
			cut := 300
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			lines[i] = l[:cut] + "…"
		}
	}
	return lines
}

// gone describes an adapter whose stdin or stdout has ended.
func (p *Process) gone() string {
	status := p.reap()
	if p.killedByUs {
		return "closed its stdin or stdout without answering, and was killed a second later"
	}
	return fmt.Sprintf("exited without answering (%s)", status)
}

// answer reads the response to req. A failure is what the adapter did wrong, in one line;
// the caller kills the adapter.
func (p *Process) answer(ctx context.Context, req protocol.Request, timeout time.Duration) (protocol.Response, Kind, string) {
	line, why := p.stdout.read(ctx, timeout)
	switch why {
	case readTooLong:
		return protocol.Response{}, KindProtocol, fmt.Sprintf("response line longer than %d bytes (64 MiB, the protocol's limit): not read to its end", MaxLine)
	case readExited:
		return protocol.Response{}, KindExited, p.gone()
	case readTimeout:
		return protocol.Response{}, KindTimeout, fmt.Sprintf("no response within %v (raise it with --timeout)", timeout)
	case readCanceled:
		return protocol.Response{}, KindCancelled, fmt.Sprintf("cancelled: %v", context.Cause(ctx))
	}
	// The protocol is UTF-8: a lone surrogate travels as a \udXXX escape, never as the raw
	// bytes of its WTF-8 form (ED A0 80), which the JSON decoder would otherwise accept.
	if at := invalidUTF8(line); at >= 0 {
		return protocol.Response{}, KindProtocol, fmt.Sprintf("invalid response line: invalid UTF-8 at byte %d (a lone surrogate must be a \\u escape): %s", at, quoteLine(line, 200))
	}
	// The line is a fresh allocation nothing writes into (readLine): parsed in place, a
	// 64 MiB answer costs one copy less.
	resp, err := protocol.ParseResponse(unsafe.String(unsafe.SliceData(line), len(line)))
	if err != nil {
		if stray(line) {
			return protocol.Response{}, KindStray, strayReason(line)
		}
		return protocol.Response{}, KindProtocol, fmt.Sprintf("invalid response line: %v: %s", err, quoteLine(line, 200))
	}
	if resp.ID != req.ID {
		return protocol.Response{}, KindProtocol, fmt.Sprintf("answered id %d to request id %d", resp.ID, req.ID)
	}
	return resp, "", ""
}

// invalidUTF8 returns the offset of the first byte of b that is not UTF-8, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
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
		if err := p.refuseRestart(reqs[0].Op); err != nil {
			return nil, err
		}
		if err := p.restart(ctx); err != nil {
			return nil, p.restartError(reqs[0].Op, err)
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
		resp, kind, failure := p.answer(ctx, req, p.timeout())
		if failure != "" {
			p.kill()
			if kind == KindStray {
				p.Strays++
				p.lastStray = failure
			}
			<-wrote // kill closed stdin, so the writer has returned
			return out, &TransportError{Op: req.Op, Kind: kind, Reason: failure, Stderr: p.stderr.String()}
		}
		out = append(out, resp)
	}
	if err := <-wrote; err != nil {
		p.kill()
		return out, &TransportError{Op: reqs[0].Op, Kind: KindExited, Reason: fmt.Sprintf("stdin closed: %v", err), Stderr: p.stderr.String()}
	}
	return out, nil
}

func (p *Process) exitStatus() string {
	if p.cmd == nil {
		return "process ended"
	}
	select {
	case <-p.exit.done:
		if p.exit.state == nil {
			return "process ended"
		}
		return p.exit.state.String()
	default:
		return "not reaped " + killWait.String() + " after SIGKILL"
	}
}

// waitFor waits up to d for the process to exit and reports whether it has.
func (p *Process) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exit.done:
		return true
	case <-t.C:
		return false
	}
}

// reap waits for a process whose stdout has ended and returns how it exited ("exit status
// 2", "signal: killed"), so the report names what the adapter did. A process that closed
// stdout but lives on is killed after a second.
func (p *Process) reap() string {
	if p.cmd == nil || p.waited {
		return p.exitStatus()
	}
	p.killedByUs = false
	if !p.waitFor(time.Second) {
		killGroup(p.cmd)
		p.killedByUs = true
		p.waitFor(killWait)
	} else {
		// What is left of its group (a shell's background job) may hold stdout and stderr:
		// ended now, it is not mistaken below for a helper outside the group.
		killGroup(p.cmd)
	}
	p.finish()
	return p.exitStatus()
}

// finish closes our ends of the pipes of a process that has exited (or was given up on),
// with a bounded wait for its stderr, and names the processes outside its group that still
// hold them.
func (p *Process) finish() {
	if p.waited {
		return
	}
	p.waited = true
	_ = p.stdoutF.Close()
	p.stdout.done()
	t := time.NewTimer(stderrGrace)
	defer t.Stop()
	held := false
	select {
	case <-p.stderrDone:
	case <-t.C:
		held = true
	}
	_ = p.stderrR.Close() // ends the copy
	if held {
		select {
		case <-p.stderrDone:
		case <-time.After(time.Second): // a platform whose Close does not wake a read
		}
	}
	p.noteOrphans(held)
}

// noteOrphans records the processes outside the adapter's group that hold its pipes: a
// helper it started with setsid, say. They are named, not killed: the runner kills only the
// group it created.
func (p *Process) noteOrphans(stderrHeld bool) {
	holders := pipeHolders(p.pipes, p.cmd.Process.Pid, p.started)
	if len(holders) == 0 && stderrHeld {
		holders = []holder{{desc: "a process outside the adapter's process group (its pid could not be found)"}}
	}
	for _, h := range holders {
		if h.pid != 0 {
			if p.seen[h.pid] {
				continue
			}
			if p.seen == nil {
				p.seen = map[int]bool{}
			}
			p.seen[h.pid] = true
		} else if slices.Contains(p.orphans, h.desc) {
			continue
		}
		p.orphans = append(p.orphans, h.desc)
	}
}

// Orphans names the processes the adapter left running outside its process group that held
// its stdin, stdout or stderr after it ended ("pid 123 (sleep 600)"): they were not waited
// for and not killed.
func (p *Process) Orphans() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.orphans)
}

// kill ends the process group and marks the process dead.
func (p *Process) kill() {
	if p.cmd != nil && p.cmd.Process != nil && !p.dead {
		killGroup(p.cmd) // grandchildren too
		_ = p.stdin.Close()
		if !p.waited {
			p.waitFor(killWait)
			p.finish()
		}
	}
	p.dead = true
}

// Close closes the adapter's stdin, lets it finish for up to 2 s (discarding what it still
// writes), then kills its process group. It returns within a few seconds whatever the
// adapter does: a helper that escaped the group and holds the pipes is named in Orphans.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead || p.cmd == nil {
		return nil
	}
	_ = p.stdin.Close()
	if x := p.stdout.drain(closeGrace); x.n > 0 {
		p.late = fmt.Sprintf("the adapter wrote %d bytes to stdout after its last answer, which no request asked for (logs go to stderr): %s", x.n, quoteLine(x.first, maxDiscarded))
	}
	killGroup(p.cmd)
	p.waitFor(killWait)
	p.finish()
	p.dead = true
	return nil
}

// LateStdout says what the adapter wrote to stdout after its last answer, when Close
// found any (a protocol break no call was left to report), or "".
func (p *Process) LateStdout() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.late
}

// Stderr returns the tail of the adapter's stderr.
func (p *Process) Stderr() string { return p.stderr.String() }

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
