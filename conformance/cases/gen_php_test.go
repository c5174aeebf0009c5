package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Cases found by porting the contract to PHP 8.2 from the spec alone, with PHP's defaults:
// each class below passed every other fixed check in a PHP port that was otherwise
// conformant (mutants: conformance/mutants/port_php_test.go).

func phpFiles() []gfile {
	return []gfile{phpInfinityPrepare(), phpLooseCandidates(), phpLoosePrepare(), phpFalsyQuery(), phpUnescape(), phpFalsyText(), phpLooseTrue(), phpAssocContent()}
}

// A number that reads as ±Infinity (1e400) is written null by JSON.stringify: in the
// snapshot's capturedThroughSeq (SR-STR-6, SR-PROJ-7), and on the wire wherever the result
// carries it back (the content's deep copy, SR-PREP-8). (A candidate's createdAt would carry
// it too, but the protocol's schema requires a number there, so no case sends one.)
// PHP's json_encode fails on INF ("Inf and NaN cannot be JSON encoded"); the usual remedy,
// JSON_PARTIAL_OUTPUT_ON_ERROR, writes 0 in its place, and passed every other fixed check,
// as none carried an infinite number anywhere but a configured value or a limit
// (TRAP-JSON-NUMBERS; Python's json.dumps writes the non-JSON token Infinity there).
func phpInfinityPrepare() gfile {
	me := agent("me")
	seqWorld := func(seq any) *wire.Object {
		return world(sess("s", surf(o("capturedThroughSeq", seq, "events", a(userMsg("hello"))))))
	}
	prep := func(name, reqs string, w *wire.Object, content any, rs []any) gcase {
		return c(name, reqs, o("world", w, "agent", me, "content", content, "references", rs)).trap("TRAP-JSON-NUMBERS")
	}
	return gfile{"traps-php-infinity-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("seq-infinity-written-null", "SR-STR-6 SR-PROJ-7", seqWorld(inf), "x", refs(ref("s"))),
		prep("seq-minus-infinity-written-null", "SR-STR-6 SR-PROJ-7", seqWorld(minusInf), "x", refs(ref("s"))),
		prep("seq-infinity-uppercase-exponent", "SR-STR-6 SR-PROJ-7", seqWorld(wire.Number("1E+999")), "x", refs(ref("s"))),
		prep("content-infinity-copied-as-null", "SR-PREP-8", world(), a(inf, minusInf, o("k", inf)), refs()),
		prep("content-infinity-copied-as-null-with-a-source", "SR-PREP-8", seqWorld(1), o("n", inf), refs(ref("s"))),
	}}
}

// Ids and cwds are compared with === (SR-CAND-1, SR-CAND-2, SR-PREP-2): code unit for code
// unit. PHP's == compares two numeric strings as numbers ("10" == "1e1" == "010" == " 10" ==
// "10.0", "0" == "-0"), and a port that wrote == (or !=) for the self exclusion, the self
// reference or the cwd rank passed every other fixed check: no fixed check paired two
// distinct numeric strings there (TRAP-STR-EQUALITY; in_array and array_search without
// their strict flag do the same, and the dedup of traps-jsobject-prepare catches those).
func phpLooseCandidates() gfile {
	cand := func(name, reqs string, w, ag *wire.Object) gcase {
		return c(name, reqs, o("world", w, "agent", ag)).trap("TRAP-STR-EQUALITY")
	}
	numeric := world(sess("1e1"), sess("010"), sess("10.0"), sess(" 10"), sess("10 "), sess("+10"), sess("10"))
	zero := world(sess("-0"), sess("0.0"), sess("0e5"), sess("00"), sess("0"))
	ranked := world(sess("x", cwd("01")), sess("y"), sess("z", cwd("1.0")), sess("w", cwd("1")))
	return gfile{"traps-php-loose-equality-candidates.yaml", protocol.OpCandidates, []gcase{
		cand("numeric-ids-equal-as-numbers-are-listed", "SR-CAND-1", numeric, agent("10")),
		cand("zero-ids-equal-as-numbers-are-listed", "SR-CAND-1", zero, agent("0")),
		cand("numeric-cwds-equal-as-numbers-rank-elsewhere", "SR-CAND-2", ranked, agentIn("me", "1")),
		c("numeric-cwds-equal-as-numbers-with-query", "SR-CAND-2 SR-CAND-12",
			o("world", ranked, "agent", agentIn("me", "1"), "query", "1")).trap("TRAP-STR-EQUALITY"),
	}}
}

