package cases_test

import (
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Found by porting the contract to C# from the spec alone (no C# kit existed): a first draft
// that compared ids and directories the way .NET code usually does, or kept a configured
// number in the int its API takes, passed every other fixed check.
//
// Identity: the contract compares ids and cwds code unit for code unit (===). A port that
// compares session ids case-insensitively (a HashSet with StringComparer.OrdinalIgnoreCase,
// usual for GUID-like ids), or normalizes directories as paths (case-insensitive on Windows
// and macOS, a trailing separator trimmed, "." and ".." resolved, blanks trimmed) treats
// two different sessions or directories as one: it excludes a listed session as the agent's
// own, rejects a reference as a self reference, collapses two references into one, or ranks
// a session "same directory" that is elsewhere.
//
// Newest by value: retention never drops the newest message, which the seed finds by
// position. A port that asks "is this the newest?" with value equality (C# records'
// ==, a Go struct's ==, a Python dataclass's ==) also keeps every older message equal to it
// in role and text, and drops another one instead, or none.
//
// Case-insensitive mention pattern: the seed's regular expression has no i flag, so only
// "dsh-session:" in lowercase starts a mention, and the payload class is ASCII letters,
// digits, "-" and "_". A port that compiles it ignoring case (RegexOptions.IgnoreCase,
// re.I, (?i)) parses "DSH-SESSION:ImEi" as a bare URI, and with Unicode case folding takes
// K (U+212A KELVIN SIGN), ſ (U+017F), İ and ı into the payload.
//
// Width: the configured candidateLimit and maxReferenceBytes are any positive safe integer
// (SR-CONF-5), and the config op echoes them, but a port may narrow them where it uses them
// (C#'s Enumerable.Take(int) and Encoding.GetByteCount's int, Java's int sizes): 2^31 wraps
// to a negative int32, 2^32 + k to k.

func identityFiles() []gfile {
	return []gfile{identityCandidates(), identityPrepare(), widthCandidates(), widthPrepare(), mentionCase()}
}

// identityCwds are directories that a path-aware or case-insensitive comparison takes for
// "/repo", each with the mistake that would.
var identityCwds = []struct{ name, dir string }{
	{"case-differs", "/Repo"},
	{"all-caps", "/REPO"},
	{"trailing-separator", "/repo/"},
	{"dot-segment", "/repo/."},
	{"dot-dot-segment", "/x/../repo"},
	{"doubled-separator", "//repo"},
	{"trailing-blank", "/repo "},
	{"backslash-separator", "\\repo"},
}

func identityCandidates() gfile {
	var cs []gcase
	cand := func(name, reqs string, w, ag *wire.Object, query string) gcase {
		args := o("world", w, "agent", ag)
		if query != "" {
			args.Set("query", query)
		}
		return c(name, reqs, args).trap("TRAP-STR-EQUALITY")
	}
	// Listed first, the look-alike must come last: after the same directory and after the
	// session without one.
	for _, d := range identityCwds {
		cs = append(cs, cand("cwd-"+d.name+"-is-elsewhere", "SR-CAND-2",
			world(sess("me"), sess("alike", cwd(d.dir)), sess("none"), sess("same", cwd("/repo"))), agentIn("me", "/repo"), ""))
	}
	cs = append(cs,
		// Windows drive letters: the same path to Windows, two directories to the contract.
		cand("cwd-drive-letter-case-is-elsewhere", "SR-CAND-2",
			world(sess("me"), sess("alike", cwd("c:\\Repo")), sess("none"), sess("same", cwd("C:\\Repo"))), agentIn("me", "C:\\Repo"), ""),
		// With a query the ranking is the same, after the filter.
		cand("cwd-case-differs-is-elsewhere-with-query", "SR-CAND-2 SR-CAND-8",
			world(sess("me"), sess("alike-r", cwd("/Repo")), sess("none-r"), sess("same-r", cwd("/repo"))), agentIn("me", "/repo"), "-r"),
		// Only the id that is exactly the agent's is its own session.
		cand("self-id-case-differs-is-listed", "SR-CAND-1",
			world(sess("ME"), sess("Me"), sess("me"), sess("x")), agent("me"), ""),
		cand("self-guid-case-differs-is-listed", "SR-CAND-1",
			world(sess("0F8FAD5B-D9CB-469F-A165-70867728950E"), sess("0f8fad5b-d9cb-469f-a165-70867728950e")), agent("0f8fad5b-d9cb-469f-a165-70867728950e"), ""),
		// Two ids that differ in case are two sessions, and both titles are read.
		cand("ids-differing-in-case-are-two-sessions", "SR-CAND-1 SR-CAND-13",
			world(sess("a", title("lower")), sess("A", title("upper")), sess("b")), agent("me"), ""),
	)
	return gfile{"traps-identity-candidates.yaml", protocol.OpCandidates, cs}
}

func identityPrepare() gfile {
	w := world(
		sess("me", events(userMsg("own"))),
		sess("ME", events(userMsg("upper"))),
		sess("a", events(userMsg("lower a"))),
		sess("A", events(userMsg("upper A"))),
		sess("0F8FAD5B-D9CB-469F-A165-70867728950E", events(userMsg("guid upper"))),
		sess("0f8fad5b-d9cb-469f-a165-70867728950e", events(userMsg("guid lower"))),
	)
	prep := func(name, reqs string, ag *wire.Object, rs []any) gcase {
		return c(name, reqs, o("world", w, "agent", ag, "content", "x", "references", rs)).trap("TRAP-STR-EQUALITY")
	}
	return gfile{"traps-identity-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("self-id-case-differs-is-a-source", "SR-PREP-2", agent("me"), refs(ref("ME"))),
		prep("self-guid-case-differs-is-a-source", "SR-PREP-2", agent("0f8fad5b-d9cb-469f-a165-70867728950e"), refs(ref("0F8FAD5B-D9CB-469F-A165-70867728950E"))),
		prep("ids-differing-in-case-are-two-sources", "SR-PREP-3", agent("me"), refs(refL("a", "first"), refL("A", "second"))),
		// Four ids that fold to two: a case-insensitive dedup keeps two and passes the count.
		prep("ids-differing-in-case-count-apart", "SR-PREP-4", agent("x"), refs(ref("a"), ref("A"), ref("me"), ref("ME"))),
		newestByValue("oldest-equal-to-newest-is-dropped",
			// Room for the last two: the oldest, equal to the newest, is the one dropped.
			fixedSize("s", "s", "assistant", "user")+len("other")+len("same"), userMsg("same"), asstMsg("other"), userMsg("same")),
		newestByValue("older-twin-of-newest-is-dropped",
			fixedSize("s", "s", "user")+len("dup"), userMsg("dup"), userMsg("dup")),
		newestByValue("twins-before-newest-dropped-in-order",
			fixedSize("s", "s", "user", "assistant")+len("dup")+len("end"), userMsg("dup"), userMsg("dup"), asstMsg("end"), userMsg("dup"), asstMsg("end")),
	}}
}

