package cases_test

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// The fixtures that kill the mutants StrykerJS made of the published package and the kit's
// other checks let survive (conformance/adapters/node-upstream/stryker.sh): one file per op,
// named *-stryker.yaml. Each case is named after the input partition it adds, and says in a
// comment which kind of mutant it kills.

func strykerFiles() []gfile {
	return []gfile{uriEncodeStryker(), uriDecodeStryker(), mentionFormatStryker(), mentionParseStryker(), candidatesStryker(), prepareStryker(), retentionStryker()}
}

// Wrong-typed and absent arguments: the seed fails with no code (a TypeError), and a check
// that the contract's input is a string must not turn into a contract error or a success.
func uriEncodeStryker() gfile {
	return gfile{"uri-encode-stryker.yaml", protocol.OpURIEncode, []gcase{
		// JSON.stringify takes any value: a number or null encodes its JSON text.
		c("number-id", "SR-URI-1", o("sessionId", 42)),
		c("null-id", "SR-URI-1", o("sessionId", nil)),
		// A port that accepts other values encodes them as JSON.stringify writes them (one that
		// does not answers ADAPTER_UNSUPPORTED: not covered): integral and negative-zero
		// numbers without a fraction, arrays without spaces, integer-like keys first.
		c("integral-float-id", "SR-URI-1", o("sessionId", num("2.0"))).trap("TRAP-JSON-NUMBERS"),
		c("negative-zero-id", "SR-URI-1", o("sessionId", num("-0"))).trap("TRAP-TYPE-NEGATIVE-ZERO"),
		c("boolean-id", "SR-URI-1", o("sessionId", true)),
		c("array-id", "SR-URI-1", o("sessionId", a(1, "a", nil, true))).trap("TRAP-JSON-SEPARATORS"),
		c("object-id-integer-keys-first", "SR-URI-1", o("sessionId", o("b", 1, "1", 2))).trap("TRAP-JSON-KEY-ORDER"),
		c("nested-object-id", "SR-URI-1", o("sessionId", o("a", a(num("1.5e300"), o("c", ""))))).trap("TRAP-JSON-NUMBERS", "TRAP-JSON-SEPARATORS"),
		c("absent-id", "SR-URI-1", o()),
	}}
}

func uriDecodeStryker() gfile {
	return gfile{"uri-decode-stryker.yaml", protocol.OpURIDecode, []gcase{
		c("number-uri", "SR-URI-4", o("uri", 42)),
		c("null-uri", "SR-URI-4", o("uri", nil)),
		c("array-uri", "SR-URI-4", o("uri", a(enc("a")))),
		c("absent-uri", "SR-URI-4", o()),
	}}
}

func mentionFormatStryker() gfile {
	return gfile{"mention-format-stryker.yaml", protocol.OpMentionFormat, []gcase{
		c("numeric-label", "SR-MENTION-2", o("sessionId", "a", "label", 5)),
		c("numeric-id-without-label", "SR-MENTION-2", o("sessionId", 5)),
		// With a string label, a session id of another type is encoded as uri.encode does.
		c("array-id-with-label", "SR-MENTION-1 SR-URI-1", o("sessionId", a(1), "label", "x")),
	}}
}

func mentionParseStryker() gfile {
	return gfile{"mention-parse-stryker.yaml", protocol.OpMentionParse, []gcase{
		c("numeric-text", "SR-MENTION-9", o("text", 5)),
		c("absent-text", "SR-MENTION-9", o()),
	}}
}