func phpLoosePrepare() gfile {
	w := world(sess("1e1", events(userMsg("from 1e1"))), sess("010", events(userMsg("from 010"))),
		sess("-0", events(userMsg("from -0"))), sess("0.0", events(userMsg("from 0.0"))))
	prep := func(name, reqs string, ag *wire.Object, rs []any) gcase {
		return c(name, reqs, o("world", w, "agent", ag, "content", "x", "references", rs)).trap("TRAP-STR-EQUALITY")
	}
	return gfile{"traps-php-loose-equality-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("numeric-id-equal-as-number-is-a-source", "SR-PREP-2", agent("10"), refs(ref("1e1"))),
		prep("numeric-ids-equal-as-numbers-are-sources", "SR-PREP-2 SR-PREP-3", agent("10"), refs(ref("1e1"), ref("010"))),
		prep("zero-ids-equal-as-numbers-are-sources", "SR-PREP-2 SR-PREP-3", agent("0"), refs(ref("-0"), ref("0.0"))),
		prep("numeric-source-before-the-self-reference", "SR-PREP-2", agent("10"), refs(ref("1e1"), ref("10"))),
	}}
}

// "0" is a query like any other (SR-CAND-8, SR-CAND-12): only "" lists without filtering.
// PHP's empty("0") and !"0" are true, so a port that tested the needle with empty($needle)
// (or if (!$needle)) listed every session for the query "0", or applied the limit before
// the filter, and passed every other fixed check: no fixed query was "0".
func phpFalsyQuery() gfile {
	w := world(sess("a", title("alpha")), sess("b0", title("beta")), sess("c", title("gamma 0")), sess("d", title("delta")))
	cand := func(name string, w *wire.Object, kv ...any) gcase {
		return c(name, "SR-CAND-7 SR-CAND-8 SR-CAND-12", o(append([]any{"world", w, "agent", agent("me")}, kv...)...)).trap("TRAP-TYPE-FALSY-STRING")
	}
	return gfile{"traps-php-falsy-query-candidates.yaml", protocol.OpCandidates, []gcase{
		cand("query-zero-filters", w, "query", "0"),
		cand("query-zero-filters-before-the-limit", w, "query", "0", "limit", 1),
		cand("query-zero-matches-nothing", world(sess("a"), sess("b")), "query", "0"),
		cand("query-zero-in-an-id-filters", world(sess("a"), sess("s0"), sess("b")), "query", "0", "limit", 1),
	}}
}

// A Markdown label is unescaped by dropping each escaping backslash and keeping the code
// unit after it (SR-MENTION-4): "\\0" is "0", "\\n" is "n", "\\x41" is "x41". PHP's
// stripslashes() does that except for "\\0", which it turns into NUL (addslashes' inverse),
// and passed every other fixed check, as no fixed label escaped a 0; stripcslashes() also
// reads C escapes ("\\n" a newline, "\\x41" "A", "\\101" "A") (TRAP-RE-UNESCAPE).
func phpUnescape() gfile {
	p := func(name, text string) gcase {
		return c(name, "SR-MENTION-4", o("text", text)).trap("TRAP-RE-UNESCAPE")
	}
	return gfile{"traps-php-unescape-mention-parse.yaml", protocol.OpMentionParse, []gcase{
		p("escaped-zero-is-zero", `@[a\0b](dsh-session:ImEi)`),
		p("escaped-zero-alone", `@[\0](dsh-session:ImEi)`),
		p("escaped-backslash-then-zero", `@[\\0](dsh-session:ImEi)`),
		p("escaped-backslash-then-escaped-zero", `@[\\\0](dsh-session:ImEi)`),
		p("escaped-zero-outside-a-label-kept", `x\0 @[\0\00](dsh-session:ImEi) y\0`),
		p("escaped-c-letters-are-letters", `@[\n\t\r\a\b\f\v\e](dsh-session:ImEi)`),
		p("escaped-hex-is-text", `@[\x41\x7e](dsh-session:ImEi)`),
		p("escaped-octal-is-text", `@[\101\060\1](dsh-session:ImEi)`),
		p("escaped-quotes-are-quotes", `@[\'\"](dsh-session:ImEi)`),
	}}
}

