package adapter

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// MaxLine is the protocol's bound on one line, in bytes: the default of ServeOptions and the
// limit on responses the process client reads.
const MaxLine = 64 << 20

// ServeOptions configure ServeWith.
type ServeOptions struct {
	// MaxRequest bounds a request line, in bytes (0 means MaxLine). A longer request, such
	// as a world too large for the memory this adapter may use, is refused with a clear
	// ADAPTER_PROTOCOL error before it is buffered or parsed.
	MaxRequest int

	// maxResponse bounds a response line (0 means MaxLine): an answer that would be longer
	// is replaced by an ADAPTER_UNSUPPORTED error naming its size. Tests lower it.
	maxResponse int
}

// errNotUTF8 is a request line that is not UTF-8.
var errNotUTF8 = errors.New("request line is not UTF-8")

// Serve answers requests read from r, one per line, with h, writing one response line each to
// w, until r ends (nil) or fails. A line that is not a request (nor UTF-8) gets an
// ADAPTER_PROTOCOL response with a null id. An answer longer than the protocol's MaxLine is
// never written: an ADAPTER_UNSUPPORTED error naming its size goes instead. Each response reports elapsedNs: the time h took, after the
// request was decoded and before the response is encoded, so a client can tell the
// implementation's time from the protocol's.
//
// Requests are read as a stream (feature pipelining). A response is flushed at once unless
// the next request line is already complete in the buffer: a client that sent it did not
// wait for this answer, and gets it with the next flush, so a pipelining client's answers
// go out in large writes while a client that waits for each answer gets it at once.
func Serve(ctx context.Context, r io.Reader, w io.Writer, h Handler) error {
	return ServeWith(ctx, r, w, h, ServeOptions{})
}