func candidatesStryker() gfile {
	me := agentIn("me", "/repo")
	w := world(sess("a", cwd("/repo"), title("A")), sess("b"))
	return gfile{"candidates-stryker.yaml", protocol.OpCandidates, []gcase{
		// A signal nothing aborts: the listing completes under it (settleWithCancellation's
		// resolve path; an abort check inverted or made unconditional).
		c("live-signal-lists", "SR-CANCEL-8 SR-CAND-1", o("world", w, "agent", me, "cancel", "never")),
		c("live-signal-query", "SR-CANCEL-8 SR-CAND-8", o("world", w, "agent", me, "query", "a", "cancel", "never")),
		// The listing call itself aborts the signal: the service sees it already aborted when
		// it waits (settleWithCancellation's immediate check).
		c("aborted-by-the-listing-call", "SR-CANCEL-6", o("world", w, "agent", me, "cancel", "at-call")),
		// An aborted listing must not start: the failed candidates reports that it listed
		// nothing (the abort check before listSessions; the listing's own abort check would
		// still answer SESSION_REFERENCE_CANCELLED).
		c("aborted-before-listing-lists-nothing", "SR-CANCEL-5", o("world", w, "agent", me, "cancel", "before")),
		c("aborted-before-failing-listing-lists-nothing", "SR-CANCEL-5 SR-ERR-4", o("world", o("sessions", a(), "listError", "index broken"), "agent", me, "cancel", "before")),
		c("listing-failure-listed-once", "SR-CAND-10 SR-QUERY-1", o("world", o("sessions", a(), "listError", "index broken"), "agent", me)),
	}}
}

func prepareStryker() gfile {
	me := agentIn("me", "/repo")
	w := world(
		sess("a", cwd("/a"), events(userMsg("hello from a"), asstMsg("hi a"))),
		sess("b", events(userMsg("hello from b"))),
	)
	return gfile{"prepare-stryker.yaml", protocol.OpPrepare, []gcase{
		c("live-signal-prepares", "SR-CANCEL-8 SR-PREP-10", o("world", w, "agent", me, "content", "x", "references", refs(ref("a"), ref("b")), "cancel", "never")),
		c("aborted-by-the-first-read", "SR-CANCEL-4", o("world", w, "agent", me, "content", "x", "references", refs(ref("a")), "cancel", "at-call")),
		c("aborted-by-the-first-of-two-reads", "SR-CANCEL-4 SR-PREP-6", o("world", w, "agent", me, "content", "x", "references", refs(ref("b"), ref("a")), "cancel", "at-call")),
		// A duplicate of a valid reference is still checked: its bad label fails the whole
		// preparation, although the source it names was already accepted.
		c("invalid-duplicate-after-valid", "SR-PREP-1 SR-PREP-3", o("world", w, "agent", me, "content", "x", "references", a(ref("a"), o("sessionId", "a", "label", 5)))),
		c("invalid-label-duplicate-after-valid", "SR-PREP-1 SR-PREP-3", o("world", w, "agent", me, "content", "x", "references", a(refL("a", "A"), o("sessionId", "a", "label", nil)))),
		// Event kinds outside the session-query contract fail the preparation with no code,
		// wherever they stand (SR-QUERY-3): an unknown type after a valid message, a
		// user/message without a source.
		c("unknown-event-kind-after-messages", "SR-QUERY-3", o("world", world(sess("s", events(userMsg("u"),
			o("type", "system/notice", "data", o("text", "n"))))), "agent", me, "content", "x", "references", refs(ref("s")))),
		c("user-message-without-source", "SR-QUERY-3", o("world", world(sess("s", events(
			o("type", "user/message", "data", o("role", "user", "content", a(textBlock("no source"))))))), "agent", me, "content", "x", "references", refs(ref("s")))),
		// A direct user message whose text looks like an earlier context message is projected
		// as text like any other (only the source kind marks a context message), tag-safe.
		c("user-text-that-looks-like-context", "SR-PROJ-1 SR-PROJ-6 SR-PROMPT-2", o("world", world(sess("s", events(
			userMsg("## Referenced sessions\n\n<referenced-sessions>\n[{\"sessionId\":\"x\"}]\n</referenced-sessions>")))), "agent", me, "content", "x", "references", refs(ref("s")))),
		// kind "plugin" is half of the checkpoint marker: plugin "compact" under another
		// kind is no checkpoint (and a kind other than user is not projected at all).
		c("compact-plugin-of-another-kind", "SR-PROJ-1 SR-PROJ-3", o("world", world(sess("s", events(
			sourcedMsg("not a checkpoint", o("kind", "tool", "plugin", "compact")),
			sourcedMsg("user with a plugin key", o("kind", "user", "plugin", "compact")),
			userMsg("u")))), "agent", me, "content", "x", "references", refs(ref("s")))),
	}}
}

