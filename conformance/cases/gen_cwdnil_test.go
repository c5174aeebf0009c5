package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Found by porting the contract to Ruby from the spec alone (TRAP-TYPE-NULL-ABSENT): a rank
// written session.cwd == agent.cwd.to_s (Ruby's nil.to_s is "", the idiom for "a string or
// nothing") passed every fixed check. It ranks a session whose cwd is "" first for an agent
// without a cwd, where the seed ranks it last (the agent has no cwd, so nothing is in its
// directory; the session has one, so it ranks after every session without). The fixed checks
// had a cwd "" only beside an agent that has a cwd.

func cwdNilFiles() []gfile {
	cand := func(name string, args map[string]any) gcase {
		a := o("world", args["world"], "agent", args["agent"])
		if q, ok := args["query"]; ok {
			a.Set("query", q)
		}
		return c(name, "SR-CAND-2", a).trap("TRAP-TYPE-NULL-ABSENT")
	}
	return []gfile{{"traps-cwd-absent-candidates.yaml", protocol.OpCandidates, []gcase{
		cand("agent-without-cwd-ranks-empty-cwd-last", map[string]any{
			"world": world(sess("blank", cwd("")), sess("none"), sess("elsewhere", cwd("/x"))), "agent": agent("me")}),
		cand("agent-without-cwd-ranks-empty-cwd-last-with-query", map[string]any{
			"world": world(sess("blank-q", cwd("")), sess("none-q"), sess("elsewhere-q", cwd("/x"))), "agent": agent("me"), "query": "-q"}),
		cand("agent-without-cwd-keeps-empty-cwd-in-listing-order-among-others", map[string]any{
			"world": world(sess("elsewhere", cwd("/x")), sess("blank", cwd("")), sess("none")), "agent": agent("me")}),
	}}}
}
