package mutants

import (
	"strings"

	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// formatMention is the seed's formatSessionReferenceMention, ported.
func (p port) formatMention(id, label string) string {
	var b strings.Builder
	b.WriteString("@[")
	if p.k.trap.narrowFormat {
		// MUTANT narrowFormat: each UTF-16 unit tested by its low byte (Rust's `u as u8`)
		var out []uint16
		for _, c := range jsstring.UTF16(label) {
			if byte(c) == '\\' || byte(c) == ']' {
				out = append(out, '\\')
			}
			out = append(out, c)
		}
		label = jsstring.FromUTF16(out)
		b.WriteString(label)
		b.WriteString("](")
		b.WriteString(p.EncodeURI(id))
		b.WriteString(")")
		return b.String()
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		if c == '\\' || (c == ']' && !p.k.noEscapeBracket) { // MUTANT noEscapeBracket: `]` left as is
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	b.WriteString("](")
	b.WriteString(p.EncodeURI(id))
	b.WriteString(")")
	return b.String()
}

// parseMentions is the seed's parseSessionReferenceText, ported as a hand-written matcher of
// its regular expression (a copy of package mention's).
func (p port) parseMentions(text string) (mention.Parsed, error) {
	if !strings.Contains(text, uri.Scheme) && !p.k.trap.foldScheme && !p.k.trap.ignorableScan {
		return mention.Parsed{Text: jsstring.Normalize(text)}, nil
	}
	u := jsstring.UTF16(text)
	var out []uint16
	var refs []mention.Reference
	last := 0
	for i := 0; i < len(u); {
		var end int
		var uriUnits, rawLabel []uint16
		markdown := false
		if e, l, r, ok := p.matchMarkdown(u, i); ok {
			end, rawLabel, uriUnits, markdown = e, l, r, true
		} else if e, ok := p.matchBare(u, i); ok {
			end, uriUnits = e, u[i:e]
		} else {
			i++
			continue
		}
		id, err := p.decodeURI(jsstring.FromUTF16(uriUnits))
		if err != nil {
			return mention.Parsed{}, err
		}
		var labelUnits []uint16
		switch {
		case !markdown:
			labelUnits = jsstring.UTF16(id)
		case p.k.noUnescape:
			labelUnits = rawLabel // MUTANT: the label keeps its escapes
		case p.k.stripslashes:
			labelUnits = stripslashes(rawLabel) // MUTANT: PHP's stripslashes
		default:
			labelUnits = p.unescape(rawLabel)
		}
		if t := p.k.trap.trimLabel; t != nil && markdown {
			labelUnits = jsstring.UTF16(t(jsstring.FromUTF16(labelUnits))) // MUTANT: the label trimmed
		}
		refs = append(refs, mention.Reference{SessionID: id, Label: jsstring.FromUTF16(labelUnits)})
		out = append(out, u[last:i]...)
		if f := p.k.trap.replace; f != nil {
			// MUTANT: "@" + label handed to the regex library as a replacement template
			groups := [4]string{jsstring.FromUTF16(u[i:end]), "", "", ""}
			if markdown {
				groups[1], groups[2] = jsstring.FromUTF16(rawLabel), jsstring.FromUTF16(uriUnits)
			} else {
				groups[3] = jsstring.FromUTF16(uriUnits)
			}
			r, err := f("@"+jsstring.FromUTF16(labelUnits), groups)
			if err != nil {
				return mention.Parsed{}, err
			}
			out = append(out, jsstring.UTF16(r)...)
		} else {
			out = append(out, '@')
			out = append(out, labelUnits...)
		}
		last, i = end, end
	}
	if refs == nil {
		return mention.Parsed{Text: jsstring.Normalize(text)}, nil
	}
	out = append(out, u[last:]...)
	return mention.Parsed{Text: jsstring.FromUTF16(out), References: refs}, nil
}

// hasScheme reports whether u holds "dsh-session:" at i.
func (p port) hasScheme(u []uint16, i int) bool {
	if p.k.trap.ignorableScan {
		return p.prefix(u, i, uri.Scheme)
	}
	if !p.k.trap.foldScheme {
		return hasPrefix(u, i, uri.Scheme)
	}
	if len(u)-i < len(uri.Scheme) {
		return false
	}
	for k := 0; k < len(uri.Scheme); k++ {
		c := u[i+k]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A' // MUTANT: a case-insensitive pattern
		}
		if c != uint16(uri.Scheme[k]) {
			return false
		}
	}
	return true
}

// prefix reports whether u holds s at i: code unit for code unit, or, for the
// ignorableScan mutant, as a culture-sensitive StartsWith does.
func (p port) prefix(u []uint16, i int, s string) bool {
	if !p.k.trap.ignorableScan {
		return hasPrefix(u, i, s)
	}
	// MUTANT: ICU collation ignores U+00AD, ZWJ and their kin inside the match; the scanner
	// then steps len(s) code units, off by the ones it skipped.
	k := i
	for j := 0; j < len(s); j++ {
		for j > 0 && k < len(u) && icuIgnorable(u[k]) {
			k++
		}
		if k >= len(u) || u[k] != uint16(s[j]) {
			return false
		}
		k++
	}
	return true
}

// icuIgnorable are code units ICU's root collation gives no weight (a few of them).
func icuIgnorable(c uint16) bool {
	return c == 0 || c == 0xad || c >= 0x200b && c <= 0x200d || c == 0x2060 || c == 0xfeff
}

func hasPrefix(u []uint16, i int, p string) bool {
	if len(u)-i < len(p) {
		return false
	}
	for k := 0; k < len(p); k++ {
		if u[i+k] != uint16(p[k]) {
			return false
		}
	}
	return true
}

func codePoint(u []uint16, i int) (rune, int) {
	c := rune(u[i])
	if c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
		return 0x10000 + (c-0xD800)<<10 + (rune(u[i+1]) - 0xDC00), 2
	}
	return c, 1
}

// isSpace is the regular expression's \s.
func (p port) isSpace(r rune) bool {
	if f := p.k.trap.space; f != nil {
		return f(r) // MUTANT: a language's regex \s
	}
	if p.k.asciiSpace {
		// MUTANT: Go's regexp \s, [\t\n\f\r ]
		return r == '\t' || r == '\n' || r == '\f' || r == '\r' || r == ' '
	}
	return jsstring.IsSpace(r)
}

func (p port) matchMarkdown(u []uint16, i int) (end int, label, uriUnits []uint16, ok bool) {
	if !p.prefix(u, i, "@[") {
		return 0, nil, nil, false
	}
	j := i + 2
	for {
		if j >= len(u) {
			return 0, nil, nil, false
		}
		c := u[j]
		if p.k.trap.narrowUnit && c != '\\' && (byte(c) == ']' || byte(c) == '\\') {
			break // MUTANT narrowUnit: Rust's `units[j] as u8`, a unit compared by its low byte
		}
		if c == ']' {
			break
		}
		if c == '\\' {
			if j+1 >= len(u) {
				return 0, nil, nil, false
			}
			r, n := codePoint(u, j+1)
			if p.lineTerminator(r) && !p.k.dotAll { // MUTANT dotAll: `.` takes a line terminator
				return 0, nil, nil, false
			}
			j += 1 + n
			continue
		}
		j++
	}
	labelEnd := j
	if !p.prefix(u, j, "](") || !p.hasScheme(u, j+2) {
		return 0, nil, nil, false
	}
	k := j + 2 + len(uri.Scheme)
	for k < len(u) {
		r, n := codePoint(u, k)
		if r == ')' || p.isSpace(r) {
			break
		}
		k += n
	}
	if k >= len(u) || u[k] != ')' {
		return 0, nil, nil, false
	}
	return k + 1, u[i+2 : labelEnd], u[j+2 : k], true
}

func isWordUnit(c uint16) bool {
	return c < 0x80 && (uri.IsPayloadByte(byte(c)) && c != '-')
}

func (p port) matchBare(u []uint16, i int) (int, bool) {
	if !p.hasScheme(u, i) {
		return 0, false
	}
	if p.k.bareWordBoundary && i > 0 && isWordUnit(u[i-1]) {
		return 0, false // MUTANT: \bdsh-session:…, a bare URI inside a word is not one
	}
	k := i + len(uri.Scheme)
	for k < len(u) && (u[k] < 0x80 && uri.IsPayloadByte(byte(u[k])) || p.k.trap.payload != nil && p.k.trap.payload(rune(u[k]))) {
		k++ // MUTANT payload: a language's [\w-] class
	}
	return k, k > i+len(uri.Scheme)
}

// lineTerminator is what the regular expression's `.` does not match.
func (p port) lineTerminator(r rune) bool {
	if f := p.k.trap.lineTerminator; f != nil {
		return f(r) // MUTANT: a language's regex `.`
	}
	return jsstring.IsLineTerminator(r)
}

func (p port) unescape(label []uint16) []uint16 {
	out := make([]uint16, 0, len(label))
	for j := 0; j < len(label); {
		if label[j] == '\\' && j+1 < len(label) {
			if r, n := codePoint(label, j+1); !p.lineTerminator(r) {
				out = append(out, label[j+1:j+1+n]...)
				j += 1 + n
				continue
			}
		}
		out = append(out, label[j])
		j++
	}
	return out
}
