package pairing

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Entry is one side of a record: a file name in the record's folder and its hash
// as of the last confirmed state.
type Entry struct {
	Name string
	Hash string
	// Line and Column locate the hash in the record (1-based, Column in characters),
	// so a rewrite can replace exactly those bytes and nothing else.
	Line, Column int
}

// Record is a parsed README.i18n.yaml: a flat YAML mapping from file names to git
// blob hashes, in the order the file lists them.
type Record struct {
	Entries []Entry
	data    []byte
	flow    bool // written as {a: b, …}: new sides cannot simply be appended as lines
	indent  int  // column of the first key, for appended lines
	paths   bool // keys are slash-separated paths below the record's folder (a set's record)
}

// RecordError reports a malformed record: where (Line, 0 when unknown) and why.
type RecordError struct {
	Line int
	Msg  string
}

// Error formats the problem with its line, when known: "line 3: …".
func (e *RecordError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

func recordErr(line int, format string, args ...any) error {
	return &RecordError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

var (
	yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	hexHash  = regexp.MustCompile(`^[0-9a-f]+$`)
)

// parseRecord parses and validates a record whose hashes must be of format f.
// It guesses nothing: anything but a single flat mapping of at least two distinct
// file names, each beside the record (or, with paths, below its folder), to
// lowercase hexadecimal hashes of the right length is reported as a *RecordError.
func parseRecord(data []byte, f ObjectFormat, paths bool) (*Record, error) {
	if !utf8.Valid(data) {
		return nil, recordErr(0, "not valid UTF-8")
	}
	m, err := decodeYAML(data, "empty record: expected lines like \"README.md: <hash>\"")
	if err != nil {
		return nil, err
	}
	if m.Kind != yaml.MappingNode {
		return nil, recordErr(m.Line, "expected a mapping of file names to hashes, found %s", kindName(m))
	}
	rec := &Record{data: data, flow: m.Style&yaml.FlowStyle != 0, paths: paths}
	seen := map[string]int{}
	plain := func(n *yaml.Node) bool {
		return n.Kind == yaml.ScalarNode && n.Style&(yaml.TaggedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && n.Anchor == ""
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !plain(k) {
			return nil, recordErr(k.Line, "a key must be a plain file name, found %s", kindName(k))
		}
		if err := checkName(k.Value, paths); err != nil {
			return nil, recordErr(k.Line, "%q %s", k.Value, err)
		}
		if prev, dup := seen[k.Value]; dup {
			return nil, recordErr(k.Line, "%q is listed twice (first on line %d)", k.Value, prev)
		}
		seen[k.Value] = k.Line
		if !plain(v) {
			return nil, recordErr(v.Line, "the hash of %q must be a single hexadecimal string, found %s", k.Value, kindName(v))
		}
		if err := checkHash(v.Value, f); err != nil {
			return nil, recordErr(v.Line, "the hash of %q %s", k.Value, err)
		}
		if i == 0 {
			rec.indent = k.Column - 1
		}
		rec.Entries = append(rec.Entries, Entry{Name: k.Value, Hash: v.Value, Line: v.Line, Column: v.Column})
	}
	if len(rec.Entries) < 2 {
		return nil, recordErr(m.Line, "a record pairs at least two files, found %d", len(rec.Entries))
	}
	return rec, nil
}

// decodeYAML decodes the one YAML document of a record or config: its top
// node, or a *RecordError (empty says what an empty file should have held).
func decodeYAML(data []byte, empty string) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc, extra yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, recordErr(0, "%s", empty)
		}
		return nil, yamlError(err)
	}
	if err := dec.Decode(&extra); err == nil {
		return nil, recordErr(extra.Line, "more than one YAML document")
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, recordErr(0, "%s", empty)
	}
	return doc.Content[0], nil
}

