package cases

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Marshal writes a fixture file in the kit's canonical YAML layout: block mappings and lists,
// every string double-quoted with JSON-compatible escapes, a string with a lone surrogate as
// {$utf16: [code units]}. A mapping's keys are in JavaScript's property order, or, for an
// object marked with wire.Object.KeepOrder, in the order they were set. header, when not empty, is written first as comment lines.
func Marshal(f File, header string) []byte {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		if header != "" {
			b.WriteString("# " + line + "\n")
		}
	}
	fmt.Fprintf(&b, "version: %d\nop: %s\ncases:\n", f.Version, quote(f.Op))
	for _, c := range f.Cases {
		b.WriteString("  - name: " + quote(c.Name) + "\n")
		b.WriteString("    requirements: " + flowStrings(c.Requirements) + "\n")
		if len(c.Traps) > 0 {
			b.WriteString("    traps: " + flowStrings(c.Traps) + "\n")
		}
		if len(c.Profiles) > 0 {
			b.WriteString("    profiles: " + flowStrings(c.Profiles) + "\n")
		}
		if len(c.Features) > 0 {
			b.WriteString("    features: " + flowStrings(c.Features) + "\n")
		}
		b.WriteString("    args:")
		writeValue(&b, c.Args, 6)
		want := wire.NewObject()
		if c.Want.OK {
			want.Set("result", c.Want.Result)
		} else {
			if c.Want.Code == "" {
				want.Set("error", nil)
			} else {
				want.Set("error", c.Want.Code)
			}
			if c.Want.HasReads {
				want.Set("reads", c.Want.Reads)
			}
			if c.Want.HasLists {
				want.Set("lists", c.Want.Lists)
			}
		}
		b.WriteString("    want:")
		writeValue(&b, want, 6)
	}
	return []byte(b.String())
}

func flowStrings(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = plainOrQuoted(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// plainOrQuoted writes identifier-like strings bare (requirement ids, keys), others quoted.
func plainOrQuoted(s string) string {
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~":
		return quote(s)
	}
	if plainKey.MatchString(s) {
		return s
	}
	return quote(s)
}

// writeValue writes v after a key's colon (or a list dash): scalars and small flows on the
// same line, mappings and lists as indented blocks.
func writeValue(b *strings.Builder, v any, indent int) {
	pad := strings.Repeat(" ", indent)
	switch x := v.(type) {
	case *wire.Object:
		if x.Len() == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n")
		keys := x.Keys()
		if x.KeepsOrder() {
			keys = x.KeysAsSet() // sent in this order (Case.Args)
		}
		for _, k := range keys {
			e, _ := x.Get(k)
			b.WriteString(pad + key(k) + ":")
			writeValue(b, e, indent+2)
		}
	case []any:
		if len(x) == 0 {
			b.WriteString(" []\n")
			return
		}
		if flat(x) {
			parts := make([]string, len(x))
			for i, e := range x {
				parts[i] = scalar(e)
			}
			if line := "[" + strings.Join(parts, ", ") + "]"; len(line) <= 100 {
				b.WriteString(" " + line + "\n")
				return
			}
		}
		b.WriteString("\n")
		for _, e := range x {
			b.WriteString(pad + "-")
			if o, ok := e.(*wire.Object); ok && o.Len() > 0 {
				// First key on the dash line, the rest aligned under it.
				var sub strings.Builder
				writeValue(&sub, o, indent+2)
				s := strings.TrimPrefix(sub.String(), "\n")
				b.WriteString(" " + strings.TrimPrefix(s, strings.Repeat(" ", indent+2)))
				continue
			}
			writeValue(b, e, indent+2)
		}
	default:
		b.WriteString(" " + scalar(v) + "\n")
	}
}

func flat(list []any) bool {
	for _, e := range list {
		switch e.(type) {
		case *wire.Object, []any:
			return false
		}
	}
	return true
}

func key(k string) string {
	if !wire.WellFormed(k) {
		panic("cases: a mapping key with a lone surrogate cannot be written")
	}
	return plainOrQuoted(k)
}

func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case float64:
		if math.IsInf(x, 0) {
			// JSON.parse's Infinity (a want echoing a number such as 1e400): the text that
			// reads as it, as an argument is written; on the wire it travels as null.
			if x < 0 {
				return scalar(wire.Number("-1e400"))
			}
			return scalar(wire.Number("1e400"))
		}
		return yamlNumber(x)
	case wire.Number:
		return "{" + NumberKey + ": " + quote(string(x)) + "}"
	case string:
		return quote(x)
	}
	panic(fmt.Sprintf("cases: cannot write %T", v))
}

// yamlNumber writes x as JavaScript does, with ".0" before an exponent: YAML 1.1 parsers
// (PyYAML) read 1e+21 as a string, and 1.0e+21 as the same float YAML 1.2 parsers read.
func yamlNumber(x float64) string {
	s := wire.NumberString(x)
	if i := strings.IndexByte(s, 'e'); i >= 0 && !strings.Contains(s[:i], ".") {
		s = s[:i] + ".0" + s[i:]
	}
	return s
}

// quote writes a JavaScript string as a YAML double-quoted scalar that YAML 1.1 and 1.2
// parsers read alike, or as {$utf16: […]} when it holds a lone surrogate.
func quote(s string) string {
	if !wire.WellFormed(s) {
		units := wire.UTF16(s)
		parts := make([]string, len(units))
		for i, u := range units {
			parts[i] = fmt.Sprintf("0x%04X", u)
		}
		return "{" + UTF16Key + ": [" + strings.Join(parts, ", ") + "]}"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r >= 0x20 && r < 0x7F:
			b.WriteRune(r)
		case r < 0x20 || r == 0x7F || r >= 0x80 && r <= 0x9F || r == 0x2028 || r == 0x2029 ||
			r == 0xFEFF || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError:
			// Controls, YAML 1.1 line breaks, the BOM and non-characters: escaped, so no parser
			// reads them as layout.
			if r > 0xFFFF {
				fmt.Fprintf(&b, `\U%08X`, r)
			} else {
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
