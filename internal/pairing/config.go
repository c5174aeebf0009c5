package pairing

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ConfigName is the repository-level config, at the root, that declares which
// documents pair beyond the README.md ↔ README.<lang>.md pairs found by default.
//
//	sets:
//	  - name: docs                            # optional, shown in messages
//	    record: docs/translations.i18n.yaml   # the record of every document of the set
//	    languages:                            # two or more: language tag → pattern
//	      en: docs/en/**/*.md
//	      zh-CN: docs/zh-cn/**/*.md
//	    exclude: [docs/en/drafts/**]          # optional
//
// A pattern is a gitignore-style wildcard relative to the root ("*" and "?" stay
// within a folder, "**/" spans folders). The files whose paths match the patterns
// of a set with the same wildcard text are one document in several languages:
// docs/en/a/b.md and docs/zh-cn/a/b.md above, or, with en: "**/*.md" and
// zh: "**/*.zh.md", guide.md and guide.zh.md in the same folder. A file matching
// two languages' patterns belongs to the pattern with more literal characters
// (guide.zh.md is zh, not an English document named "guide.zh"); a tie goes to
// the language listed first. Every pattern of a set must hold the same wildcards
// in the same order, so each document's path in one language names it in all.
const ConfigName = ".translation-pairing.yaml"

// pairSet is what one record holds: a configured set, or (readme) the README
// pair of one folder, whose record sits beside it and names files of that
// folder by their bare names.
type pairSet struct {
	Name      string
	Record    string // repository-relative path of the set's record
	recordDir string
	langs     []setLang
	exclude   []setLang
	readme    bool
	files     []string // a README folder's files (a configured set's are the run's)
}

type setLang struct {
	tag      string
	pattern  string
	re       *regexp.Regexp
	kinds    string // the wildcards in order, e.g. "**/|*"
	prefix   string // the literal characters before the first wildcard
	literals int
}

// configState is the parsed config, or the one verdict on a config that
// cannot be used.
type configState struct {
	sets []*pairSet
	bad  *Pair
}

var langTag = regexp.MustCompile(`^[A-Za-z0-9]{1,8}([-_][A-Za-z0-9]{1,8})*$`)

func (r *Repo) pairingConfig() *configState {
	if r.conf == nil {
		r.conf = &configState{}
		if _, err := os.Lstat(r.Abs(ConfigName)); !errors.Is(err, fs.ErrNotExist) {
			r.conf.bad = r.readParsed(ConfigName, "fix the config", func(data []byte) (err error) {
				r.conf.sets, err = parseConfig(data)
				return err
			})
		}
	}
	return r.conf
}

// configFile is the config as written: a set's record and languages stay
// nodes, for their lines and the languages' order.
type configFile struct {
	Sets *[]configSet
}

type configSet struct {
	Name              string
	Record, Languages yaml.Node
	Exclude           []string
}

// configWords says yaml.v3's errors on the config in the tool's words, by the
// Go type the YAML did not fit: what it must be, and the keys it knows.
var configWords = map[string][2]string{
	"pairing.configFile":  {`expected a mapping with "sets:"`, `(the config has only "sets")`},
	"[]pairing.configSet": {`"sets" must be a list of sets`},
	"pairing.configSet":   {"a set must be a mapping with record and languages", "in a set (name, record, languages, exclude)"},
	"[]string":            {"exclude must be a list of patterns"},
	"string":              {"name and each exclude pattern must be strings"},
}

var yamlTypeErr = regexp.MustCompile(`^line (\d+): (?:field (.*) not found|cannot unmarshal .*) in(?:to| type) (\S+)$`)

