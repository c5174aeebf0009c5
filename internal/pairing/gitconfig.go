package pairing

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// gitConfig holds the settings of git's config files, in the order git reads them
// (system, global, repository, worktree, environment), so a later value wins.
// Keys are "section.name" or "section.subsection.name" with section and name
// lowercased, as git compares them.
type gitConfig struct {
	entries []configEntry
}

type configEntry struct{ key, value string }

// get returns the last value of key, as git does for single-valued settings.
func (c *gitConfig) get(key string) (string, bool) {
	if c == nil {
		return "", false
	}
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i].key == key {
			return c.entries[i].value, true
		}
	}
	return "", false
}

// maxConfigIncludes bounds include.path chains, as git's own limit does (10).
const maxConfigIncludes = 10

// loadGitConfig reads the config files that decide how git converts a file on
// its way into the repository. It never runs git. A missing or unreadable file
// is skipped, as git skips a missing one; includeIf sections are not followed.
func loadGitConfig(gitDir, commonDir string) *gitConfig {
	c := &gitConfig{}
	if !envBool("GIT_CONFIG_NOSYSTEM") {
		sys := os.Getenv("GIT_CONFIG_SYSTEM")
		if sys == "" {
			sys = "/etc/gitconfig"
		}
		c.readFile(sys, 0)
	}
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		c.readFile(g, 0)
	} else {
		if x := xdgConfigHome(); x != "" {
			c.readFile(filepath.Join(x, "git", "config"), 0)
		}
		if h, err := os.UserHomeDir(); err == nil {
			c.readFile(filepath.Join(h, ".gitconfig"), 0)
		}
	}
	if commonDir != "" {
		c.readFile(filepath.Join(commonDir, "config"), 0)
		if v, _ := c.get("extensions.worktreeconfig"); configBool(v) {
			c.readFile(filepath.Join(gitDir, "config.worktree"), 0)
		}
	}
	// GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>, GIT_CONFIG_VALUE_<n>: what `git -c` and
	// scripts pass down.
	if n, err := strconv.Atoi(os.Getenv("GIT_CONFIG_COUNT")); err == nil {
		for i := 0; i < n && i < 1000; i++ {
			k := os.Getenv("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			if k != "" {
				c.entries = append(c.entries, configEntry{normalizeKey(k), os.Getenv("GIT_CONFIG_VALUE_" + strconv.Itoa(i))})
			}
		}
	}
	return c
}

func xdgConfigHome() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return x
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".config")
	}
	return ""
}

// normalizeKey lowercases a "section.sub.name" key's section and name.
func normalizeKey(k string) string {
	first := strings.IndexByte(k, '.')
	last := strings.LastIndexByte(k, '.')
	if first < 0 {
		return strings.ToLower(k)
	}
	if first == last {
		return strings.ToLower(k)
	}
	return strings.ToLower(k[:first]) + k[first:last] + strings.ToLower(k[last:])
}

func envBool(name string) bool {
	v, ok := os.LookupEnv(name)
	return ok && configBool(v)
}

// configBool reads a git boolean: true, yes, on, or a nonzero number.
func configBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on":
		return true
	case "", "false", "no", "off":
		return false
	}
	n, err := strconv.Atoi(v)
	return err == nil && n != 0
}

func (c *gitConfig) readFile(path string, depth int) {
	data, err := readRegular(path, 1<<20)
	if err != nil {
		return
	}
	c.parse(data, filepath.Dir(path), depth)
}

// parse reads git's config syntax: [section], [section "sub"], the old
// [section.sub], "name = value" with quotes, escapes, comments and backslash
// line continuations, and a name alone meaning true.
func (c *gitConfig) parse(data []byte, dir string, depth int) {
	s := string(data)
	s = strings.TrimPrefix(s, "\ufeff")
	section := ""
	i := 0
	for i < len(s) {
		// Skip leading blanks of a line.
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
		if i >= len(s) {
			break
		}
		switch ch := s[i]; {
		case ch == '\n':
			i++
			continue
		case ch == '#' || ch == ';':
			i = skipLine(s, i)
			continue
		case ch == '[':
			end := strings.IndexByte(s[i:], ']')
			nl := strings.IndexByte(s[i:], '\n')
			if end < 0 || (nl >= 0 && nl < end) {
				section = "\x00" // malformed header: ignore what follows until the next one
				i = skipLine(s, i)
				continue
			}
			section = parseSectionHeader(s[i+1 : i+end])
			i += end + 1
			continue
		}
		// name [= value]
		j := i
		for j < len(s) && (isAlnum(s[j]) || s[j] == '-') {
			j++
		}
		name := strings.ToLower(s[i:j])
		k := j
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if name == "" || section == "" || section == "\x00" {
			i = skipLine(s, i)
			continue
		}
		var value string
		if k < len(s) && s[k] == '=' {
			value, i = parseConfigValue(s, k+1)
		} else {
			value, i = "true", skipLine(s, k)
		}
		key := section + "." + name
		c.entries = append(c.entries, configEntry{key, value})
		if key == "include.path" && depth < maxConfigIncludes {
			p := value
			if strings.HasPrefix(p, "~/") {
				if h, err := os.UserHomeDir(); err == nil {
					p = filepath.Join(h, p[2:])
				}
			} else if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			c.readFile(p, depth+1)
		}
	}
}

func skipLine(s string, i int) int {
	if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
		return i + nl + 1
	}
	return len(s)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parseSectionHeader turns the inside of [...] into "section" or "section.sub".
func parseSectionHeader(h string) string {
	h = strings.TrimSpace(h)
	if sp := strings.IndexAny(h, " \t"); sp >= 0 {
		name := strings.ToLower(h[:sp])
		rest := strings.TrimSpace(h[sp:])
		if len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' {
			return "\x00"
		}
		var sub strings.Builder
		for i := 1; i < len(rest)-1; i++ {
			if rest[i] == '\\' && i+1 < len(rest)-1 {
				i++
			}
			sub.WriteByte(rest[i])
		}
		return name + "." + sub.String()
	}
	// [section] or the deprecated [section.sub], which git lowercases whole.
	return strings.ToLower(h)
}

// parseConfigValue reads a value from s[i:] to the end of its logical line and
// returns it with the index of the next line.
func parseConfigValue(s string, i int) (string, int) {
	var b strings.Builder
	inQuote := false
	pendingSpace := 0
	started := false
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\n':
			return b.String(), i + 1
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			i++
			continue
		case !inQuote && (c == '#' || c == ';'):
			return b.String(), skipLine(s, i)
		case !inQuote && (c == ' ' || c == '\t'):
			if started {
				pendingSpace++
			}
			i++
			continue
		case c == '"':
			inQuote = !inQuote
			i++
			flushSpace(&b, &pendingSpace)
			started = true
			continue
		case c == '\\' && i+1 < len(s):
			n := s[i+1]
			i += 2
			switch n {
			case '\n':
				continue // line continuation
			case '\r':
				if i < len(s) && s[i] == '\n' {
					i++
				}
				continue
			case 'n':
				n = '\n'
			case 't':
				n = '\t'
			case 'b':
				n = '\b'
			}
			flushSpace(&b, &pendingSpace)
			b.WriteByte(n)
			started = true
			continue
		}
		flushSpace(&b, &pendingSpace)
		b.WriteByte(c)
		started = true
		i++
	}
	return b.String(), i
}

func flushSpace(b *strings.Builder, n *int) {
	for ; *n > 0; *n-- {
		b.WriteByte(' ')
	}
}
