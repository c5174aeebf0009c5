package cases_test

import (
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Found by porting the contract to Go from the spec alone, through goport and
// conformancetest, and then certifying one-change variants of the passing port, each a
// default a Go author plausibly writes. Each of the variants below passed every other fixed
// check (only a property, on some seeds, told it apart):
//
// Zero value for absent: goport.Optional (or a *string) says whether the agent has a cwd, but
// a port that compares `h.CWD.Value == agent.CWD.Value` once the session has one takes an
// agent without a cwd for the directory "" (Go's zero value), and ranks a session whose cwd
// is "" as "same directory", first (TRAP-TYPE-NULL-ABSENT).
//
// Aborted before listing: a Go port that starts the listing in a goroutine and selects on it
// and ctx.Done(), without `ctx.Err()` first, answers SESSION_REFERENCE_CANCELLED as the seed
// does but calls listSessions or not as the scheduler decides (the seed never does: the
// error's `lists` is 0, SR-CANCEL-5). candidates-stryker's two aborted cases catch it only
// when the goroutine wins the race; more aborted listings (a query, a limit, an empty
// listing) give it more chances to (TRAP-ASYNC-CANCEL-POINTS). The synchronous form
// (`store.ListSessions(ctx)`, then `ctx.Err()`) lists every time and fails those cases.
//
// Blank messages skipped: projection skips a message whose text is "", and only that. A port
// that skips "empty" messages with `strings.TrimSpace(text) == ""` (or Python's
// `not text.strip()`, Java's isBlank()) drops whitespace-only messages, "\n" from two empty
// text blocks included (SR-PROJ-4) (TRAP-STR-TRIM).
//
// Longest by bytes: the message cut first is the longest in UTF-8 bytes (SR-RET-4). A port
// that measures every size in bytes but picks the longest message with
// utf8.RuneCountInString, len([]rune(s)) or a UTF-16 .length cuts another one when a
// multi-byte text is the longer in bytes and the shorter in characters
// (TRAP-STR-LENGTH-UNIT).

func goportFiles() []gfile {
	var files []gfile
	for _, f := range []gfile{
		{"traps-goport-candidates.yaml", protocol.OpCandidates, append(goportZeroCwd(), goportAbortedListing()...)},
		{"traps-goport-prepare.yaml", protocol.OpPrepare, append(goportBlank(), goportLongest()...)},
	} {
		if len(f.cases) > 0 {
			files = append(files, f)
		}
	}
	return files
}

// goportZeroCwd: without a query, listed first, the session whose cwd is "" must come after
// the one without a cwd, with the one elsewhere.
func goportZeroCwd() []gcase {
	me := agent("me")
	zero := world(sess("empty-cwd", cwd("")), sess("no-cwd"), sess("elsewhere", cwd("/r")))
	cand := func(name, reqs string, args *wire.Object) gcase {
		return c(name, reqs, args).trap("TRAP-TYPE-NULL-ABSENT")
	}
	return []gcase{
		cand("agent-without-cwd-ranks-empty-cwd-with-the-rest", "SR-CAND-2", o("world", zero, "agent", me)),
		cand("agent-without-cwd-empty-cwd-cut-by-limit", "SR-CAND-2 SR-CAND-3 SR-CAND-6", o("world", zero, "agent", me, "limit", 1)),
		cand("agent-without-cwd-empty-cwd-with-query", "SR-CAND-2 SR-CAND-12", o("world", zero, "agent", me, "query", "cwd", "limit", 1)),
		cand("agent-without-cwd-empty-cwd-among-many", "SR-CAND-2",
			o("world", world(sess("e1", cwd("")), sess("d1", cwd("/a")), sess("n1"), sess("e2", cwd("")), sess("n2")), "agent", me)),
	}
}

// goportAbortedListing: already aborted, CANCELLED with the listing never called (lists 0),
// whatever the listing, the query and the limit.
func goportAbortedListing() []gcase {
	me := agent("me")
	before := func(name string, w *wire.Object, extra ...any) gcase {
		return c("aborted-before-"+name+"-does-not-list", "SR-CANCEL-5 SR-ERR-4",
			o(append([]any{"world", w, "agent", me, "cancel", protocol.CancelBefore}, extra...)...)).trap("TRAP-ASYNC-CANCEL-POINTS")
	}
	listing := world(sess("a"), sess("b", cwd("/r")))
	failing := o("sessions", a(sess("a")), "listError", "index broken")
	return []gcase{
		before("listing-with-query", listing, "query", "a"),
		before("failing-listing-with-query", failing, "query", "a"),
		before("listing-with-limit", listing, "limit", 1),
		before("empty-listing", world()),
	}
}

// goportOne is a prepare of the one source "s" whose surface holds ev.
func goportOne(name, reqs string, ev []*wire.Object, extra ...any) gcase {
	return c(name, reqs, o(append([]any{"world", world(sess("s", events(ev...))), "agent", agent("me"), "content", "x",
		"references", refs(ref("s"))}, extra...)...))
}

// goportBlank: whitespace-only and padded texts, as a direct user message, an assistant
// message and a checkpoint, are each projected as they are.
func goportBlank() []gcase {
	var cs []gcase
	blanks := append([]struct{ name, text string }{
		{"newline", "\n"},
		{"crlf", "\r\n"},
		{"tab", "\t"},
		{"lone-no-break-space", "\u00a0"},
		{"lone-ideographic-space", "\u3000"},
		{"lone-line-separator", "\u2028"},
		{"lone-byte-order-mark", "\ufeff"},
	}, trimmed...)
	for _, b := range blanks {
		cs = append(cs, goportOne("blank-or-padded-"+b.name+"-projected", "SR-PROJ-4 SR-STR-1",
			[]*wire.Object{userMsg(b.text), asstMsg(b.text), checkpointMsg(b.text)}).trap("TRAP-STR-TRIM"))
	}
	return append(cs,
		goportOne("two-empty-user-blocks-are-a-newline", "SR-PROJ-4",
			[]*wire.Object{userBlocks(textBlock(""), textBlock(""))}).trap("TRAP-STR-TRIM"),
		goportOne("two-empty-assistant-blocks-are-a-newline", "SR-PROJ-4",
			[]*wire.Object{asstBlocks(textBlock(""), textBlock("")), userMsg("end")}).trap("TRAP-STR-TRIM"),
		goportOne("blank-message-is-the-newest-kept", "SR-PROJ-4 SR-RET-2 SR-RET-3",
			[]*wire.Object{userMsg("older"), asstMsg(" ")}, "config", o("maxReferenceBytes", fixedSize("s", "s", "assistant")+1)).trap("TRAP-STR-TRIM"),
	)
}

// goportLongest: two checkpoints (never dropped) one byte over the budget. The longer in
// UTF-8 bytes is cut (to "": the notice does not fit), where it is the shorter in code
// points and UTF-16 units, or ties in bytes and comes first.
func goportLongest() []gcase {
	longest := func(name string, first, second string) gcase {
		budget := fixedSize("s", "s", "user", "user") + len(first) + len(second) - 1
		return goportOne("longest-in-bytes-"+name, "SR-RET-4 SR-STR-3",
			[]*wire.Object{checkpointMsg(first), checkpointMsg(second)}, "config", o("maxReferenceBytes", budget)).trap("TRAP-STR-LENGTH-UNIT")
	}
	return []gcase{
		longest("two-byte-letters-before-ascii", strings.Repeat("é", 4), "abcdef"),
		longest("ascii-before-two-byte-letters", "abcdef", strings.Repeat("é", 4)),
		longest("astral-before-ascii", strings.Repeat("😀", 2), "abcde"),
		longest("ascii-before-astral", "abcde", strings.Repeat("😀", 2)),
		longest("three-byte-before-ascii", strings.Repeat("€", 3), "abcdefgh"),
		longest("byte-tie-first-is-multibyte", "é", "ab"),
		longest("combining-mark-before-ascii", "e\u0301e\u0301", "abcde"),
	}
}
