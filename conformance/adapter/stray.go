package adapter

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// StdoutRule is the protocol's rule a stray stdout line breaks, quoted wherever one is
// reported: the usual cause is a log line (console.log, print, println) an adapter or a
// library it loads writes to stdout.
const StdoutRule = "stdout carries only protocol lines; write logs to stderr"

// MaxStrayLines is how many lines that are not protocol lines an adapter may write to stdout
// before it is given up on: each one costs a restart (the line could have been the start of
// an answer, so the stream cannot be trusted after it), and an adapter that logs at start or
// on a common op would otherwise be restarted for every check (78 restarts, 3 s became
// 195 s, in the case that prompted it).
const MaxStrayLines = 3

// stray reports whether line is not a protocol line at all: not a JSON object (a log line,
// a banner, a progress bar), or a JSON object without an "id" member (a structured log
// record). A JSON object with an id that is malformed or answers another request is a bad
// answer, not stray output, and is reported as such.
func stray(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || t[0] != '{' {
		return true
	}
	// A structured log record: a complete JSON object with no "id" key at its top level.
	// Only the presence of the key is looked at, not a full parse: a truncated answer
	// ({"id":1,"ok":true,"result":) is an invalid response, not a log line.
	return !bytes.Contains(t, []byte(`"id"`)) && t[len(t)-1] == '}'
}

// BOMRule is what a stray line that is an answer behind a UTF-8 byte order mark breaks: .NET's
// Encoding.UTF8 (a StreamWriter over stdout given it, or Console.OutputEncoding set to it on
// .NET Framework) writes EF BB BF before the first line, which no JSON reader takes for a
// space, so the adapter's hello answer reads as a log line.
const BOMRule = "protocol lines are UTF-8 without a byte order mark; in .NET write stdout with new UTF8Encoding(false), not Encoding.UTF8"

// strayReason is the one-line reason for a stray stdout line: the line quoted (escaped,
// clipped) and the rule it breaks.
func strayReason(line []byte) string {
	rule := StdoutRule
	if rest, ok := bytes.CutPrefix(line, []byte("\xef\xbb\xbf")); ok && !stray(rest) {
		rule = BOMRule
	}
	return fmt.Sprintf("wrote a line to stdout that is not a protocol line: %s (%s)", quoteLine(line, 200), rule)
}

// quoteLine quotes an adapter's line for a one-line message: at most n bytes of it, as a Go
// string literal, so that control characters (an escape sequence, a carriage return) and
// invisible ones (U+2028, U+200B, a no-break space) show as escapes instead of acting on the
// terminal or passing for a space.
func quoteLine(b []byte, n int) string {
	more := ""
	if len(b) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		more = fmt.Sprintf("… (%d more bytes)", len(b)-cut)
		b = b[:cut]
	}
	return strconv.Quote(string(b)) + more
}

// Escape returns s with every control, format or otherwise invisible character written as
// a Go escape (\x1b, \u2028, \u00a0, \t), and a byte that is not UTF-8 as \xNN: adapter text
// (a stderr line, a message) then shows on a terminal as what it is. Printable text,
// quotes and backslashes are kept as they are, for readability; use it for text shown, not
// parsed.
func Escape(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !visible(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case visible(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRuneToASCII(r) // 'x1b', '\u2028'
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// visible reports whether r shows as itself: a graphic character other than a space
// separator, or the ASCII space.
func visible(r rune) bool {
	return r == ' ' || (unicode.IsGraphic(r) && !unicode.Is(unicode.Zs, r))
}
