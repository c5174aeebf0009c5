package pairing

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Conversion says how a side's working-tree bytes became the blob git would store.
type Conversion struct {
	// EOL is the end-of-line conversion applied: "" (none), "crlf-to-lf" (text,
	// eol=…, or core.autocrlf on a file git takes for text).
	EOL string `json:"eol,omitempty"`
	// Ident is set when the ident attribute collapsed $Id: …$ to $Id$.
	Ident bool `json:"ident,omitempty"`
}

// errNeedsGit marks a file git would pass through a clean filter or a
// re-encoding the tool cannot reproduce without running git.
var errNeedsGit = errors.New("needs git to hash")

// crlfAction is git's convert.c decision for a path (enum convert_crlf_action).
type crlfAction int

const (
	crlfUndefined crlfAction = iota
	crlfBinary
	crlfText
	crlfTextInput
	crlfTextCRLF
	crlfAuto
	crlfAutoInput
	crlfAutoCRLF
)

func crlfFromAttr(v string) crlfAction {
	switch v {
	case attrSet:
		return crlfText
	case attrUnset:
		return crlfBinary
	case "input":
		return crlfTextInput
	case "auto":
		return crlfAuto
	}
	return crlfUndefined
}

// cleanAction decides, as git's convert_attrs does, what git does to rel's bytes
// on the way in: from the text, crlf and eol attributes and core.autocrlf.
func (r *Repo) cleanAction(rel string) (crlfAction, map[string]string) {
	attrs := r.attrs().of(rel, "text", "crlf", "eol", "ident", "filter", "working-tree-encoding")
	action := crlfFromAttr(attrs["text"])
	if action == crlfUndefined {
		action = crlfFromAttr(attrs["crlf"])
	}
	if action != crlfBinary {
		eol := attrs["eol"]
		switch {
		case action == crlfAuto && eol == "lf":
			action = crlfAutoInput
		case action == crlfAuto && eol == "crlf":
			action = crlfAutoCRLF
		case eol == "lf":
			action = crlfTextInput
		case eol == "crlf":
			action = crlfTextCRLF
		}
	}
	if action == crlfText {
		action = crlfTextInput // CRLF or input only differ on checkout
	}
	if action == crlfUndefined {
		v, _ := r.config().get("core.autocrlf")
		switch {
		case strings.EqualFold(strings.TrimSpace(v), "input"):
			action = crlfAutoInput
		case configBool(v):
			action = crlfAutoCRLF
		default:
			action = crlfBinary
		}
	}
	return action, attrs
}

// toGit returns the blob git would store for rel, whose working-tree bytes are data:
// the clean-side conversions of `git add` and `git hash-object` (filters, in
// git's order: clean filter, working-tree-encoding, end of line, ident). Outside
// git the bytes are the blob. A clean filter or a re-encoding is refused with
// errNeedsGit rather than guessed.
func (r *Repo) toGit(rel string, data []byte) ([]byte, Conversion, error) {
	var conv Conversion
	if r.GitDir == "" {
		return data, conv, nil
	}
	action, attrs := r.cleanAction(rel)
	if drv := attrs["filter"]; drv != attrUnspecified && drv != attrSet && drv != attrUnset {
		clean, hasClean := r.config().get("filter." + drv + ".clean")
		process, hasProcess := r.config().get("filter." + drv + ".process")
		required, _ := r.config().get("filter." + drv + ".required")
		if (hasClean && clean != "") || (hasProcess && process != "") {
			return nil, conv, fmt.Errorf("%w: the clean filter %q (filter.%s) rewrites it on the way in", errNeedsGit, drv, drv)
		}
		if configBool(required) {
			return nil, conv, fmt.Errorf("%w: the filter %q is required but not configured, so git itself would refuse it", errNeedsGit, drv)
		}
	}
	if enc := attrs["working-tree-encoding"]; enc != attrUnspecified && enc != attrSet && enc != attrUnset &&
		!strings.EqualFold(enc, "utf-8") && !strings.EqualFold(enc, "utf8") {
		return nil, conv, fmt.Errorf("%w: working-tree-encoding=%s re-encodes it on the way in", errNeedsGit, enc)
	}
	out := data
	if converted, ok := r.crlfToGit(rel, out, action); ok {
		out, conv.EOL = converted, "crlf-to-lf"
	}
	if attrs["ident"] == attrSet {
		if converted, ok := identToGit(out); ok {
			out, conv.Ident = converted, true
		}
	}
	return out, conv, nil
}