// newestByValue is a prepare of one source whose surface holds ev, in a budget of budget bytes.
func newestByValue(name string, budget int, ev ...*wire.Object) gcase {
	return c(name, "SR-RET-2 SR-RET-3", o("world", world(sess("s", events(ev...))), "agent", agent("me"), "content", "x",
		"references", refs(ref("s")), "config", o("maxReferenceBytes", budget))).trap("TRAP-ORDER-NEWEST-BY-VALUE")
}

func mentionCase() gfile {
	p := func(name, reqs, text string) gcase {
		return c(name, reqs, o("text", text)).trap("TRAP-RE-IGNORECASE")
	}
	return gfile{"traps-mention-case.yaml", protocol.OpMentionParse, []gcase{
		p("scheme-uppercase-bare-is-text", "SR-MENTION-6 SR-MENTION-9", "see DSH-SESSION:ImEi"),
		p("scheme-mixed-case-bare-is-text", "SR-MENTION-6 SR-MENTION-9", "Dsh-Session:ImEi and dsh-SESSION:ImEi"),
		p("scheme-uppercase-markdown-is-text", "SR-MENTION-3 SR-MENTION-9", "@[x](DSH-SESSION:ImEi)"),
		p("scheme-title-case-markdown-then-bare", "SR-MENTION-3 SR-MENTION-6", "@[x](Dsh-session:ImEi) dsh-session:ImEi"),
		p("kelvin-sign-ends-bare-payload", "SR-MENTION-6", "dsh-session:ImEi\u212a"),
		// U+017F, U+0130 and U+0131 are traps-mention's bare-payload-ends-before-… cases.
		// A hand-written scanner that finds the scheme or "@[" with .NET's culture-sensitive
		// IndexOf(string) or StartsWith(string) (ICU, .NET 5+) skips the characters ICU
		// collation ignores: a soft hyphen or a ZWJ inside them still "matches".
		c("soft-hyphens-inside-scheme-are-text", "SR-MENTION-6 SR-MENTION-9", o("text", "dsh-\u00ad\u00adsession:ImEi")).trap("TRAP-STR-EQUALITY"),
		c("zwj-before-scheme-colon-is-text", "SR-MENTION-6 SR-MENTION-9", o("text", "see dsh-session\u200d:ImEi")).trap("TRAP-STR-EQUALITY"),
		c("soft-hyphen-inside-at-bracket", "SR-MENTION-3 SR-MENTION-8", o("text", "@\u00ad[x](dsh-session:ImEi)")).trap("TRAP-STR-EQUALITY"),
		c("zwj-between-bracket-and-paren", "SR-MENTION-3 SR-MENTION-8", o("text", "@[x]\u200d(dsh-session:ImEi)")).trap("TRAP-STR-EQUALITY"),
	}}
}

