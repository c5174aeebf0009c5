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

// readLineInto reads as readLine does, and a line it returns stays as it was while the
// scratch buffer is reused for the lines after it.
func TestReadLineIntoKeepsLines(t *testing.T) {
	const maxLine = 100
	var lines []string
	for i, size := range []int{40, 3, 90, 101, 0, 17, 100, 250, 64, 2} {
		lines = append(lines, strings.Repeat(string(rune('a'+i)), size))
	}
	br := bufio.NewReaderSize(strings.NewReader(strings.Join(lines, "\r\n")+"\n"), 16)
	var scratch []byte
	var got [][]byte
	for i, want := range lines {
		line, err := readLineInto(br, maxLine, &scratch)
		if len(want) > maxLine {
			if !errors.Is(err, errLineTooLong) || line != nil {
				t.Errorf("line %d (%d bytes): %d bytes, %v; want errLineTooLong", i, len(want), len(line), err)
			}
			continue
		}
		if string(line) != want || err != nil {
			t.Errorf("line %d: %q, %v; want %q", i, line, err, want)
		}
		got = append(got, line)
	}
	if cap(scratch) == 0 {
		t.Error("no line was built in the scratch buffer")
	}
	for i, j := 0, 0; i < len(lines); i++ {
		if len(lines[i]) > maxLine {
			continue
		}
		if string(got[j]) != lines[i] {
			t.Errorf("line %d changed after later reads: %q", i, got[j])
		}
		j++
	}
}