func retentionStryker() gfile {
	me := agent("me")
	one := func(name, reqs string, budget int, ev ...*wire.Object) gcase {
		return c(name, reqs, o("world", world(sess("s", events(ev...))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", budget)))
	}
	var cs []gcase
	// A checkpoint as the newest message: the older messages go first, then the checkpoint
	// itself is truncated (it is never dropped, being both).
	three := fixedSize("s", "s", "user", "assistant", "user")
	cs = append(cs,
		one("checkpoint-is-the-newest", "SR-RET-2 SR-RET-3 SR-RET-4", fixedSize("s", "s", "user")+55,
			userMsg(strings.Repeat("old ", 10)), asstMsg(strings.Repeat("reply ", 5)), checkpointMsg(strings.Repeat("summary ", 8))),
		one("checkpoint-is-the-newest-fits-after-drops", "SR-RET-2 SR-RET-3 SR-RET-10", three+30,
			userMsg(strings.Repeat("old ", 10)), asstMsg("ok"), checkpointMsg("summary")),
	)
	// Text whose JSON escapes are longer than its bytes ("<" is 6 bytes in tag-safe JSON, a
	// quote or a line feed 2): the first truncation target, computed from raw bytes, leaves
	// the snapshot over budget, and the loop truncates again from the original text with a
	// lower target, at every cut the escapes make possible.
	escapes := strings.Repeat("<\"\n", 30) + "end"
	oneFixed := fixedSize("s", "s", "user")
	for extra := 250; extra < 303; extra += 4 {
		cs = append(cs, one(fmt.Sprintf("escapes-at-the-cut-budget-plus-%03d", extra), "SR-RET-4 SR-RET-6 SR-PROMPT-2", oneFixed+extra, userMsg(escapes)))
	}
	cs = append(cs, one("escapes-at-the-cut", "SR-RET-4 SR-RET-6 SR-PROMPT-2", oneFixed+50, userMsg(strings.Repeat("<", 40))))
	// The head cut's UTF-8 classes (trimTrailingPartialUtf8): a text whose first character is
	// multi-byte (the cut walks back to index 0), and 2-, 3- (lead E0 and above) and 4-byte
	// characters complete or cut at the head's end. Budgets found by searching, for each
	// lead-byte comparison of the retainer changed by one, the inputs where the seed's answer
	// changes; a window around each keeps them meaningful if the fixed size moves.
	cuts := []struct {
		name, text string
		budget     int
	}{
		{"first-character-multibyte", "😀" + strings.Repeat("€", 30), 143},
		{"two-byte-then-four-byte", "ééé" + strings.Repeat("😀", 20), 144},
		{"three-byte-lead-e0", "a" + strings.Repeat("\u0800", 30), 144},
		{"three-byte-leads-e2-and-e0", strings.Repeat("€\u0800", 12), 143},
		// A candidate exactly as long as the target fits (<=, not <).
		{"candidate-exactly-at-target", strings.Repeat("€"+u(`\ud800`), 12), 175},
	}
	for _, cut := range cuts {
		for d := -2; d <= 2; d++ {
			cs = append(cs, one(fmt.Sprintf("head-cut-%s-budget-%d", cut.name, cut.budget+d), "SR-RET-6 SR-RET-7", cut.budget+d, userMsg(cut.text)))
		}
	}
	return gfile{"retention-stryker.yaml", protocol.OpPrepare, cs}
}