// Integers at the widths a port narrows to: 2^31 (a negative int32), 2^32 + k (k as int32),
// 2^53 - 1 (the largest safe integer, beyond int32 and exact in a double).
const (
	pow31    = 2147483648
	pow32    = 4294967296
	maxSafe  = 9007199254740991
	pow31Sub = "2-pow-31"
)

func widthCandidates() gfile {
	w := world(sess("me"), sess("a", cwd("/r")), sess("b"), sess("c", cwd("/r")), sess("d", title("query hit")))
	cand := func(name string, limit float64, query string) gcase {
		args := o("world", w, "agent", agentIn("me", "/r"), "config", o("candidateLimit", limit))
		if query != "" {
			args.Set("query", query)
		}
		return c(name, "SR-CONF-5 SR-CAND-3", args).trap("TRAP-TYPE-SAFE-INTEGER")
	}
	return gfile{"traps-width-candidates.yaml", protocol.OpCandidates, []gcase{
		cand("configured-limit-"+pow31Sub, pow31, ""),
		cand("configured-limit-2-pow-32-plus-1", pow32+1, ""),
		cand("configured-limit-2-pow-32-plus-2", pow32+2, ""),
		cand("configured-limit-max-safe", maxSafe, ""),
		cand("configured-limit-2-pow-32-plus-1-with-query", pow32+1, "a"),
	}}
}

func widthPrepare() gfile {
	long := strings.Repeat("0123456789", 30)
	oneFixed := fixedSize("s", "s", "user")
	w := world(sess("s", events(userMsg(long))))
	prep := func(name string, budget float64) gcase {
		return c(name, "SR-CONF-5 SR-RET-1", o("world", w, "agent", agent("me"), "content", "x", "references", refs(ref("s")),
			"config", o("maxReferenceBytes", budget))).trap("TRAP-TYPE-SAFE-INTEGER")
	}
	return gfile{"traps-width-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("configured-budget-"+pow31Sub, pow31),
		// As an int32 this budget is the snapshot's fixed part plus 100 bytes: the text
		// would be cut.
		prep("configured-budget-2-pow-32-plus-room-for-a-cut", float64(pow32+oneFixed+100)),
		prep("configured-budget-2-pow-32-plus-1", pow32+1),
		prep("configured-budget-max-safe", maxSafe),
	}}
}