// checkName accepts only a file name below the record's folder: in its own
// folder (bare names, a README record) or, with paths (a set's record), a
// slash-separated path with no empty, "." or ".." segment; never anything
// absolute, a backslash or a control character. A record that could name ../x or
// /etc/x would let a hash check, and a --write, reach outside the folder a
// reviewer is looking at.
func checkName(name string, paths bool) error {
	segs := strings.Split(name, "/")
	switch {
	case name == "":
		return errors.New("is not a file name")
	case strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || (len(name) > 1 && name[1] == ':') ||
		slices.Contains(segs, "..") || !paths && (name == "." || strings.HasPrefix(name, `..\`)):
		return errors.New("names a path outside the record's folder")
	case !paths && strings.ContainsAny(name, `/\`):
		return errors.New("is a path: a record names files in its own folder only")
	case strings.Contains(name, `\`):
		return errors.New("uses a backslash: paths in a record are slash-separated")
	case !paths && name == RecordName:
		return errors.New("is the record itself")
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return errors.New("contains control characters")
	case slices.Contains(segs, "") || slices.Contains(segs, "."):
		return errors.New("is not a clean path (empty or \".\" segment)")
	}
	return nil
}

func checkHash(h string, f ObjectFormat) error {
	if !hexHash.MatchString(h) {
		return fmt.Errorf("must be lowercase hexadecimal, found %q", h)
	}
	if other := map[int]string{40: "SHA-1", 64: "SHA-256"}[len(h)]; len(h) != f.HexLen() && other != "" {
		return fmt.Errorf("is a %s hash but this repository uses %s: delete the record and re-record with --write", other, f)
	} else if len(h) != f.HexLen() {
		return fmt.Errorf("has %d hexadecimal digits, want %d (%s)", len(h), f.HexLen(), f)
	}
	return nil
}

func yamlError(err error) error {
	msg := err.Error()
	for _, line := range strings.Split(msg, "\n") {
		if m := yamlLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			n, _ := strconv.Atoi(m[1])
			return &RecordError{Line: n, Msg: "not valid YAML: " + m[2]}
		}
	}
	return &RecordError{Msg: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

func kindName(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.AliasNode:
		return "an alias"
	case n.Anchor != "":
		return "an anchor"
	case n.Style&yaml.TaggedStyle != 0:
		return "an explicitly tagged value"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return "a block scalar"
	case n.Kind == yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "something else"
}

// Rewrite returns the record's bytes with every listed side's hash replaced by
// hashes[name] and the sides in add appended, in order. Comments, blank lines,
// quoting and key order stay byte for byte; only the hash characters change. The
// result is parsed back and compared before it is returned, so a rewrite that would
// not read back as intended is an error, never a file.
func (r *Record) Rewrite(hashes map[string]string, add []Entry, f ObjectFormat) ([]byte, error) {
	lines := yamlLines(r.data)
	// Replace from the last entry back, so that offsets earlier on a line stay valid.
	for i := len(r.Entries) - 1; i >= 0; i-- {
		e := r.Entries[i]
		if e.Line < 1 || e.Line > len(lines) {
			return nil, fmt.Errorf("cannot locate the hash of %q", e.Name)
		}
		line := lines[e.Line-1]
		off := 0
		if e.Line == 1 {
			off = len(line) - len(bytes.TrimPrefix(line, []byte("\ufeff")))
		}
		for col := 1; col < e.Column && off < len(line); col++ {
			_, size := utf8.DecodeRune(line[off:])
			off += size
		}
		if off < len(line) && (line[off] == '"' || line[off] == '\'') {
			off++
		}
		if !bytes.HasPrefix(line[off:], []byte(e.Hash)) {
			return nil, fmt.Errorf("cannot locate the hash of %q on line %d", e.Name, e.Line)
		}
		lines[e.Line-1] = slices.Concat(line[:off], []byte(cmp.Or(hashes[e.Name], e.Hash)), line[off+len(e.Hash):])
	}
	out := bytes.Join(lines, nil)
	if len(add) > 0 {
		if r.flow {
			return nil, errors.New("the record is written in flow style ({…}); add the new side by hand or rewrite it one \"name: hash\" per line")
		}
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		for _, e := range add {
			out = append(out, strings.Repeat(" ", r.indent)...)
			out = append(out, yamlKey(e.Name)+": "+e.Hash+"\n"...)
		}
	}
	// Read the result back: it must list exactly the intended sides and hashes.
	back, err := parseRecord(out, f, r.paths)
	if err != nil {
		return nil, fmt.Errorf("the rewritten record would not read back: %w", err)
	}
	if !slices.EqualFunc(back.Entries, append(slices.Clip(r.Entries), add...), func(got, want Entry) bool {
		return got.Name == want.Name && got.Hash == cmp.Or(hashes[want.Name], want.Hash)
	}) {
		return nil, errors.New("the rewritten record would not read back as intended")
	}
	return out, nil
}

// newRecord returns an empty record (of a set's, with paths) under a short
// header that says what the file is and how to refresh it; Rewrite adds its
// sides. hint is the repository-relative path of a side, for the re-record
// command in the header.
func newRecord(hint string, paths bool) *Record {
	return &Record{paths: paths, data: []byte("# Translation-pair record: the git blob hash of each side as of the last state a\n" +
		"# person confirmed consistent. Both languages carry equal authority; after editing\n" +
		"# either side, bring the other along and re-record with:\n" +
		"#   verify-translation-pairing --write " + hint + "\n")}
}

// yamlKey writes a name as a YAML key, quoted where YAML needs it
// ("docs/a: b.md", "#x.md").
func yamlKey(name string) string {
	b, _ := yaml.Marshal(name) // never fails for a string; Rewrite reads back anyway
	return strings.TrimSuffix(string(b), "\n")
}

// yamlBreak is a line break as YAML's scanner counts them (the parser's line
// numbers): CRLF, a lone CR, LF, and NEL, LS and PS.
var yamlBreak = regexp.MustCompile("\r\n|[\r\n\u0085\u2028\u2029]")

// yamlLines splits data after each line break. Joined, the lines are data.
func yamlLines(data []byte) [][]byte {
	var lines [][]byte
	start := 0
	for _, m := range yamlBreak.FindAllIndex(data, -1) {
		lines, start = append(lines, data[start:m[1]]), m[1]
	}
	return append(lines, data[start:])
}
