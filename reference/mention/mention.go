// Package mention formats and parses the Markdown mentions that carry session URIs,
// @[label](dsh-session:…), and bare canonical URIs in text (spec SR-MENTION-*).
package mention

import (
	"strings"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// Reference is one session named in text: its id and its readable label (WTF-8 strings).
type Reference struct {
	SessionID string `json:"sessionId"`
	Label     string `json:"label"`
}

// Parsed is the result of Parse.
type Parsed struct {
	// Text is the input with every mention and bare URI replaced by "@" and its label.
	Text string
	// References are the mentions in order of appearance, duplicates kept.
	References []Reference
}

// Value returns the result as the seed returns it: {text, references: [{sessionId, label}…]}.
func (p Parsed) Value() *jsjson.Object {
	refs := make([]any, len(p.References))
	for i, r := range p.References {
		refs[i] = jsjson.NewObject().Set("sessionId", r.SessionID).Set("label", r.Label)
	}
	return jsjson.NewObject().Set("text", p.Text).Set("references", refs)
}

// Format returns the mention @[label](uri) with `\` and `]` in the label escaped by a
// backslash: the seed's formatSessionReferenceMention. A reference without a label is
// formatted with its id as label: Format(id, id).
func Format(sessionID, label string) string {
	return string(AppendFormat(make([]byte, 0, len(label)+2*len(sessionID)+24), sessionID, label))
}

// AppendFormat appends Format(sessionID, label) to dst; it allocates nothing when dst has room.
func AppendFormat(dst []byte, sessionID, label string) []byte {
	dst = append(dst, "@["...)
	for i := 0; i < len(label); i++ {
		if c := label[i]; c == '\\' || c == ']' {
			dst = append(dst, '\\')
		}
		dst = append(dst, label[i])
	}
	dst = append(dst, "]("...)
	dst = uri.AppendEncode(dst, sessionID)
	return append(dst, ')')
}

// EscapeLabel puts a backslash before every `\` and `]` of label.
func EscapeLabel(label string) string {
	if !strings.ContainsAny(label, `\]`) {
		return label
	}
	var b strings.Builder
	for i := 0; i < len(label); i++ {
		if c := label[i]; c == '\\' || c == ']' {
			b.WriteByte('\\')
		}
		b.WriteByte(label[i])
	}
	return b.String()
}

const scheme = uri.Scheme

// Parse replaces mentions and bare URIs in text with readable "@label" text and returns the
// references in appearance order: the seed's parseSessionReferenceText, which applies
//
//	/@\[((?:\\.|[^\\\]])*)\]\((dsh-session:[^\s)]*)\)|(dsh-session:[A-Za-z0-9_-]+)/gu
//
// Parse follows that expression's JavaScript semantics exactly: leftmost match, the Markdown
// form tried before the bare one, `.` any code point but a line terminator, `\s` JavaScript
// whitespace. A Markdown mention's label is unescaped (`\x` becomes x); a bare URI's label is
// its id. The first match whose URI does not decode fails the whole call with
// SESSION_REFERENCE_INVALID_REFERENCE. Text is processed as UTF-16, so a label ending in a
// high surrogate joins a low surrogate that follows the mention, as in JavaScript.
func Parse(text string) (Parsed, error) {
	if !strings.Contains(text, scheme) {
		return Parsed{Text: jsstring.Normalize(text)}, nil // no match is possible without the scheme
	}
	u := jsstring.UTF16(text)
	var out []uint16
	var refs []Reference
	last := 0
	for i := 0; i < len(u); {
		var end int
		var uriUnits, rawLabel []uint16
		markdown := false
		if e, l, r, ok := matchMarkdown(u, i); ok {
			end, rawLabel, uriUnits, markdown = e, l, r, true
		} else if e, ok := matchBare(u, i); ok {
			end, uriUnits = e, u[i:e]
		} else {
			i++
			continue
		}
		id, err := uri.Decode(jsstring.FromUTF16(uriUnits))
		if err != nil {
			return Parsed{}, err
		}
		var labelUnits []uint16
		if markdown {
			labelUnits = unescape(rawLabel)
		} else {
			labelUnits = jsstring.UTF16(id)
		}
		refs = append(refs, Reference{SessionID: id, Label: jsstring.FromUTF16(labelUnits)})
		out = append(out, u[last:i]...)
		out = append(out, '@')
		out = append(out, labelUnits...)
		last, i = end, end
	}
	if refs == nil {
		return Parsed{Text: jsstring.Normalize(text)}, nil
	}
	out = append(out, u[last:]...)
	return Parsed{Text: jsstring.FromUTF16(out), References: refs}, nil
}

// hasPrefix reports whether u[i:] starts with the ASCII string p.
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

// codePoint returns the code point at u[i] and its length in units (a lone surrogate is one).
func codePoint(u []uint16, i int) (rune, int) {
	c := rune(u[i])
	if c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
		return 0x10000 + (c-0xD800)<<10 + (rune(u[i+1]) - 0xDC00), 2
	}
	return c, 1
}

