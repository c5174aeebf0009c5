package wire

import (
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of arrays and objects Parse accepts, so a hostile text cannot
// exhaust the stack.
const MaxDepth = 10000

// SyntaxError is a JSON text JSON.parse rejects; Offset is the byte offset of the fault.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error implements the error interface.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("json: %s at offset %d", e.Msg, e.Offset)
}

// Parse reads one JSON text as JSON.parse does: the strict grammar (no comments, trailing
// commas, leading zeros, raw control characters in strings), whitespace of tab, LF, CR and
// space only, numbers as float64 (±Infinity past the largest double), and \uXXXX escapes read
// as code units, so an unpaired \uD800 stays a lone surrogate where encoding/json would write
// U+FFFD. The text is WTF-8; a byte that is not is an error.
func Parse(text string) (any, error) { return parse(parser{text: text}) }

// Raw is a JSON value kept as its text by ParseKeeping: checked as Parse checks it, not
// decoded. It is not one of the package's values; Append writes it as it is.
type Raw string

// ParseKeeping is Parse, except that the value at path (object keys from the root, e.g.
// "args", "world") is returned as a Raw holding its text, checked but not decoded: a reader
// that decodes that value into its own representation (the reference's adapter, a request's
// world) then decodes it once, not twice.
func ParseKeeping(text string, path ...string) (any, error) {
	return parse(parser{text: text, keep: path})
}

// ParseExact reads text as Parse does, but returns every number as the Number it is written
// as ("1.0", "1e400"), digit for digit, for showing an answer as it was sent; Plain gives
// the doubles Parse would have read.
func ParseExact(text string) (any, error) { return parse(parser{text: text, exact: true}) }

// LimitError is a JSON text ParseLimited refused for holding more values than its limit.
type LimitError struct {
	Limit  int // the most values accepted
	Offset int // the byte offset of the value past the limit
}

// Error implements the error interface.
func (e *LimitError) Error() string {
	return fmt.Sprintf("json: more than %d values (the limit) at offset %d", e.Limit, e.Offset)
}

// ParseLimited is Parse, except that a text holding more than max JSON values (every
// object, array, string, number, literal, and every object member's value counted once;
// keys are not counted) is refused with a *LimitError as soon as the value past max is
// reached, before anything more is built: what it costs is bounded by max, not by the text.
func ParseLimited(text string, max int) (any, error) {
	return parse(parser{text: text, limit: max})
}

func parse(p parser) (any, error) {
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.text) {
		return nil, p.fail("unexpected data after the JSON value")
	}
	return v, nil
}

type parser struct {
	text  string
	pos   int
	exact bool // numbers as Number (ParseExact)
	// Members and elements of the objects and arrays being read, stacked: each is built at
	// its close at its exact size, not grown by appends (a world is millions of them).
	keys  []string
	vals  []any
	elems []any
	// keep is ParseKeeping's path; matched is how many of its keys the object being read
	// sits under (its depth minus one when it is on the path); discard is set while the kept
	// value is checked without building anything.
	keep    []string
	matched int
	discard bool
	// limit, when positive, is the most values ParseLimited reads; values counts them.
	limit, values int
}

func (p *parser) fail(msg string) error { return &SyntaxError{Offset: p.pos, Msg: msg} }

func (p *parser) skipSpace() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// next returns the byte at the position, or 0 at the end.
func (p *parser) next() byte {
	if p.pos < len(p.text) {
		return p.text[p.pos]
	}
	return 0
}

func (p *parser) value(depth int) (any, error) {
	if p.pos >= len(p.text) {
		return nil, p.fail("unexpected end of JSON input")
	}
	if p.limit > 0 {
		if p.values++; p.values > p.limit {
			return nil, &LimitError{Limit: p.limit, Offset: p.pos}
		}
	}
	switch c := p.text[p.pos]; {
	case c == '{' || c == '[':
		if depth >= MaxDepth {
			return nil, p.fail(fmt.Sprintf("nesting deeper than %d", MaxDepth))
		}
		if c == '{' {
			return p.object(depth + 1)
		}
		return p.array(depth + 1)
	case c == '"':
		s, err := p.str()
		if p.discard { // checked, not kept: no string boxed in an interface
			return nil, err
		}
		return s, err
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	}
	for _, lit := range [...]struct {
		word string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(p.text)-p.pos >= len(lit.word) && p.text[p.pos:p.pos+len(lit.word)] == lit.word {
			p.pos += len(lit.word)
			return lit.v, nil
		}
	}
	return nil, p.fail("unexpected token")
}

