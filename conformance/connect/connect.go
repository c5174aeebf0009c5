// Package connect is the one way the kit reaches an implementation under test, for a
// certification run, diff and bench alike: an adapter command supervised as a process
// (adapter.Process: per-call timeout, kill with its group, restart replaying the hello,
// orphans named) or a Go Handler in-process (adapter.InProcess: the same timeout, a panic
// turned into a transport error), optionally behind a guard that gives up on an adapter
// that cannot be certified in bounded time.
package connect

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Target names an implementation: an adapter command, or a Handler when Command is empty.
type Target struct {
	// Command is an adapter command line (program and arguments).
	Command []string
	// Dir is the command's working directory; empty means the caller's.
	Dir string
	// Env, when not nil, is the command's environment (os/exec.Cmd.Env).
	Env []string
	// Handler is an in-process implementation, used when Command is empty.
	Handler adapter.Handler
	// Timeout bounds each call. For a command 0 means adapter.DefaultTimeout; for a
	// Handler 0 means unbounded, the call running on the caller's goroutine.
	Timeout time.Duration
}

// Describe names the target as a report does.
func (t Target) Describe() string {
	if len(t.Command) > 0 {
		return strings.Join(t.Command, " ")
	}
	return fmt.Sprintf("%T (in-process)", t.Handler)
}

// Argv shows the command as it is run, each word quoted, so a quoting mistake (a lost
// backslash, a path split at a space) is visible at once.
func (t Target) Argv() string {
	var q []string
	for _, a := range t.Command {
		q = append(q, strconv.Quote(a))
	}
	w := "[" + strings.Join(q, " ") + "]"
	if t.Dir != "" {
		w += " in " + strconv.Quote(t.Dir)
	}
	return w
}

// Limits make a connection give up on an adapter that cannot be certified in bounded time
// (see Conn.Unusable). The zero value never gives up.
type Limits struct {
	// MaxConsecutiveErrors is how many calls in a row may fail at the transport level; 0
	// means no limit.
	MaxConsecutiveErrors int
	// MaxTimeouts is how many calls may time out over the connection's life; 0 means no
	// limit.
	MaxTimeouts int
	// MaxRestarts is how many times a command may be restarted over the connection's life
	// (after a crash, a hang or a protocol break); 0 means no limit. A Handler is never
	// restarted.
	MaxRestarts int
	// Deadline is the caller's whole-run deadline, named in the message when a context
	// ended by ErrDeadline stops the calls; the context carries the deadline itself.
	Deadline time.Duration
}

// ErrDeadline is the cause to give a context that ends at Limits.Deadline.
var ErrDeadline = errors.New("the run's deadline passed")

// Conn is an open connection. Close it when done.
type Conn struct {
	Target Target
	proc   *adapter.Process
	raw    adapter.Caller
	guard  *guard
}

// Dial starts the target: for a command, its process (an error means it did not start); for
// a Handler, nothing can fail. No request is sent: Hello says hello.
func Dial(t Target, l Limits) (*Conn, error) {
	c := &Conn{Target: t}
	if len(t.Command) > 0 {
		p := &adapter.Process{Argv: t.Command, Dir: t.Dir, Env: t.Env, Timeout: t.Timeout}
		if err := p.Start(); err != nil {
			return nil, err
		}
		c.proc, c.raw = p, p
	} else {
		if t.Handler == nil {
			return nil, errors.New("connect: a target needs a command or a handler")
		}
		c.raw = adapter.InProcess{H: t.Handler, Timeout: t.Timeout}
	}
	if l.MaxConsecutiveErrors > 0 || l.MaxTimeouts > 0 || l.MaxRestarts > 0 || l.Deadline > 0 {
		c.guard = &guard{c: c.raw, max: l.MaxConsecutiveErrors, maxTimeouts: l.MaxTimeouts, maxRestarts: l.MaxRestarts, restarts: c.Restarts, deadline: l.Deadline}
	}
	return c, nil
}

// Caller returns what to send requests to: the guard when the connection has limits, else
// the process or in-process caller itself (so a bench can pipeline to a process).
func (c *Conn) Caller() adapter.Caller {
	if c.guard != nil {
		return c.guard
	}
	return c.raw
}

// Hello says hello and returns the client. On an error, Stderr holds what a command said.
func (c *Conn) Hello(ctx context.Context) (*adapter.Client, error) {
	return adapter.Connect(ctx, c.Caller())
}

// Close ends the connection: a command gets its stdin closed, a bounded grace, then is
// killed with its group.
func (c *Conn) Close() error {
	if c.proc != nil {
		return c.proc.Close()
	}
	return nil
}

// InProcess reports whether the target is a Handler.
func (c *Conn) InProcess() bool { return c.proc == nil }

// Stderr returns the tail of a command's stderr ("" in-process).
func (c *Conn) Stderr() string {
	if c.proc == nil {
		return ""
	}
	return c.proc.Stderr()
}

// Restarts returns how many times a command was restarted.
func (c *Conn) Restarts() int {
	if c.proc == nil {
		return 0
	}
	return c.proc.Restarted()
}

