package jsjson

import (
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// MaxDepth bounds the nesting of arrays and objects Parse accepts, so hostile input cannot
// exhaust the stack.
const MaxDepth = 10000

// SyntaxError is a JSON text JSON.parse would reject; Offset is the byte offset of the fault.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error implements the error interface.
func (e *SyntaxError) Error() string { return fmt.Sprintf("jsjson: %s at offset %d", e.Msg, e.Offset) }

// Parse reads one JSON text as JSON.parse does: the strict grammar (no comments, trailing
// commas, leading zeros, or raw control characters in strings), whitespace only of tab, LF, CR
// and space, numbers as float64 (an overflowing one is ±Infinity), and \uXXXX escapes decoded
// to code units, so an unpaired \uD800 stays a lone surrogate (encoding/json would make it
// U+FFFD). The text is WTF-8; a byte that is neither UTF-8 nor a surrogate is an error.
func Parse(text string) (any, error) {
	d := decoder{s: text}
	d.space()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i != len(d.s) {
		return nil, d.errf("unexpected data after the JSON value")
	}
	return v, nil
}

type decoder struct {
	s string
	i int
	// Members and elements of the objects and arrays being read, stacked, so each is built
	// at its close at its exact size rather than grown by appends: a large document (a world
	// of many sessions) is millions of them.
	keys  []string
	vals  []any
	elems []any
}

func (d *decoder) errf(format string, args ...any) error {
	return &SyntaxError{Offset: d.i, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) (any, error) {
	if d.i >= len(d.s) {
		return nil, d.errf("unexpected end of JSON input")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		return d.str()
	case c == '-' || ('0' <= c && c <= '9'):
		return d.number()
	case d.lit("true"):
		return true, nil
	case d.lit("false"):
		return false, nil
	case d.lit("null"):
		return nil, nil
	}
	return nil, d.errf("unexpected token")
}

func (d *decoder) lit(word string) bool {
	if len(d.s)-d.i >= len(word) && d.s[d.i:d.i+len(word)] == word {
		d.i += len(word)
		return true
	}
	return false
}

func (d *decoder) object(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, d.errf("nesting deeper than %d", MaxDepth)
	}
	d.i++ // {
	d.space()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return NewObject(), nil
	}
	base := len(d.keys)
	for {
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, d.errf("expected a string key")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, d.errf("expected ':' after an object key")
		}
		d.i++
		d.space()
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		d.keys, d.vals = append(d.keys, k), append(d.vals, v)
		d.space()
		if d.i >= len(d.s) {
			return nil, d.errf("unexpected end of JSON input")
		}
		switch d.s[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			o := NewObjectSize(len(d.keys) - base)
			for j := base; j < len(d.keys); j++ {
				o.Set(d.keys[j], d.vals[j]) // a repeated key keeps its first place, last value
			}
			clear(d.vals[base:])
			d.keys, d.vals = d.keys[:base], d.vals[:base]
			return o, nil
		default:
			return nil, d.errf("expected ',' or '}' in an object")
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, d.errf("nesting deeper than %d", MaxDepth)
	}
	d.i++ // [
	d.space()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return []any{}, nil
	}
	base := len(d.elems)
	for {
		d.space()
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		d.elems = append(d.elems, v)
		d.space()
		if d.i >= len(d.s) {
			return nil, d.errf("unexpected end of JSON input")
		}
		switch d.s[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			a := slices.Clone(d.elems[base:])
			clear(d.elems[base:])
			d.elems = d.elems[:base]
			return a, nil
		default:
			return nil, d.errf("expected ',' or ']' in an array")
		}
	}
}

func (d *decoder) number() (any, error) {
	start := d.i
	if d.s[d.i] == '-' {
		d.i++
	}
	digits := func() int {
		n := 0
		for d.i < len(d.s) && '0' <= d.s[d.i] && d.s[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.i < len(d.s) && d.s[d.i] == '0' {
		d.i++
	} else if digits() == 0 {
		return nil, d.errf("no digits in a number")
	}
	if d.i < len(d.s) && d.s[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return nil, d.errf("no digits after a decimal point")
		}
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return nil, d.errf("no digits in an exponent")
		}
	}
	f, err := strconv.ParseFloat(d.s[start:d.i], 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, nil // ±Inf for overflow, ±0 for underflow: what JavaScript reads
		}
		return nil, &SyntaxError{Offset: start, Msg: "bad number"}
	}
	return f, nil
}

func (d *decoder) str() (string, error) {
	d.i++ // opening quote
	// Fast path: no escapes, and valid UTF-8 (the slow path would write the same bytes back
	// rune by rune); a surrogate's WTF-8 or a bad byte goes to the slow path.
	start := d.i
	for d.i < len(d.s) {
		c := d.s[d.i]
		if c == '"' {
			s := d.s[start:d.i]
			d.i++
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(d.s[d.i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			d.i += n
			continue
		}
		d.i++
	}
	var b jsstring.Builder
	b.WriteString(d.s[start:d.i])
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return b.String(), nil
		case c < 0x20:
			return "", d.errf("control character in a string")
		case c == '\\':
			if d.i+1 >= len(d.s) {
				return "", d.errf("unexpected end of JSON input")
			}
			e := d.s[d.i+1]
			d.i += 2
			switch e {
			case '"', '\\', '/':
				b.WriteRune(rune(e))
			case 'b':
				b.WriteRune('\b')
			case 'f':
				b.WriteRune('\f')
			case 'n':
				b.WriteRune('\n')
			case 'r':
				b.WriteRune('\r')
			case 't':
				b.WriteRune('\t')
			case 'u':
				if len(d.s)-d.i < 4 {
					return "", d.errf("bad \\u escape")
				}
				u, err := strconv.ParseUint(d.s[d.i:d.i+4], 16, 16)
				if err != nil || !isHex4(d.s[d.i:d.i+4]) {
					return "", d.errf("bad \\u escape")
				}
				d.i += 4
				b.WriteUnit(uint16(u))
			default:
				d.i -= 2
				return "", d.errf("bad escape")
			}
		case c < utf8.RuneSelf:
			// The run up to the next quote, escape or control is written at once.
			j := d.i + 1
			for j < len(d.s) && d.s[j] >= 0x20 && d.s[j] < utf8.RuneSelf && d.s[j] != '"' && d.s[j] != '\\' {
				j++
			}
			b.WriteString(d.s[d.i:j])
			d.i = j
		default:
			r, n := jsstring.DecodeRune(d.s[d.i:])
			if r == utf8.RuneError && n == 1 {
				return "", d.errf("invalid UTF-8 in a string")
			}
			b.WriteRune(r)
			d.i += n
		}
	}
	return "", d.errf("unterminated string")
}

func isHex4(s string) bool {
	for i := 0; i < 4; i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
