package adapter

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

// readFailure is why a response line could not be read.
type readFailure int

const (
	readOK       readFailure = iota
	readExited               // stdout ended: the process exited or closed it
	readTooLong              // a line over MaxLine
	readTimeout              // nothing within the timeout
	readCanceled             // ctx was done first
)

// exitGrace is how long a read goes on after the process exited: what it wrote before is in
// the pipe already, so this only bounds a pipe that someone else holds open.
const exitGrace = 100 * time.Millisecond

// lineReader reads an adapter's stdout a line at a time.
type lineReader interface {
	// read returns the next line within timeout, or why there is none. A line without its
	// newline at the end of stdout is still a line. Once the process has exited, read
	// waits only exitGrace for what is left in the pipe: a helper outside the process group
	// may hold stdout open, and no end of file would come.
	read(ctx context.Context, timeout time.Duration) ([]byte, readFailure)
	// unasked returns a line that has already arrived, without waiting: output nobody
	// asked for when no request is pending.
	unasked() ([]byte, bool)
	// drain discards output until stdout ends or d has passed, and returns what it
	// discarded: its first bytes, and how many there were.
	drain(d time.Duration) discarded
	// done is called once the process has ended and our end of stdout is closed.
	done()
}

// noDeadlines makes newLineReader choose the reader goroutine, as on a platform whose pipes
// have no read deadlines; tests set it to check that path here.
var noDeadlines = false

// newLineReader reads f in the calling goroutine under read deadlines where the platform's
// pipes have them (the handoff from a reader goroutine costs a third of a small op's round
// trip), and through a reader goroutine elsewhere (Windows' anonymous pipes).
func newLineReader(f *os.File, exited <-chan struct{}) lineReader {
	if !noDeadlines && f.SetReadDeadline(time.Time{}) == nil {
		d := &deadlineLines{f: f, br: bufio.NewReaderSize(f, 1<<16)}
		go func() {
			<-exited
			d.mu.Lock()
			defer d.mu.Unlock()
			d.exited = true
			_ = f.SetReadDeadline(time.Now().Add(exitGrace)) // wakes a read under way
		}()
		return d
	}
	c := &chanLines{ch: make(chan lineOrErr, 16), exited: exited}
	go func() {
		br := bufio.NewReaderSize(f, 1<<16)
		for {
			line, err := readResponseLine(br, MaxLine)
			if err == nil || len(line) > 0 {
				c.ch <- lineOrErr{line: line}
			}
			if err != nil {
				c.ch <- lineOrErr{err: err}
				close(c.ch)
				return
			}
		}
	}()
	return c
}

// classify maps readLine's error to a readFailure.
func classify(ctx context.Context, err error) readFailure {
	switch {
	case err == nil:
		return readOK
	case errors.Is(err, errLineTooLong):
		return readTooLong
	case errors.Is(err, os.ErrDeadlineExceeded):
		if ctx.Err() != nil {
			return readCanceled
		}
		return readTimeout
	}
	return readExited
}

// deadlineLines reads in the calling goroutine.
type deadlineLines struct {
	f  *os.File
	br *bufio.Reader

	mu     sync.Mutex // orders the deadlines of read and of the exit watcher
	exited bool
}

func (d *deadlineLines) read(ctx context.Context, timeout time.Duration) ([]byte, readFailure) {
	d.mu.Lock()
	exited := d.exited
	if exited {
		timeout = exitGrace
	}
	err := d.f.SetReadDeadline(time.Now().Add(timeout))
	d.mu.Unlock()
	if err != nil {
		return nil, readExited // the pipe is closed
	}
	if ctx.Done() != nil {
		// Cancellation moves the deadline to now, which wakes the blocked read.
		stop := context.AfterFunc(ctx, func() { _ = d.f.SetReadDeadline(time.Now()) })
		defer stop()
	}
	line, err := readResponseLine(d.br, MaxLine)
	if err == io.EOF && len(line) > 0 {
		err = nil
	}
	why := classify(ctx, err)
	if why == readTimeout {
		d.mu.Lock()
		if d.exited {
			why = readExited // the deadline was the exit watcher's
		}
		d.mu.Unlock()
	}
	if why != readOK {
		return nil, why
	}
	return line, readOK
}

// unasked sees only what was read already: a line still in the pipe is taken for the next
// answer, and fails its id check there.
func (d *deadlineLines) unasked() ([]byte, bool) {
	if d.br.Buffered() == 0 {
		return nil, false
	}
	line, _ := readResponseLine(d.br, MaxLine)
	return line, true
}

func (d *deadlineLines) drain(t time.Duration) discarded {
	_ = d.f.SetReadDeadline(time.Now().Add(t))
	var x discarded
	_, _ = io.Copy(&x, d.br)
	return x
}

func (d *deadlineLines) done() {}

// chanLines takes lines from a reader goroutine.
type chanLines struct {
	ch     chan lineOrErr // closed after the error that ends stdout
	held   *lineOrErr     // the end of stdout, taken by unasked and kept for read
	exited <-chan struct{}
}

type lineOrErr struct {
	line []byte
	err  error
}

func (c *chanLines) read(ctx context.Context, timeout time.Duration) ([]byte, readFailure) {
	if c.held != nil {
		return nil, classify(ctx, c.held.err)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	exited := c.exited
	for {
		select {
		case l, ok := <-c.ch:
			if !ok {
				return nil, readExited
			}
			if l.err != nil {
				return nil, classify(ctx, l.err)
			}
			return l.line, readOK
		case <-timer.C:
			if exited == nil {
				return nil, readExited // the exit grace ran out
			}
			return nil, readTimeout
		case <-exited:
			exited = nil // what is left in the pipe comes within the grace
			timer.Reset(exitGrace)
		case <-ctx.Done():
			return nil, readCanceled
		}
	}
}

func (c *chanLines) unasked() ([]byte, bool) {
	if c.held != nil {
		return nil, false
	}
	select {
	case l, ok := <-c.ch:
		if ok && l.err == nil {
			return l.line, true
		}
		if !ok {
			l.err = io.EOF
		}
		c.held = &l // the end of stdout: the write or the read that follows reports it
	default:
	}
	return nil, false
}

func (c *chanLines) drain(d time.Duration) discarded {
	var x discarded
	if c.held == nil { // else stdout has ended
		timer := time.NewTimer(d)
		defer timer.Stop()
		exited := c.exited
	loop:
		for {
			select {
			case l, ok := <-c.ch:
				if !ok {
					break loop
				}
				if len(l.line) > 0 {
					x.Write(append(l.line, '\n'))
				}
			case <-exited:
				exited = nil
				timer.Reset(exitGrace) // no end of file may come: someone else holds the pipe
			case <-timer.C:
				break loop
			}
		}
	}
	return x
}

// discarded is output drain read and threw away: its first maxDiscarded bytes, and how
// many bytes there were.
type discarded struct {
	first []byte
	n     int64
}

const maxDiscarded = 200

func (x *discarded) Write(b []byte) (int, error) {
	if room := maxDiscarded - len(x.first); room > 0 {
		x.first = append(x.first, b[:min(room, len(b))]...)
	}
	x.n += int64(len(b))
	return len(b), nil
}

// done waits for the reader goroutine, which ends now that its pipe is closed, for a second
// at most: where closing a pipe does not wake a blocked read, and a helper outside the
// process group holds the other end, the goroutine is left behind rather than waited for.
func (c *chanLines) done() {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	for {
		select {
		case _, ok := <-c.ch:
			if !ok {
				return
			}
		case <-t.C:
			return
		}
	}
}