// Only "" is an empty text (SR-PROJ-4), and only a missing source breaks the query contract
// (SR-QUERY-3): a source that is a string, number, boolean or array has no kind and its
// message is skipped (SR-PROJ-1). A PHP port that kept a message when if ($text), or failed
// on if (!$source), skipped messages whose text is "0" and failed on a source "", "0", 0,
// false or [], and passed every other fixed check (TRAP-TYPE-FALSY-STRING).
func phpFalsyText() gfile {
	me := agent("me")
	prep := func(name, reqs string, evs ...*wire.Object) gcase {
		return c(name, reqs, o("world", world(sess("s", events(evs...))), "agent", me, "content", "x",
			"references", refs(ref("s")))).trap("TRAP-TYPE-FALSY-STRING")
	}
	withSource := func(src any) *wire.Object {
		return o("type", "user/message", "data", o("role", "user", "content", a(textBlock("hidden")), "source", src))
	}
	return gfile{"traps-php-falsy-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("user-text-zero-projected", "SR-PROJ-4", userMsg("0")),
		prep("assistant-text-zero-projected", "SR-PROJ-4", asstMsg("0")),
		prep("checkpoint-text-zero-projected-and-compacted", "SR-PROJ-4 SR-RET-10", checkpointMsg("0"), userMsg("after")),
		prep("text-zero-among-messages", "SR-PROJ-4 SR-PROJ-5", userMsg("a"), asstMsg("0"), userMsg("0"), asstMsg("b")),
		prep("source-empty-string-skipped", "SR-PROJ-1 SR-QUERY-3", withSource(""), userMsg("kept")),
		prep("source-zero-string-skipped", "SR-PROJ-1 SR-QUERY-3", withSource("0"), userMsg("kept")),
		prep("source-zero-skipped", "SR-PROJ-1 SR-QUERY-3", withSource(0), userMsg("kept")),
		prep("source-false-skipped", "SR-PROJ-1 SR-QUERY-3", withSource(false), userMsg("kept")),
		prep("source-empty-array-skipped", "SR-PROJ-1 SR-QUERY-3", withSource(a()), userMsg("kept")),
	}}
}

// A block is text when its type === "text", a source is the user's when its kind === "user"
// (SR-PROJ-1, SR-PROJ-4). PHP's == makes true equal to every non-empty string but "0", so a
// port that compared them with == read a block of type true as text and a source of kind
// true as the user's, and passed every other fixed check (TRAP-STR-EQUALITY).
func phpLooseTrue() gfile {
	me := agent("me")
	prep := func(name, reqs string, evs ...*wire.Object) gcase {
		return c(name, reqs, o("world", world(sess("s", events(evs...))), "agent", me, "content", "x",
			"references", refs(ref("s")))).trap("TRAP-STR-EQUALITY")
	}
	kindTrue := o("type", "user/message", "data", o("role", "user", "content", a(textBlock("hidden")), "source", o("kind", true)))
	pluginTrue := o("type", "user/message", "data", o("role", "user", "content", a(textBlock("hidden")), "source", o("kind", "plugin", "plugin", true)))
	return gfile{"traps-php-loose-true-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("block-type-true-ignored", "SR-PROJ-4", userBlocks(o("type", true, "text", "hidden"), textBlock("kept"))),
		prep("assistant-block-type-true-ignored", "SR-PROJ-4", asstBlocks(o("type", true, "text", "hidden"))),
		prep("source-kind-true-skipped", "SR-PROJ-1", kindTrue, userMsg("kept")),
		prep("source-plugin-true-not-a-checkpoint", "SR-PROJ-1", pluginTrue, userMsg("kept")),
	}}
}

// The content comes back as a deep copy of the JSON value given (SR-PREP-8): {} stays an
// object, and so does {"0": "a"}. A PHP port that decodes requests into associative arrays,
// or copies the content with json_decode(json_encode($content), true), gets a PHP array for
// both, which json_encode writes [] and ["a"]; it passed every other fixed check, as no fixed
// content held an empty object or one keyed 0..n-1 (TRAP-JSON-OBJECT-AS-ARRAY).
func phpAssocContent() gfile {
	w := world(sess("s", events(userMsg("hello"))))
	prep := func(name string, content any, rs []any) gcase {
		return c(name, "SR-PREP-8", o("world", w, "agent", agent("me"), "content", content, "references", rs)).trap("TRAP-JSON-OBJECT-AS-ARRAY")
	}
	return gfile{"traps-php-assoc-content-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("empty-object-stays-an-object", o(), refs()),
		prep("nested-empty-object-stays-an-object", o("k", o(), "l", a(o())), refs()),
		prep("index-keyed-object-stays-an-object", o("0", "a"), refs()),
		prep("index-keyed-object-of-two-stays-an-object", o("0", "a", "1", "b"), refs()),
		prep("empty-object-with-a-source", a(o("type", "text", "text", "x", "meta", o())), refs(ref("s"))),
	}}
}
