package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// The query matches the lowercased id and cwd as it does the label (SR-CAND-8, SR-STR-4,
// SR-STR-5), but the case-mapping traps are checked on titles, and a session without a title
// is labelled by its id, so a port that lowercases only the label (ids taken as opaque, or
// as ASCII: Python's `needle in sid`, `sid.lower()`) passes every check there. Here each
// session has a title the query does not match, so only the field under test can keep it,
// and a decoy session with the same title shows the filter ran. Found by a Python port
// written from the spec that compared ids case-sensitively and passed all 1,657 checks.

func caseFieldFiles() []gfile {
	me := agentIn("me", "/home/me")
	field := func(name, reqs, kind, value, query string, traps ...string) gcase {
		var target *wire.Object
		if kind == "id" {
			target = sess(value, title("t"), created(1))
		} else {
			target = sess("s1", title("t"), cwd(value), created(1))
		}
		w := world(target, sess("s2", title("t"), cwd("/elsewhere"), created(2)))
		return c(kind+"-"+name, reqs, o("world", w, "agent", me, "query", query)).trap(traps...)
	}
	var cs []gcase
	for _, kind := range []string{"id", "cwd"} {
		cs = append(cs,
			field("ascii-capitals-lowercased", "SR-CAND-8 SR-STR-4", kind, "/Repo/ABC", "abc"),
			field("unicode-17-capital-lowercased", "SR-CAND-8 SR-STR-4", kind, "/x/\ua7cc\ua7da", "\ua7cd\ua7db", "TRAP-CASE-UNICODE-VERSION", "TRAP-CASE-ASCII-ONLY"),
			field("final-sigma", "SR-CAND-8 SR-STR-4", kind, "/x/ΟΔΟΣ", "οδος", "TRAP-CASE-FINAL-SIGMA-MISSING", "TRAP-CASE-ASCII-ONLY"),
			field("astral-capital-lowercased", "SR-CAND-8 SR-STR-4", kind, "/x/𐐀𐐁", "𐐨𐐩", "TRAP-CASE-CODE-UNIT", "TRAP-CASE-ASCII-ONLY"),
			field("lone-high-needle-in-pair", "SR-CAND-8 SR-STR-5", kind, "/x/😀", u(`\ud83d`), "TRAP-STR-SUBSTRING-UNIT"),
		)
	}
	return []gfile{{"traps-case-fields.yaml", protocol.OpCandidates, cs}}
}
