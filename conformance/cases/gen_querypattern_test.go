package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// The query is a substring, never a pattern (TRAP-STR-QUERY-PATTERN): the seed tests
// `field.toLocaleLowerCase().includes(needle)` (SR-CAND-8). Found by porting the contract to
// TypeScript from the spec alone: a filter written `id.toLowerCase().match(needle)` passed
// every other fixed check, although String.prototype.match and search turn a string argument
// into a RegExp (Ruby's String#match? does the same; Python's re.search, Java's
// String.matches and Go's regexp.MatchString take the query as a pattern by design). No fixed
// check had a query with a regular expression's metacharacters.

// patternQueries are queries whose regular expression matches where the literal text does
// not (the second session), or is not a valid pattern at all; literal contains the query as
// it is (the first session, the only one the contract keeps).
var patternQueries = []struct{ name, query, literal, patternOnly string }{
	{"dot", "1.2", "v1.2", "v1x2"},
	{"plus", "a+b", "a+b", "aab"},
	{"star-matches-empty", "q*", "q*", "zz"},
	{"optional-matches-empty", "t?", "t?", "zz"},
	{"alternation", "x|y", "x|y", "y"},
	{"class", "[0]", "a[0]", "a0"},
	{"escape-class", "\\d", "c:\\dir", "v1"},
	{"anchor-end", "$5", "cost $5", "cost 5"},
	{"anchor-start", "^x", "a^x", "xa"},
	{"braces", "a{2}", "a{2}", "aa"},
	{"unclosed-group", "f(x", "f(x)", "fx"},
	{"lone-backslash", "\\", "c:\\", "c:"},
	{"unclosed-class", "[", "a[", "a"},
}

func queryPatternFiles() []gfile {
	var cs []gcase
	me := agentIn("me", "/home")
	cand := func(name string, w *wire.Object, query string) gcase {
		return c(name, "SR-CAND-8 SR-STR-5", o("world", w, "agent", me, "query", query)).trap("TRAP-STR-QUERY-PATTERN")
	}
	for _, q := range patternQueries {
		cs = append(cs,
			cand("id-"+q.name+"-is-literal", world(sess(q.literal), sess(q.patternOnly)), q.query),
			cand("cwd-"+q.name+"-is-literal", world(sess("s1", cwd("/"+q.literal)), sess("s2", cwd("/"+q.patternOnly))), q.query),
			cand("title-"+q.name+"-is-literal", world(sess("s1", title(q.literal)), sess("s2", title(q.patternOnly))), q.query),
		)
	}
	return []gfile{{"traps-query-pattern-candidates.yaml", protocol.OpCandidates, cs}}
}