// ServeWith is Serve with options.
func ServeWith(ctx context.Context, r io.Reader, w io.Writer, h Handler, opts ServeOptions) error {
	maxLine := opts.MaxRequest
	if maxLine <= 0 {
		maxLine = MaxLine
	}
	maxResponse := opts.maxResponse
	if maxResponse <= 0 {
		maxResponse = MaxLine
	}
	parse := protocol.ParseRequest
	if rh, ok := h.(RawArgHandler); ok {
		arg := rh.RawArg()
		parse = func(line string) (protocol.Request, error) { return protocol.ParseRequestKeeping(line, arg) }
	}
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriterSize(w, 1<<16)
	var scratch []byte
	for {
		line, err := readLineInto(br, maxLine, &scratch)
		if errors.Is(err, errLineTooLong) {
			// A request over the bound is refused, not buffered, and the server goes on
			// with the next line.
			bw.WriteString(`{"id":null,"ok":false,"error":{"code":"` + protocol.CodeProtocol + `","message":"request line longer than ` + strconv.Itoa(maxLine) + ` bytes"}}` + "\n")
			if ferr := bw.Flush(); ferr != nil {
				return ferr
			}
			continue
		}
		if len(line) > 0 {
			var out []byte
			var req protocol.Request
			perr := errNotUTF8
			if utf8.Valid(line) { // the protocol is UTF-8: raw surrogate bytes are a violation
				// readLine's line is a fresh allocation nothing writes into again: the request
				// is parsed in place, without a copy the size of a world.
				req, perr = parse(unsafe.String(unsafe.SliceData(line), len(line)))
			}
			if perr != nil {
				out = []byte(`{"id":null,"ok":false,"error":{"code":"` + protocol.CodeProtocol + `","message":"bad request line"}}`)
			} else {
				start := time.Now()
				resp := h.Handle(ctx, req)
				resp.Elapsed = max(time.Since(start), 1) // 0 would read as "not reported"
				var merr error
				v := resp.ValueWithElapsed()
				if n := valueSize(v, maxResponse); n > maxResponse {
					// Refused before it is encoded: no buffer the size of an answer the
					// protocol cannot carry.
					v = tooLong(req.ID, n, maxResponse)
				}
				if out, merr = wire.Marshal(v); merr != nil {
					out, _ = protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeProtocol, Message: merr.Error()}}.Line()
				}
				if len(out) > maxResponse { // valueSize is exact; this only keeps the promise
					out, _ = wire.Marshal(tooLong(req.ID, len(out), maxResponse))
				}
			}
			bw.Write(out)
			bw.WriteByte('\n')
			if err != nil || !lineBuffered(br) {
				if ferr := bw.Flush(); ferr != nil {
					return ferr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// tooLong is the answer to a request whose response would be n bytes, over max: the
// protocol cannot carry it (a client refuses such a line), so the check cannot be made over
// it, which is what ADAPTER_UNSUPPORTED says.
func tooLong(id int64, n, max int) *wire.Object {
	return protocol.Response{ID: id, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: fmt.Sprintf(
		"the answer would be at least %d bytes, over the protocol's limit of %d bytes on a line", n, max)}}.Value()
}

// valueSize returns the length of JSON.stringify(v), or a number over limit as soon as it
// is known to exceed it, without encoding v.
func valueSize(v any, limit int) int {
	var scratch [32]byte
	switch x := v.(type) {
	case nil:
		return 4
	case bool:
		if x {
			return 4
		}
		return 5
	case float64:
		return len(wire.AppendNumber(scratch[:0], x))
	case int:
		return len(wire.AppendNumber(scratch[:0], float64(x)))
	case string:
		return wire.StringSize(x)
	case []any:
		n := 2 + max(len(x)-1, 0)
		for _, e := range x {
			if n += valueSize(e, limit-n); n > limit {
				return n
			}
		}
		return n
	case *wire.Object:
		keys := x.Keys()
		n := 2 + max(len(keys)-1, 0)
		for _, k := range keys {
			e, _ := x.Get(k)
			if n += wire.StringSize(k) + 1 + valueSize(e, limit-n); n > limit {
				return n
			}
		}
		return n
	}
	return 0 // not a value: Marshal reports it
}

// lineBuffered reports whether a complete line is already buffered in br.
func lineBuffered(br *bufio.Reader) bool {
	b, _ := br.Peek(br.Buffered()) // never blocks: it asks only for what is buffered
	return bytes.IndexByte(b, '\n') >= 0
}

// errLineTooLong is a protocol line over MaxLine.
var errLineTooLong = errors.New("protocol line too long")

// readLine reads one line without its newline (and a CR before it). A line over maxLine
// bytes is consumed to its end without being kept, and reported as errLineTooLong, so memory
// stays bounded and the next read starts at the next line.
func readLine(br *bufio.Reader, maxLine int) ([]byte, error) {
	return readLineOr(br, maxLine, false, nil)
}

// readLineInto is readLine building a line longer than br's buffer in *scratch, grown as
// needed and kept for the next one, and returning a copy of exact size: a request of many
// megabytes (a world) is then copied twice, into memory already in use and out, rather than
// three times over into fresh memory as a growing slice is.
func readLineInto(br *bufio.Reader, maxLine int, scratch *[]byte) ([]byte, error) {
	return readLineOr(br, maxLine, false, scratch)
}

// readResponseLine is readLine for the client: a line over maxLine is reported as soon as it
// is known to be one, not read to its end (which may never come, or come after the timeout
// and be reported as one); the adapter is killed after it, so the rest of the line is moot.
func readResponseLine(br *bufio.Reader, maxLine int) ([]byte, error) {
	return readLineOr(br, maxLine, true, nil)
}

func readLineOr(br *bufio.Reader, maxLine int, stopEarly bool, scratch *[]byte) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if scratch != nil && line == nil && !tooLong && err == bufio.ErrBufferFull {
			line = (*scratch)[:0] // a long line: built in the scratch buffer
		}
		if !tooLong {
			if n := len(line) + len(chunk); n > maxLine+2 { // room for the CR LF
				if stopEarly {
					return nil, errLineTooLong
				}
				tooLong, line = true, nil
			} else {
				if n > cap(line) && line != nil {
					// Twice the room, not append's quarter more for a large slice: a line
					// of many megabytes is then copied about once, not four times over.
					grown := make([]byte, len(line), min(max(2*cap(line), n), maxLine+2))
					copy(grown, line)
					line = grown
				}
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
			if n > 1 && line[n-2] == '\r' {
				line = line[:n-2]
			}
		}
		if scratch != nil && cap(line) > cap(*scratch) {
			*scratch = line[:0]
		}
		if tooLong || len(line) > maxLine {
			if err == nil || err == io.EOF {
				err = errLineTooLong
			}
			return nil, err
		}
		if scratch != nil && len(line) > 0 && unsafe.SliceData(line) == unsafe.SliceData(*scratch) {
			line = bytes.Clone(line) // the caller keeps the line; the scratch buffer is reused
		}
		return line, err
	}
}
