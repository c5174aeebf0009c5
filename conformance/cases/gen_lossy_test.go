package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Lossy equality (TRAP-STR-EQUALITY): two different lone surrogates are two different
// JavaScript strings, and `===` keeps them apart. A port that holds or compares ids and cwds as
// its language's well-formed text (Rust's `JsString::to_string_lossy` or
// `String::from_utf16_lossy` before `==` or a `HashSet`, Go's `string(utf16.Decode(u))`,
// Python's `decode("utf-16", "replace")`) turns every lone surrogate into U+FFFD first, so
// "\ud800", "\udbff", "\udc00" and "\ufffd" are one id: it excludes a listed session as the
// agent's own, rejects a reference as a self reference, merges two references into one source
// (and counts them as one), and ranks a session "same directory" that is elsewhere. Found by a
// Rust port written from the spec: each of those four comparisons done on lossy strings passed
// every other fixed check, and diff's generated worlds never hold two distinct lone surrogates.

func lossyFiles() []gfile {
	hi, hi2, lo, lo2 := u(`\ud800`), u(`\udbff`), u(`\udc00`), u(`\udfff`)
	repl := "\ufffd"
	cand := func(name, reqs string, args ...any) gcase {
		return c(name, reqs, o(args...)).trap("TRAP-STR-EQUALITY")
	}
	candidates := []gcase{
		// Only the id that is exactly the agent's is its own session: the other three are listed.
		cand("self-lone-surrogate-others-listed", "SR-CAND-1 SR-STR-1",
			"world", world(sess(hi2), sess(lo), sess(repl), sess(hi)), "agent", agent(hi)),
		cand("self-replacement-character-lone-surrogates-listed", "SR-CAND-1 SR-STR-1",
			"world", world(sess(hi), sess(lo2), sess(repl)), "agent", agent(repl)),
		// With a query the same exclusion, before the filter.
		cand("self-lone-surrogate-others-listed-with-query", "SR-CAND-1 SR-CAND-8 SR-STR-1",
			"world", world(sess("x"+hi2), sess("x"+hi)), "agent", agent("x"+hi), "query", "x"),
		// Listed first, the look-alike must come last: after the same directory and after the
		// session without one.
		cand("cwd-other-lone-surrogate-is-elsewhere", "SR-CAND-2 SR-STR-1",
			"world", world(sess("alike", cwd("/r"+lo)), sess("none"), sess("same", cwd("/r"+hi))), "agent", agentIn("me", "/r"+hi)),
		cand("cwd-replacement-character-is-elsewhere", "SR-CAND-2 SR-STR-1",
			"world", world(sess("alike", cwd("/r"+repl)), sess("none"), sess("same", cwd("/r"+hi))), "agent", agentIn("me", "/r"+hi)),
	}
	src := func(id, text string) *wire.Object { return sess(id, events(userMsg(text))) }
	w := world(src(hi, "high"), src(hi2, "other high"), src(lo, "low"), src(lo2, "other low"), src(repl, "replacement"), src("me", "own"))
	prep := func(name, reqs string, ag string, rs []any) gcase {
		return c(name, reqs, o("world", w, "agent", agent(ag), "content", "x", "references", rs)).trap("TRAP-STR-EQUALITY")
	}
	prepare := []gcase{
		prep("self-other-lone-surrogate-is-a-source", "SR-PREP-2 SR-STR-1", hi, refs(ref(lo))),
		prep("self-lone-surrogate-replacement-is-a-source", "SR-PREP-2 SR-STR-1", repl, refs(ref(hi))),
		prep("lone-surrogates-are-two-sources", "SR-PREP-3 SR-STR-1", "me", refs(refL(hi, "first"), refL(lo, "second"))),
		prep("lone-surrogate-and-replacement-are-two-sources", "SR-PREP-3 SR-STR-1", "me", refs(refL(repl, "first"), refL(hi2, "second"))),
		// Four ids that a lossy key makes one: counted apart, they are too many.
		prep("four-lone-surrogates-count-apart", "SR-PREP-4 SR-STR-1", "me", refs(ref(hi), ref(hi2), ref(lo), ref(lo2))),
	}
	return []gfile{
		{"traps-lossy-candidates.yaml", protocol.OpCandidates, candidates},
		{"traps-lossy-prepare.yaml", protocol.OpPrepare, prepare},
	}
}
