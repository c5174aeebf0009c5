package adapter

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
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
}

// Serve answers requests read from r, one per line, with h, writing one response line each to
// w, until r ends (nil) or fails. A line that is not a request gets an ADAPTER_PROTOCOL
// response with a null id. Each response reports elapsedNs: the time h took, after the
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
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriterSize(w, 1<<16)
	for {
		line, err := readLine(br, maxLine)
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
			req, perr := protocol.ParseRequest(string(line))
			if perr != nil {
				out = []byte(`{"id":null,"ok":false,"error":{"code":"` + protocol.CodeProtocol + `","message":"bad request line"}}`)
			} else {
				start := time.Now()
				resp := h.Handle(ctx, req)
				resp.Elapsed = max(time.Since(start), 1) // 0 would read as "not reported"
				var merr error
				if out, merr = jsjson.Marshal(resp.ValueWithElapsed()); merr != nil {
					out, _ = protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeProtocol, Message: merr.Error()}}.Line()
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
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxLine+2 { // room for the CR LF
				tooLong, line = true, nil
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
		if tooLong || len(line) > maxLine {
			if err == nil || err == io.EOF {
				err = errLineTooLong
			}
			return nil, err
		}
		return line, err
	}
}