// parseConfig parses and checks a config; it guesses nothing.
func parseConfig(data []byte) ([]*pairSet, error) {
	fail := func(line int, format string, a ...any) ([]*pairSet, error) {
		return nil, recordErr(line, format, a...)
	}
	top, err := decodeYAML(data, "empty config: expected \"sets:\" with a list of sets")
	if err == nil {
		err = boundedNodes(top)
	}
	if err != nil {
		return nil, err
	}
	var c configFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return nil, yamlError(err)
		}
		m := yamlTypeErr.FindStringSubmatch(te.Errors[0])
		if m == nil || configWords[m[3]][min(len(m[2]), 1)] == "" {
			return fail(0, "%s", te.Errors[0])
		}
		line, _ := strconv.Atoi(m[1])
		if m[2] != "" {
			return fail(line, "unknown key %q %s", m[2], configWords[m[3]][1])
		}
		return fail(line, "%s", configWords[m[3]][0])
	}
	if c.Sets == nil {
		return fail(1, "\"sets\" must be a list of sets")
	}
	var sets []*pairSet
	records := map[string]int{}
	for _, cs := range *c.Sets {
		s := &pairSet{Name: cs.Name, Record: cs.Record.Value}
		line := cmp.Or(cs.Record.Line, cs.Languages.Line)
		if cs.Record.Kind != yaml.ScalarNode && cs.Record.Kind != 0 {
			return fail(line, "record must be a string")
		}
		for _, e := range cs.Exclude {
			x, err := compilePattern(e)
			if err != nil {
				return fail(line, "exclude pattern %q: %s", e, err)
			}
			s.exclude = append(s.exclude, x)
		}
		if s.Record == "" {
			return fail(line, "a set needs a record: the path of the file that holds its hashes")
		}
		if err := checkName(s.Record, true); err != nil {
			return fail(line, "record %q %s", s.Record, err)
		}
		if path.Base(s.Record) == RecordName || s.Record == ConfigName {
			return fail(line, "record %q: %s files are the README pairs' own records; name the set's record otherwise (e.g. translations.i18n.yaml)", s.Record, RecordName)
		}
		if prev, dup := records[s.Record]; dup {
			return fail(line, "record %q is already the record of the set on line %d", s.Record, prev)
		}
		records[s.Record] = line
		s.recordDir = path.Dir(s.Record)
		s.Name = cmp.Or(s.Name, s.Record)
		langs := cs.Languages.Content
		if cs.Languages.Kind != yaml.MappingNode || len(langs) < 4 {
			return fail(line, "a set needs languages: a mapping of two or more language tags to patterns")
		}
		for i := 0; i+1 < len(langs); i += 2 {
			k, v := langs[i], langs[i+1]
			if !langTag.MatchString(k.Value) {
				return fail(k.Line, "%q is not a language tag (like en, zh-CN, pt_BR, zh-Hans)", k.Value)
			}
			if slices.ContainsFunc(s.langs, func(l setLang) bool { return l.tag == k.Value }) {
				return fail(k.Line, "language %q is listed twice", k.Value)
			}
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return fail(v.Line, "the pattern of %q must be a string", k.Value)
			}
			l, err := compilePattern(v.Value)
			if err != nil {
				return fail(v.Line, "pattern %q: %s", v.Value, err)
			}
			if s.recordDir != "." && !strings.HasPrefix(v.Value, s.recordDir+"/") {
				return fail(v.Line, "pattern %q is not below the folder of its record (%s): a record names files below its own folder", v.Value, s.recordDir)
			}
			l.tag = k.Value
			if len(s.langs) > 0 && l.kinds != s.langs[0].kinds {
				return fail(v.Line, "pattern %q has other wildcards than %q: every pattern of a set needs the same wildcards in the same order", v.Value, s.langs[0].pattern)
			}
			s.langs = append(s.langs, l)
		}
		sets = append(sets, s)
	}
	return sets, nil
}

// maxConfigKeys bounds the keys of one mapping of the config: yaml.v3 compares
// each key of a mapping it decodes with every other: a 300 KB config of one
// mapping cost 52 s, 1 MiB minutes.
const maxConfigKeys = 1000

// boundedNodes refuses, before yaml.v3 decodes the config, a mapping of more
// than maxConfigKeys keys.
func boundedNodes(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode && len(n.Content) > 2*maxConfigKeys {
		return recordErr(n.Line, "a mapping of %d keys; a config has no more than %d in one mapping", len(n.Content)/2, maxConfigKeys)
	}
	for _, c := range n.Content {
		if err := boundedNodes(c); err != nil {
			return err
		}
	}
	return nil
}

