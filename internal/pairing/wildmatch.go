package pairing

// wildmatch matches text against a git wildcard pattern (gitignore and
// gitattributes syntax): "?" and "*" never match "/" when pathname is set, "**"
// between slashes (or at either end) matches any number of folders, "[...]" is a
// class ("[!...]" or "[^...]" negated, ranges, [:alpha:] and the other POSIX
// names), and a backslash escapes the next character. Memoised, so a hostile
// pattern costs at most len(pattern)·len(text) steps.
func wildmatch(pattern, text string, pathname bool) bool {
	m := matcher{p: pattern, t: text, pathname: pathname, memo: map[[2]int]bool{}}
	return m.match(0, 0)
}

type matcher struct {
	p, t     string
	pathname bool
	memo     map[[2]int]bool
}

func (m *matcher) match(pi, ti int) bool {
	key := [2]int{pi, ti}
	if v, ok := m.memo[key]; ok {
		return v
	}
	v := m.step(pi, ti)
	m.memo[key] = v
	return v
}

func (m *matcher) step(pi, ti int) bool {
	p, t := m.p, m.t
	for pi < len(p) {
		c := p[pi]
		switch c {
		case '?':
			if ti >= len(t) || (m.pathname && t[ti] == '/') {
				return false
			}
			pi++
			ti++
		case '*':
			double := pi+1 < len(p) && p[pi+1] == '*'
			if double && m.pathname {
				start := pi
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				atStart := start == 0 || p[start-1] == '/'
				atEnd := pi == len(p) || p[pi] == '/'
				if atStart && atEnd {
					if pi == len(p) {
						return true // trailing "**" (or the whole pattern): everything
					}
					// "**/": zero or more leading folders.
					if m.match(pi+1, ti) {
						return true
					}
					for k := ti; k < len(t); k++ {
						if t[k] == '/' && m.match(pi+1, k+1) {
							return true
						}
					}
					return false
				}
				// "**" not between slashes acts as a single "*".
				return m.star(pi, ti)
			}
			for pi < len(p) && p[pi] == '*' {
				pi++
			}
			return m.star(pi, ti)
		case '[':
			if ti >= len(t) || (m.pathname && t[ti] == '/') {
				return false
			}
			ok, next, valid := matchClass(p, pi, t[ti])
			if !valid {
				// An unclosed "[" matches itself.
				if t[ti] != '[' {
					return false
				}
				pi++
				ti++
				continue
			}
			if !ok {
				return false
			}
			pi = next
			ti++
		case '\\':
			if pi+1 < len(p) {
				pi++
			}
			fallthrough
		default:
			if ti >= len(t) || t[ti] != p[pi] {
				return false
			}
			pi++
			ti++
		}
	}
	return ti == len(t)
}

// star matches a single "*" (already consumed) followed by p[pi:].
func (m *matcher) star(pi, ti int) bool {
	for k := ti; k <= len(m.t); k++ {
		if m.match(pi, k) {
			return true
		}
		if k < len(m.t) && m.pathname && m.t[k] == '/' {
			return false
		}
	}
	return false
}

// matchClass matches c against the class starting at p[i] == '['. It returns
// whether c matched, the index after the class, and whether the class was closed.
func matchClass(p string, i int, c byte) (matched bool, next int, valid bool) {
	i++
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate = true
		i++
	}
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return matched != negate, i + 1, true
		}
		first = false
		if p[i] == '[' && i+1 < len(p) && p[i+1] == ':' {
			if end := indexFrom(p, i+2, ":]"); end >= 0 {
				if posixClass(p[i+2:end], c) {
					matched = true
				}
				i = end + 2
				continue
			}
		}
		lo := p[i]
		if lo == '\\' && i+1 < len(p) {
			i++
			lo = p[i]
		}
		i++
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi = p[i+1]
			i += 2
			if hi == '\\' && i < len(p) {
				hi = p[i]
				i++
			}
		}
		if lo <= c && c <= hi {
			matched = true
		}
	}
	return false, 0, false
}

func indexFrom(s string, from int, sub string) int {
	for k := from; k+len(sub) <= len(s); k++ {
		if s[k:k+len(sub)] == sub {
			return k
		}
	}
	return -1
}

func posixClass(name string, c byte) bool {
	switch name {
	case "alnum":
		return isAlnum(c)
	case "alpha":
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	case "blank":
		return c == ' ' || c == '\t'
	case "cntrl":
		return c < 0x20 || c == 0x7f
	case "digit":
		return c >= '0' && c <= '9'
	case "graph":
		return c > 0x20 && c < 0x7f
	case "lower":
		return c >= 'a' && c <= 'z'
	case "print":
		return c >= 0x20 && c < 0x7f
	case "punct":
		return c > 0x20 && c < 0x7f && !isAlnum(c)
	case "space":
		return c == ' ' || (c >= '\t' && c <= '\r')
	case "upper":
		return c >= 'A' && c <= 'Z'
	case "xdigit":
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	return false
}