// textStats is git's gather_stats.
type textStats struct {
	nul, loneCR, loneLF, crlf, printable, nonPrintable int
}

func gatherStats(b []byte) textStats {
	var s textStats
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\r' {
			if i+1 < len(b) && b[i+1] == '\n' {
				s.crlf++
				i++
			} else {
				s.loneCR++
			}
			continue
		}
		if c == '\n' {
			s.loneLF++
			continue
		}
		switch {
		case c == 127:
			s.nonPrintable++
		case c < 32:
			switch c {
			case '\b', '\t', '\033', '\014':
				s.printable++
			case 0:
				s.nul++
				s.nonPrintable++
			default:
				s.nonPrintable++
			}
		default:
			s.printable++
		}
	}
	// A trailing ^Z (DOS end of file) does not count as non-printable.
	if len(b) >= 1 && b[len(b)-1] == '\032' {
		s.nonPrintable--
	}
	return s
}

func (s textStats) binary() bool {
	return s.loneCR > 0 || s.nul > 0 || (s.printable>>7) < s.nonPrintable
}

// crlfToGit is git's crlf_to_git: it reports whether it converted.
func (r *Repo) crlfToGit(rel string, b []byte, action crlfAction) ([]byte, bool) {
	if action == crlfBinary || len(b) == 0 {
		return nil, false
	}
	stats := gatherStats(b)
	convert := stats.crlf > 0
	auto := action == crlfAuto || action == crlfAutoInput || action == crlfAutoCRLF
	if auto {
		if stats.binary() {
			return nil, false
		}
		// git's "safer autocrlf": a file whose indexed blob holds a CR stays as it is.
		if convert && r.hasCRInIndex(rel) {
			convert = false
		}
	}
	if !convert {
		return nil, false
	}
	if auto {
		// A guessed text file has no lone CR (it would be binary): drop every CR.
		return bytes.ReplaceAll(b, []byte("\r"), nil), true
	}
	// Drop a CR only before an LF ("\r\r\n" keeps its first CR, as in git).
	out := bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return out, true
}

// identToGit collapses "$Id: …$" to "$Id$", as git's ident_to_git does.
func identToGit(b []byte) ([]byte, bool) {
	if !bytes.Contains(b, []byte("$Id")) {
		return nil, false
	}
	var out []byte
	changed := false
	src := b
	for {
		d := bytes.IndexByte(src, '$')
		if d < 0 {
			break
		}
		out = append(out, src[:d+1]...)
		src = src[d+1:]
		if len(src) > 3 && bytes.HasPrefix(src, []byte("Id:")) {
			end := bytes.IndexByte(src[3:], '$')
			if end < 0 {
				break
			}
			if bytes.IndexByte(src[3:3+end], '\n') >= 0 {
				continue
			}
			out = append(out, "Id$"...)
			src = src[3+end+1:]
			changed = true
		}
	}
	out = append(out, src...)
	return out, changed
}

// hasCRInIndex reports whether the blob the index holds for rel contains a CR.
// An index or blob it cannot read counts as no CR, as in git.
func (r *Repo) hasCRInIndex(rel string) bool {
	oid, ok := r.indexEntry(rel)
	if !ok {
		return false
	}
	data, _, err := r.objects().readBlob(oid)
	if err != nil {
		return false
	}
	return bytes.IndexByte(data, '\r') >= 0
}
