package adapter

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// readLine keeps a line of up to maxLine bytes, whatever the buffer size and line ending,
// refuses a longer one, and goes on at the next line.
func TestReadLineBound(t *testing.T) {
	const maxLine = 100
	for _, size := range []int{0, 1, 15, 16, 17, 33, 64, 99, 100, 101, 102, 250} {
		for _, end := range []string{"\n", "\r\n", ""} {
			line := strings.Repeat("x", size)
			in := line + end
			if end != "" {
				in += "next\n"
			}
			br := bufio.NewReaderSize(strings.NewReader(in), 16)
			got, err := readLine(br, maxLine)
			switch {
			case size > maxLine:
				if !errors.Is(err, errLineTooLong) || got != nil {
					t.Errorf("%d bytes %q: %d bytes, %v; want errLineTooLong", size, end, len(got), err)
				}
			case end == "":
				if string(got) != line || err != io.EOF {
					t.Errorf("%d bytes at EOF: %d bytes, %v", size, len(got), err)
				}
			default:
				if string(got) != line || err != nil {
					t.Errorf("%d bytes %q: %d bytes, %v", size, end, len(got), err)
				}
			}
			if end != "" {
				if next, err := readLine(br, maxLine); string(next) != "next" || err != nil {
					t.Errorf("%d bytes %q: then %q, %v", size, end, next, err)
				}
			}
		}
	}
}