// compilePattern turns a wildcard pattern into a regular expression capturing
// each wildcard, so that files of two languages can be matched by what their
// wildcards matched.
func compilePattern(p string) (setLang, error) {
	l := setLang{pattern: p}
	if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return l, errors.New("must be a slash-separated path relative to the root, without backslashes")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || seg == "." || seg == "" {
			return l, errors.New("must not have empty, \".\" or \"..\" segments")
		}
	}
	var re strings.Builder
	var kinds []string
	re.WriteString("^")
	for i := 0; i < len(p); {
		switch {
		case strings.HasPrefix(p[i:], "**/") && (i == 0 || p[i-1] == '/'):
			re.WriteString("((?:[^/]+/)*)")
			kinds = append(kinds, "**/")
			i += 3
		case p[i:] == "**" && (i == 0 || p[i-1] == '/'):
			re.WriteString("(.*)")
			kinds = append(kinds, "**")
			i += 2
		case p[i] == '*':
			for i < len(p) && p[i] == '*' {
				i++
			}
			re.WriteString("([^/]*)")
			kinds = append(kinds, "*")
		case p[i] == '?':
			re.WriteString("([^/])")
			kinds = append(kinds, "?")
			i++
		case p[i] == '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end < 0 {
				return l, errors.New("unclosed [")
			}
			class := p[i+1 : i+1+end]
			if end == 0 || strings.Contains(class, "[:") {
				return l, errors.New("a class must be a simple [abc] or [a-z] (no POSIX names, not empty)")
			}
			neg := ""
			if class[0] == '!' || class[0] == '^' {
				neg, class = "^", class[1:]
			}
			re.WriteString("([" + neg + regexp.QuoteMeta(class) + "])")
			kinds = append(kinds, "[]")
			i += end + 2
		default:
			re.WriteString(regexp.QuoteMeta(p[i : i+1]))
			l.literals++
			i++
		}
	}
	re.WriteString("$")
	c, err := regexp.Compile(re.String())
	if err != nil {
		return l, err
	}
	l.re, l.kinds, l.prefix = c, strings.Join(kinds, "|"), p[:strings.IndexAny(p+"*", "*?[")]
	return l, nil
}

// classify returns the language and document key of rel in s, if it is one of
// the set's documents. A README folder has one document: its README.md (tag "")
// and the README.<lang>.md beside it (tagged by name).
func (s *pairSet) classify(rel string) (tag, key string, ok bool) {
	if s.readme {
		dir, name := path.Split(rel)
		if path.Clean(dir) != s.recordDir || name != BaseName && !IsTranslationName(name) {
			return "", "", false
		}
		return strings.TrimPrefix(name, BaseName), "", true
	}
	// A pattern's literal start is compared first: every set sees every file
	// (2,000 sets by 5,000 files took 7 s in regular expressions).
	match := func(l setLang) bool { return strings.HasPrefix(rel, l.prefix) && l.re.MatchString(rel) }
	if rel == s.Record || rel == ConfigName || !slices.ContainsFunc(s.langs, match) || slices.ContainsFunc(s.exclude, match) {
		return "", "", false
	}
	best := -1
	for _, l := range s.langs {
		if m := l.re.FindStringSubmatch(rel); m != nil && l.literals > best {
			best, tag, key, ok = l.literals, l.tag, strings.Join(m[1:], "\x00"), true
		}
	}
	return tag, key, ok
}

// sides returns the files of a document in the set's order: its languages as
// listed, or README.md then its translations by name.
func (s *pairSet) sides(d map[string]string) []string {
	var tags, out []string
	for _, l := range s.langs {
		tags = append(tags, l.tag)
	}
	if s.readme {
		tags = slices.Sorted(maps.Keys(d))
	}
	for _, t := range tags {
		if f, ok := d[t]; ok {
			out = append(out, f)
		}
	}
	return out
}

