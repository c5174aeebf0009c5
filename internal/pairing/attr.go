package pairing

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Attribute states, as git keeps them.
const (
	attrUnspecified = "" // no line says anything, or "!attr"
	attrSet         = "\x00set"
	attrUnset       = "\x00unset"
)

// attrLine is one pattern line of a gitattributes file.
type attrLine struct {
	pattern string
	base    string // folder of the file, "" for the root and files outside the tree
	nodir   bool   // no slash in the pattern: match the base name at any depth
	mustDir bool   // trailing slash: matches folders only, never a file
	states  []attrState
}

type attrState struct{ name, value string }

// attrSource is one gitattributes file, parsed.
type attrSource struct {
	lines  []attrLine
	macros map[string][]attrState
}

// attributes finds the gitattributes of a path the way git does for a file on its
// way into the repository: /etc/gitattributes, then the global file
// (core.attributesFile), then .gitattributes from the root down to the file's
// folder, then $GIT_DIR/info/attributes; later ones win, and within a file later
// lines win. Macros ("[attr]name …", and the built-in binary = -diff -merge -text)
// are expanded where they are set.
type attributes struct {
	r      *Repo
	cfg    *gitConfig
	cache  map[string]*attrSource
	macros map[string][]attrState
}

func newAttributes(r *Repo, cfg *gitConfig) *attributes {
	return &attributes{r: r, cfg: cfg, cache: map[string]*attrSource{},
		macros: map[string][]attrState{"binary": {{"diff", attrUnset}, {"merge", attrUnset}, {"text", attrUnset}}}}
}

func (a *attributes) source(file, base string, macrosAllowed bool) *attrSource {
	key := file + "\x00" + base
	if s, ok := a.cache[key]; ok {
		return s
	}
	s := &attrSource{}
	// Like git (2.32 and later), an in-tree .gitattributes that is a symbolic
	// link is not read: it could point anywhere.
	inTree := filepath.Base(file) == ".gitattributes"
	if info, err := os.Lstat(file); err == nil && (!inTree || info.Mode()&os.ModeSymlink == 0) {
		if data, err := readRegular(file, 1<<20); err == nil {
			s = parseAttributes(string(data), base, macrosAllowed)
		}
	}
	a.cache[key] = s
	return s
}

// of returns the attribute values of the repository-relative path rel for names.
func (a *attributes) of(rel string, names ...string) map[string]string {
	var sources []*attrSource
	if !envBool("GIT_ATTR_NOSYSTEM") {
		sources = append(sources, a.source("/etc/gitattributes", "", true))
	}
	global, ok := a.cfg.get("core.attributesfile")
	if ok && strings.HasPrefix(global, "~/") {
		global = filepath.Join(homeDir(), global[2:])
	} else if !ok {
		if x := xdgConfigHome(); x != "" {
			global = filepath.Join(x, "git", "attributes")
		}
	}
	if global != "" {
		sources = append(sources, a.source(global, "", true))
	}
	dir := path.Dir(rel)
	var folders []string
	for d := dir; ; d = path.Dir(d) {
		folders = append(folders, d)
		if d == "." || d == "/" {
			break
		}
	}
	for i := len(folders) - 1; i >= 0; i-- {
		base := folders[i]
		if base == "." {
			base = ""
		}
		sources = append(sources, a.source(a.r.Abs(path.Join(folders[i], ".gitattributes")), base, base == ""))
	}
	if a.r.common() != "" {
		sources = append(sources, a.source(filepath.Join(a.r.common(), "info", "attributes"), "", true))
	}
	// Macros are known from every file allowed to define them before any line applies.
	macros := map[string][]attrState{}
	for k, v := range a.macros {
		macros[k] = v
	}
	for _, s := range sources {
		for k, v := range s.macros {
			macros[k] = v
		}
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]string{}
	var apply func(st attrState, depth int)
	apply = func(st attrState, depth int) {
		if want[st.name] {
			out[st.name] = st.value
		}
		if m, ok := macros[st.name]; ok && st.value == attrSet && depth < 8 {
			for _, ms := range m {
				apply(ms, depth+1)
			}
		}
	}
	for _, s := range sources {
		for _, l := range s.lines {
			if l.matches(rel) {
				for _, st := range l.states {
					apply(st, 0)
				}
			}
		}
	}
	return out
}

func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}

func (l *attrLine) matches(rel string) bool {
	if l.mustDir {
		return false // a file is never a folder
	}
	if l.nodir {
		return wildmatch(l.pattern, path.Base(rel), false)
	}
	name := rel
	if l.base != "" {
		if !strings.HasPrefix(rel, l.base+"/") {
			return false
		}
		name = rel[len(l.base)+1:]
	}
	return wildmatch(l.pattern, name, true)
}

// parseAttributes parses a gitattributes file whose patterns are relative to base.
func parseAttributes(data, base string, macrosAllowed bool) *attrSource {
	s := &attrSource{macros: map[string][]attrState{}}
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimRight(line, "\r")
		line = strings.TrimLeft(line, " \t")
		if line == "" || line[0] == '#' {
			continue
		}
		var pat, rest string
		if line[0] == '"' {
			p, n, ok := cUnquote(line)
			if !ok {
				continue
			}
			pat, rest = p, line[n:]
		} else {
			end := strings.IndexAny(line, " \t")
			if end < 0 {
				end = len(line)
			}
			pat, rest = line[:end], line[end:]
		}
		states := parseStates(rest)
		if name, ok := strings.CutPrefix(pat, "[attr]"); ok {
			if macrosAllowed && name != "" {
				s.macros[name] = states
			}
			continue
		}
		if pat == "" || pat[0] == '!' {
			continue // negative patterns are forbidden in gitattributes; git ignores the line
		}
		l := attrLine{base: base, states: states}
		if strings.HasSuffix(pat, "/") {
			l.mustDir = true
			pat = strings.TrimSuffix(pat, "/")
		}
		l.nodir = !strings.Contains(pat, "/")
		l.pattern = strings.TrimPrefix(pat, "/")
		s.lines = append(s.lines, l)
	}
	return s
}

func parseStates(rest string) []attrState {
	var out []attrState
	for _, f := range strings.Fields(rest) {
		switch {
		case strings.HasPrefix(f, "-"):
			out = append(out, attrState{f[1:], attrUnset})
		case strings.HasPrefix(f, "!"):
			out = append(out, attrState{f[1:], attrUnspecified})
		default:
			name, value, ok := strings.Cut(f, "=")
			if !ok {
				value = attrSet
			}
			out = append(out, attrState{name, value})
		}
	}
	return out
}

// cUnquote reads a C-quoted string at the start of s ("…" with \n, \t, \\, \"
// and octal escapes) and returns it with the number of bytes it took.
func cUnquote(s string) (string, int, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), i + 1, true
		case '\\':
			i++
			if i >= len(s) {
				return "", 0, false
			}
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'v':
				b.WriteByte('\v')
			case '0', '1', '2', '3':
				if i+2 >= len(s) {
					return "", 0, false
				}
				v := (int(e-'0') << 6) | (int(s[i+1]-'0') << 3) | int(s[i+2]-'0')
				b.WriteByte(byte(v))
				i += 2
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}