func (p *parser) object(depth int) (any, error) {
	p.pos++
	p.skipSpace()
	if p.next() == '}' {
		p.pos++
		if p.discard {
			return nil, nil
		}
		return NewObject(), nil
	}
	base := len(p.keys)
	for {
		p.skipSpace()
		if p.next() != '"' {
			return nil, p.fail("expected a string key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.next() != ':' {
			return nil, p.fail("expected ':' after an object key")
		}
		p.pos++
		p.skipSpace()
		v, err := p.member(depth, k)
		if err != nil {
			return nil, err
		}
		if !p.discard {
			p.keys, p.vals = append(p.keys, k), append(p.vals, v)
		}
		if done, err := p.endOf('}', "expected ',' or '}' in an object"); done || err != nil {
			if err != nil {
				return nil, err
			}
			if p.discard {
				return nil, nil
			}
			o := newObject(p.keys[base:], p.vals[base:])
			clear(p.vals[base:])
			p.keys, p.vals = p.keys[:base], p.vals[:base]
			return o, nil
		}
	}
}

func (p *parser) array(depth int) (any, error) {
	p.pos++
	p.skipSpace()
	if p.next() == ']' {
		p.pos++
		if p.discard {
			return nil, nil
		}
		return []any{}, nil
	}
	base := len(p.elems)
	for {
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		if !p.discard {
			p.elems = append(p.elems, v)
		}
		if done, err := p.endOf(']', "expected ',' or ']' in an array"); done || err != nil {
			if err != nil {
				return nil, err
			}
			if p.discard {
				return nil, nil
			}
			a := slices.Clone(p.elems[base:])
			clear(p.elems[base:])
			p.elems = p.elems[:base]
			return a, nil
		}
	}
}

// member reads the value of key k in an object at depth (the root object is 1): as a Raw
// when it is the value ParseKeeping keeps, else as value does.
func (p *parser) member(depth int, k string) (any, error) {
	if p.discard || p.matched != depth-1 || depth > len(p.keep) || p.keep[depth-1] != k {
		return p.value(depth)
	}
	if depth < len(p.keep) { // on the path: the objects below may hold the kept value
		p.matched = depth
		v, err := p.value(depth)
		p.matched = depth - 1
		return v, err
	}
	start := p.pos
	p.discard = true
	_, err := p.value(depth)
	p.discard = false
	if err != nil {
		return nil, err
	}
	return Raw(p.text[start:p.pos]), nil
}

// endOf reads the ',' between two members or the closing byte.
func (p *parser) endOf(closing byte, msg string) (bool, error) {
	p.skipSpace()
	switch {
	case p.pos >= len(p.text):
		return false, p.fail("unexpected end of JSON input")
	case p.text[p.pos] == ',':
		p.pos++
		return false, nil
	case p.text[p.pos] == closing:
		p.pos++
		return true, nil
	}
	return false, p.fail(msg)
}

func (p *parser) digits() int {
	start := p.pos
	for p.pos < len(p.text) && '0' <= p.text[p.pos] && p.text[p.pos] <= '9' {
		p.pos++
	}
	return p.pos - start
}

func (p *parser) number() (any, error) {
	start := p.pos
	if p.next() == '-' {
		p.pos++
	}
	switch {
	case p.next() == '0':
		p.pos++
	case p.digits() == 0:
		return nil, p.fail("no digits in a number")
	}
	if p.next() == '.' {
		p.pos++
		if p.digits() == 0 {
			return nil, p.fail("no digits after a decimal point")
		}
	}
	if c := p.next(); c == 'e' || c == 'E' {
		p.pos++
		if c := p.next(); c == '+' || c == '-' {
			p.pos++
		}
		if p.digits() == 0 {
			return nil, p.fail("no digits in an exponent")
		}
	}
	if p.discard { // the grammar is checked; ParseFloat fails on nothing it accepts
		return nil, nil
	}
	if p.exact {
		return Number(p.text[start:p.pos]), nil // the grammar above is JSON's: a valid number
	}
	f, err := strconv.ParseFloat(p.text[start:p.pos], 64)
	if ne, ok := err.(*strconv.NumError); ok && ne.Err != strconv.ErrRange {
		return nil, &SyntaxError{Offset: start, Msg: "bad number"}
	}
	return f, nil // out of range: ±Inf or ±0, as JavaScript reads it
}

func (p *parser) str() (string, error) {
	p.pos++
	start := p.pos
	for p.pos < len(p.text) { // the common case: nothing to unescape or check
		c := p.text[p.pos]
		if c == '"' {
			p.pos++
			return p.text[start : p.pos-1], nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		if c >= utf8.RuneSelf {
			// Valid UTF-8 is kept as it is: the slow path would write the same bytes
			// back, rune by rune. What is not (a surrogate's WTF-8, a bad byte) goes there.
			if r, n := utf8.DecodeRuneInString(p.text[p.pos:]); r != utf8.RuneError || n != 1 {
				p.pos += n
				continue
			}
			break
		}
		p.pos++
	}
	b := Builder{buf: append([]byte(nil), p.text[start:p.pos]...)}
	for p.pos < len(p.text) {
		c := p.text[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		default:
			r, n := DecodeRune(p.text[p.pos:])
			if r == utf8.RuneError && n == 1 {
				return "", p.fail("invalid UTF-8 in a string")
			}
			b.WriteRune(r)
			p.pos += n
		}
	}
	return "", p.fail("unterminated string")
}

var simpleEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func (p *parser) escape(b *Builder) error {
	if p.pos+1 >= len(p.text) {
		return p.fail("unexpected end of JSON input")
	}
	e := p.text[p.pos+1]
	if r := simpleEscapes[e]; r != 0 {
		b.WriteRune(rune(r))
		p.pos += 2
		return nil
	}
	if e != 'u' {
		return p.fail("bad escape")
	}
	p.pos += 2
	if len(p.text)-p.pos < 4 {
		return p.fail("bad \\u escape")
	}
	var u uint16
	for _, h := range []byte(p.text[p.pos : p.pos+4]) {
		var d byte
		switch {
		case '0' <= h && h <= '9':
			d = h - '0'
		case 'a' <= h && h <= 'f':
			d = h - 'a' + 10
		case 'A' <= h && h <= 'F':
			d = h - 'A' + 10
		default:
			return p.fail("bad \\u escape")
		}
		u = u<<4 | uint16(d)
	}
	p.pos += 4
	b.WriteUnit(u)
	return nil
}