// Orphans names the processes a command left running outside its process group, holding
// its pipes (after Close).
func (c *Conn) Orphans() []string {
	if c.proc == nil {
		return nil
	}
	return c.proc.Orphans()
}

// LateStdout says what a command wrote to stdout after its last answer (after Close), or "".
func (c *Conn) LateStdout() string {
	if c.proc == nil {
		return ""
	}
	return c.proc.LateStdout()
}

// Unusable returns why the connection gave up on the adapter (see Limits), or "".
func (c *Conn) Unusable() string {
	if c.guard == nil {
		return ""
	}
	return c.guard.unusable()
}

// FailureStderr returns the tail of a command's stderr as it was when a call last failed at
// the transport level (a crash, a hang, a protocol break), or "" when none did or it wrote
// nothing: the process restarted since has a stderr of its own, which Stderr returns.
func (c *Conn) FailureStderr() string {
	if c.guard == nil {
		return ""
	}
	c.guard.mu.Lock()
	defer c.guard.mu.Unlock()
	return c.guard.stderr
}

// Timeouts returns how many calls timed out, when the connection has limits.
func (c *Conn) Timeouts() int {
	if c.guard == nil {
		return 0
	}
	return c.guard.timedOut()
}

// guard stops calling an adapter that cannot be certified in bounded time: after max failed
// calls in a row, after maxTimeouts timed-out calls over the whole run (each costs a full
// timeout, and a flaky adapter that answers a few calls after each restart never fails many
// in a row), after a failure that would need a restart past maxRestarts (an adapter that
// breaks the protocol on every other call, answering the rest, was restarted 1012 times in a
// 72 s run of 1013 checks), or once the run's deadline has passed. Once tripped, every call fails at once
// and the run reports the adapter unusable.
type guard struct {
	c           adapter.Caller
	max         int
	maxTimeouts int
	maxRestarts int
	restarts    func() int    // how many times the process was restarted so far
	deadline    time.Duration // the run's, for the message; the context carries it

	mu          sync.Mutex
	consecutive int
	timeouts    int
	strays      int    // calls that failed on a stray stdout line (adapter.KindStray)
	stderr      string // the stderr tail of the last failed call that had one
	last        string
	tripped     string
}

func (g *guard) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	g.mu.Lock()
	if g.tripped == "" && ctx.Err() != nil {
		g.tripCtx(ctx)
	}
	if g.tripped != "" {
		reason := g.tripped
		g.mu.Unlock()
		return protocol.Response{}, &adapter.TransportError{Op: req.Op, Kind: adapter.KindNotSent, Reason: "not sent: " + reason}
	}
	g.mu.Unlock()
	resp, err := g.c.Call(ctx, req)
	g.mu.Lock()
	defer g.mu.Unlock()
	if err == nil {
		g.consecutive = 0
		return resp, nil
	}
	g.consecutive++
	g.last = err.Error()
	var failed *adapter.TransportError
	if errors.As(err, &failed) && strings.TrimSpace(failed.Stderr) != "" {
		g.stderr = failed.Stderr
	}
	switch adapter.KindOf(err) {
	case adapter.KindTimeout:
		g.timeouts++
	case adapter.KindStray:
		g.strays++
	}
	switch {
	case g.tripped != "":
	case ctx.Err() != nil:
		g.tripCtx(ctx)
	case g.strays >= adapter.MaxStrayLines:
		// Named once, as the cause: the adapter writes it again after every restart, and
		// the ops it was read for are not at fault.
		var te *adapter.TransportError
		errors.As(err, &te)
		g.tripped = fmt.Sprintf("protocol break: stray stdout (%d times, not restarted again): %s", g.strays, strayLine(te.Reason))
	case g.maxTimeouts > 0 && g.timeouts >= g.maxTimeouts:
		g.tripped = fmt.Sprintf("%d calls timed out, the budget of the run (raise it with --max-timeouts); the last: %s", g.timeouts, g.last)
	case g.maxRestarts > 0 && adapter.KindOf(err) != "" && g.restarts() >= g.maxRestarts:
		// A transport failure killed the process, and the next call would restart it once
		// more than the budget allows.
		g.tripped = fmt.Sprintf("restarted %d times, the budget of the run (raise it with --max-restarts), and failed again: %s", g.restarts(), g.last)
	case g.max > 0 && g.consecutive >= g.max:
		g.tripped = fmt.Sprintf("the adapter failed %d calls in a row, the last: %s", g.consecutive, g.last)
	}
	return resp, err
}

// strayLine is a stray-stdout reason without the "not restarted after…" of a refused
// restart, which the guard's own message says.
func strayLine(reason string) string {
	if _, rest, ok := strings.Cut(reason, ", the last: "); ok && strings.HasPrefix(reason, "not restarted") {
		return rest
	}
	return reason
}

func (g *guard) tripCtx(ctx context.Context) {
	if errors.Is(context.Cause(ctx), ErrDeadline) {
		g.tripped = fmt.Sprintf("the run's deadline of %v passed (raise it with --deadline)", g.deadline)
		return
	}
	g.tripped = "the run was cancelled: " + context.Cause(ctx).Error()
}

func (g *guard) unusable() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tripped
}

func (g *guard) timedOut() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.timeouts
}
