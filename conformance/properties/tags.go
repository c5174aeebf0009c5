package properties

import "github.com/sessionref-kit/sessionref-kit/conformance/tagexpr"

// MatchTags reports whether tags satisfy expr, in the syntax the features and fixtures use,
// so one --tags selects across parts: tagexpr.Match.
func MatchTags(expr string, tags []string) bool { return tagexpr.Match(expr, tags) }
