// Package tagexpr matches the tag expressions that select checks across the runner's parts,
// in godog's syntax, so one --tags selects scenarios, fixture cases and properties alike.
package tagexpr

import "strings"

// Match reports whether tags satisfy expr: alternatives separated by ",", each a conjunction
// of "@tag" or "~@tag" (not) terms joined by "&&". Tags are compared without their "@", which
// is optional on both sides. The empty expression matches everything.
func Match(expr string, tags []string) bool {
	if strings.TrimSpace(expr) == "" {
		return true
	}
	has := func(t string) bool {
		for _, x := range tags {
			if strings.TrimPrefix(x, "@") == t {
				return true
			}
		}
		return false
	}
	for _, alt := range strings.Split(expr, ",") {
		ok := strings.TrimSpace(alt) != ""
		for _, term := range strings.Split(alt, "&&") {
			term = strings.ReplaceAll(strings.TrimSpace(term), "@", "")
			if strings.HasPrefix(term, "~") {
				ok = ok && !has(term[1:])
			} else {
				ok = ok && term != "" && has(term)
			}
		}
		if ok {
			return true
		}
	}
	return false
}