// checkSet returns the verdicts of one record's set: one per recorded document,
// one per document with two or more languages and no record entry, or the one
// verdict on a record that cannot be used.
func (r *Repo) checkSet(s *pairSet) []Pair {
	docs := map[string]map[string]string{} // document key → tag → path of its files
	files := r.files
	if s.readme {
		files = s.files
	}
	for _, f := range files {
		tag, key, ok := s.classify(f)
		if !ok || s.readme && tag != "" && r.covered(f) {
			continue // a configured set claims this translation beside README.md
		}
		if docs[key] == nil {
			docs[key] = map[string]string{}
		}
		docs[key][tag] = f
	}
	base := Pair{Record: s.Record, Set: s.Name}
	var rec *Record
	recRecorded := map[string][]Side{} // doc key → recorded sides
	var recOrder []string
	// A record that is there, even as a symbolic link to nothing, is read: one
	// that cannot be is its verdict, never "no record yet".
	if _, err := os.Lstat(r.Abs(s.Record)); !errors.Is(err, fs.ErrNotExist) {
		var err error
		if bad := r.readParsed(s.Record, "fix the record, or delete it and re-record with --write", func(data []byte) error {
			rec, err = parseRecord(data, r.Format, !s.readme)
			return err
		}); bad != nil {
			bad.Set = s.Name
			return []Pair{*bad}
		}
		base.record = rec
		for _, e := range rec.Entries {
			rel := path.Join(s.recordDir, e.Name)
			_, key, ok := s.classify(rel)
			if s.readme {
				key, ok = "", true // a README record may pair any files of its folder
				r.readmeNamed[rel] = true
			}
			if !ok {
				p := base
				p.Status, p.Line = Malformed, e.Line
				p.Message = fmt.Sprintf("%s: line %d: %s matches no pattern of set %s; fix the record or the config", QuotePath(s.Record), e.Line, QuotePath(e.Name), QuotePath(s.Name))
				return []Pair{p}
			}
			if _, seen := recRecorded[key]; !seen {
				recOrder = append(recOrder, key)
			}
			recRecorded[key] = append(recRecorded[key], Side{Path: rel, Recorded: e.Hash})
		}
	}
	// The recorded documents in the record's order, then the others by key.
	for _, key := range slices.Sorted(maps.Keys(docs)) {
		if recRecorded[key] == nil {
			recOrder = append(recOrder, key)
		}
	}
	var out []Pair
	for _, key := range recOrder {
		d, named := docs[key], map[string]bool{}
		if sides := recRecorded[key]; sides != nil {
			p := base
			p.doc = key
			r.judge(&p, sides)
			out = append(out, p)
			for _, rs := range sides {
				named[rs.Path] = true
			}
		} else if len(d) < 2 || slices.ContainsFunc(slices.Collect(maps.Values(d)), func(f string) bool { return r.readmeNamed[f] }) {
			continue // nothing to pair yet, or a README.i18n.yaml beside it pairs it (checked first)
		}
		extra := slices.DeleteFunc(s.sides(d), func(f string) bool { return named[f] })
		// Beside a README.md, what is new must be a translation.
		if len(extra) > 0 && (!s.readme || d[""] != "" && extra[len(extra)-1] != d[""]) {
			out = append(out, r.unrecordedDoc(s, base, key, extra))
		}
	}
	return out
}

// unrecordedDoc is the verdict on a document's sides that base.record (if any) does not name.
func (r *Repo) unrecordedDoc(s *pairSet, base Pair, key string, paths []string) Pair {
	p := base
	p.Status, p.doc = Unrecorded, key
	var quoted []string
	first := ""
	for i, info := range r.hashes(paths...) {
		f := paths[i]
		p.Sides = append(p.Sides, Side{Path: f, State: SideUnrecorded, Current: info.hash})
		if info.err != nil {
			p.Sides[i].Problem = plainErr(info.err)
		}
		if !s.readme || path.Base(f) != BaseName {
			quoted = append(quoted, QuotePath(f))
			first = cmp.Or(first, f)
		}
	}
	matches, what, them := "the other languages of the document", "one document in several languages", "them"
	if s.readme {
		b := QuotePath(path.Join(s.recordDir, BaseName))
		matches, what, them = b, "beside "+b, "the pair"
	}
	if base.record != nil {
		p.Message = fmt.Sprintf("%s %s not named in %s; once %s %s, add %s with: %s",
			list(quoted), pronoun(quoted, "is", "are"), QuotePath(base.Record), pronoun(quoted, "it matches", "they match"), matches, pronoun(quoted, "it", "them"), r.fixCommand(first, false))
	} else {
		p.Message = fmt.Sprintf("%s %s %s with no record (%s); once they match, record %s with: %s",
			list(quoted), pronoun(quoted, "is", "are"), what, QuotePath(base.Record), them, r.fixCommand(first, false))
	}
	return p
}

// covered reports whether a configured set claims rel as one of its documents,
// so the README default leaves it to the set.
func (r *Repo) covered(rel string) bool {
	return slices.ContainsFunc(r.pairingConfig().sets, func(s *pairSet) bool {
		_, _, ok := s.classify(rel)
		return ok
	})
}

// Relevant reports whether a change to the repository-relative path rel can
// change a verdict: a README or its translation, a record, the config, a
// .gitattributes file, or a document of a configured set. A pre-commit hook
// uses it to stay silent on commits that touch none of these.
func (r *Repo) Relevant(rel string) bool {
	base := path.Base(rel)
	return base == BaseName || base == RecordName || base == ".gitattributes" || rel == ConfigName || IsTranslationName(base) ||
		slices.ContainsFunc(r.pairingConfig().sets, func(s *pairSet) bool { return rel == s.Record }) || r.covered(rel)
}
