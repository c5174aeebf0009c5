package adapter

import (
	"bufio"
	"context"
	"errors"
	"io"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// MaxLine bounds one protocol line, in bytes.
const MaxLine = 64 << 20

// Serve answers requests read from r, one per line, with h, writing one response line each to
// w, until r ends (nil) or fails. A line that is not a request gets an ADAPTER_PROTOCOL
// response with a null id.
func Serve(ctx context.Context, r io.Reader, w io.Writer, h Handler) error {
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriterSize(w, 1<<16)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			var out []byte
			req, perr := protocol.ParseRequest(string(line))
			if perr != nil {
				out = []byte(`{"id":null,"ok":false,"error":{"code":"` + protocol.CodeProtocol + `","message":"bad request line"}}`)
			} else {
				resp := h.Handle(ctx, req)
				var merr error
				if out, merr = resp.Line(); merr != nil {
					out, _ = protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeProtocol, Message: merr.Error()}}.Line()
				}
			}
			bw.Write(out)
			bw.WriteByte('\n')
			if ferr := bw.Flush(); ferr != nil {
				return ferr
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

// errLineTooLong is a protocol line over MaxLine.
var errLineTooLong = errors.New("protocol line too long")

// readLine reads one line without its newline (and a CR before it).
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLine {
			return nil, errLineTooLong
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
		return line, err
	}
}