// matchMarkdown matches @\[((?:\\.|[^\\\]])*)\]\((dsh-session:[^\s)]*)\) at u[i:]. The label
// alternatives never overlap (an escape starts with `\`, which the class excludes), so the
// greedy scan is the only way to match and no backtracking can find another.
func matchMarkdown(u []uint16, i int) (end int, label, uriUnits []uint16, ok bool) {
	if !hasPrefix(u, i, "@[") {
		return 0, nil, nil, false
	}
	j := i + 2
	for {
		if j >= len(u) {
			return 0, nil, nil, false
		}
		c := u[j]
		if c == ']' {
			break
		}
		if c == '\\' {
			if j+1 >= len(u) {
				return 0, nil, nil, false
			}
			r, n := codePoint(u, j+1)
			if jsstring.IsLineTerminator(r) {
				return 0, nil, nil, false
			}
			j += 1 + n
			continue
		}
		j++
	}
	labelEnd := j
	if !hasPrefix(u, j, "](") || !hasPrefix(u, j+2, scheme) {
		return 0, nil, nil, false
	}
	k := j + 2 + len(scheme)
	for k < len(u) {
		r, n := codePoint(u, k)
		if r == ')' || jsstring.IsSpace(r) {
			break
		}
		k += n
	}
	if k >= len(u) || u[k] != ')' {
		return 0, nil, nil, false
	}
	return k + 1, u[i+2 : labelEnd], u[j+2 : k], true
}

// matchBare matches dsh-session:[A-Za-z0-9_-]+ at u[i:].
func matchBare(u []uint16, i int) (int, bool) {
	if !hasPrefix(u, i, scheme) {
		return 0, false
	}
	k := i + len(scheme)
	for k < len(u) && u[k] < 0x80 && uri.IsPayloadByte(byte(u[k])) {
		k++
	}
	return k, k > i+len(scheme)
}

// unescape applies label.replace(/\\(.)/gu, "$1"): a backslash before any code point but a
// line terminator is dropped.
func unescape(label []uint16) []uint16 {
	out := make([]uint16, 0, len(label))
	for j := 0; j < len(label); {
		if label[j] == '\\' && j+1 < len(label) {
			if r, n := codePoint(label, j+1); !jsstring.IsLineTerminator(r) {
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

// FormatValue is Format over JavaScript values: a label that is undefined or null is the
// session id; the label (or the id standing for it) must then be a string, or FormatValue
// fails with an *errcode.TypeError as the seed's label.replace call does; the id is encoded
// as uri.EncodeValue encodes it, whatever its type.
func FormatValue(sessionID, label jsjson.Arg) (string, error) {
	shown := label
	if !label.Set || label.Value == nil {
		shown = sessionID
	}
	s, ok := shown.Value.(string)
	if !ok {
		return "", &errcode.TypeError{Msg: "label.replace is not a function"}
	}
	if id, ok := sessionID.Value.(string); ok {
		return Format(id, s), nil
	}
	enc, err := uri.EncodeValue(sessionID)
	if err != nil {
		return "", err
	}
	return "@[" + EscapeLabel(s) + "](" + enc + ")", nil
}

// ParseValue is Parse over a JavaScript value: one that is not a string fails with an
// *errcode.TypeError, as the seed's text.replace call does.
func ParseValue(text jsjson.Arg) (Parsed, error) {
	s, ok := text.Value.(string)
	if !ok {
		return Parsed{}, &errcode.TypeError{Msg: "text.replace is not a function"}
	}
	return Parse(s)
}
