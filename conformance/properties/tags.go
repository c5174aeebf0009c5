package properties

import "strings"

// MatchTags reports whether tags satisfy expr, a tag expression in godog's syntax (the one
// the features and fixtures use, so one --tags selects across parts): alternatives separated
// by ",", each a conjunction of "@tag" or "~@tag" terms joined by "&&". The empty expression
// matches everything. Tags are compared without their "@".
func MatchTags(expr string, tags []string) bool {
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
			if neg := strings.HasPrefix(term, "~"); neg {
				ok = ok && !has(term[1:])
			} else {
				ok = ok && has(term)
			}
		}
		if ok {
			return true
		}
	}
	return false
}
