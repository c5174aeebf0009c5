package cases_test

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Perl's truth test (TRAP-TYPE-FALSY-STRING): the strings "" and "0" are both false, so a
// Perl port that writes `push @msgs, {...} if $text`, `if ($needle)`, `$label ||= $id` or
// `$cwd ? ... : ...` where the seed tests `text !== ""`, `needle !== ""`, `label ?? id` or
// `cwd !== void 0` treats a text, a query, a label, a title or a cwd of "0" as empty or
// absent. Found by a Perl 5.36 port written from the spec alone: its projection skipped a
// message whose text is "0" (`if $text`), and its candidate filter took the query "0" for no
// query (`if ($needle)`); both passed all 2,002 checks and `diff --checks 1000`, because no
// fixed check and no generated request held the one-character string "0" (the kit's "" cases
// catch the same mistakes for "" only). PHP's truth test is the same ("0" is falsy).

func perlFiles() []gfile {
	me := agent("me")
	prep := func(name, reqs string, sessions ...any) gcase {
		return c(name, reqs, o("world", o("sessions", sessions), "agent", me, "content", "x",
			"references", refs(ref("s")))).trap("TRAP-TYPE-FALSY-STRING")
	}
	prepRefs := func(name, reqs string, rs []any, sessions ...any) gcase {
		return c(name, reqs, o("world", o("sessions", sessions), "agent", me, "content", "x",
			"references", rs)).trap("TRAP-TYPE-FALSY-STRING")
	}
	prepare := gfile{"traps-falsy-string-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("user-text-zero-projected", "SR-PROJ-1 SR-PROJ-4", sess("s", events(userMsg("0")))),
		prep("assistant-text-zero-projected", "SR-PROJ-2 SR-PROJ-4", sess("s", events(asstMsg("0")))),
		prep("checkpoint-text-zero-projected-and-compacted", "SR-PROJ-1 SR-PROJ-4 SR-RET-10", sess("s", events(checkpointMsg("0"), userMsg("hi")))),
		prep("text-zero-between-messages", "SR-PROJ-4 SR-PROJ-5", sess("s", events(userMsg("a"), asstMsg("0"), userMsg("b"), asstMsg("0")))),
		prep("text-block-zero-joined", "SR-PROJ-4", sess("s", events(userBlocks(textBlock("0"), textBlock("x")), asstBlocks(textBlock("y"), textBlock("0"))))),
		prep("text-zero-newest-kept-under-budget", "SR-RET-2 SR-RET-3", sess("s", events(userMsg("a long first message to drop"), userMsg("0")))),
		prep("cwd-zero-in-snapshot", "SR-PROJ-7", sess("s", cwd("0"), events(userMsg("hi")))),
		prepRefs("reference-label-zero-kept", "SR-PREP-3 SR-PROJ-7 SR-PROMPT-4", refs(refL("s", "0")), sess("s", events(userMsg("hi")))),
		prepRefs("reference-id-zero", "SR-PREP-3 SR-PROJ-7", refs(ref("0")), sess("0", events(userMsg("0")))),
	}}
	budget := prepare.cases[5]
	budget.args.Set("config", o("maxReferenceBytes", fixedSize("s", "s", "user")+1))
	prepare.cases[5] = budget

	world3 := func(extra ...any) any {
		return append([]any{
			sess("a0", created(1)),
			sess("b", created(2), title("x0y")),
			sess("c", created(3), cwd("/srv/0")),
			sess("d", created(4), title("none")),
			sess("e", created(5), cwd("/repo"), title("0")),
		}, extra...)
	}
	cand := func(name, reqs string, args ...any) gcase {
		return c(name, reqs, o(args...)).trap("TRAP-TYPE-FALSY-STRING")
	}
	candidates := gfile{"traps-falsy-string-candidates.yaml", protocol.OpCandidates, []gcase{
		cand("query-zero-filters", "SR-CAND-8 SR-CAND-7", "world", o("sessions", world3()), "agent", agentIn("me", "/repo"), "query", "0"),
		cand("query-zero-filters-before-limit", "SR-CAND-8 SR-CAND-12", "world", o("sessions", world3()), "agent", agentIn("me", "/repo"), "query", "0", "limit", 2),
		cand("query-zero-no-match", "SR-CAND-8", "world", o("sessions", []any{sess("a", title("b")), sess("c", cwd("/d"))}), "agent", me, "query", "0"),
		cand("title-zero-is-label", "SR-CAND-5", "world", o("sessions", []any{sess("a", title("0")), sess("b", title(""))}), "agent", me),
		cand("cwd-zero-ranks-with-agent-cwd-zero", "SR-CAND-2", "world", o("sessions", []any{sess("a"), sess("b", cwd("/x")), sess("c", cwd("0"))}), "agent", agentIn("me", "0")),
		cand("cwd-zero-copied", "SR-CAND-9", "world", o("sessions", []any{sess("a", cwd("0")), sess("b")}), "agent", me),
		cand("agent-id-zero-excluded", "SR-CAND-1", "world", o("sessions", []any{sess("0"), sess("00")}), "agent", agent("0")),
	}}
	format := gfile{"traps-falsy-string-mention-format.yaml", protocol.OpMentionFormat, []gcase{
		c("label-zero-kept", "SR-MENTION-1 SR-MENTION-2", o("sessionId", "a", "label", "0")).trap("TRAP-TYPE-FALSY-STRING"),
		c("id-zero-label-zero", "SR-MENTION-2", o("sessionId", "0")).trap("TRAP-TYPE-FALSY-STRING"),
	}}
	parse := gfile{"traps-falsy-string-mention-parse.yaml", protocol.OpMentionParse, []gcase{
		c("label-zero", "SR-MENTION-4", o("text", "@[0](dsh-session:ImEi)")).trap("TRAP-TYPE-FALSY-STRING"),
		c("id-zero-bare", "SR-MENTION-4", o("text", "0 "+enc("0")+" 0")).trap("TRAP-TYPE-FALSY-STRING"),
	}}
	return append([]gfile{prepare, candidates, format, parse, loneSurrogateHost(), chompParse(), chompHost()}, noncharacterFiles()...)
}

// Noncharacters (TRAP-STR-UTF8-DECODE): U+FDD0–U+FDEF and the last two code points of every
// plane are valid scalar values that TextDecoder and Buffer keep; Perl's strict UTF-8 codec,
// Encode::decode('UTF-8', …) (and encode), makes each one U+FFFD (utf8::decode keeps them).
// Found by the Perl port: decoding the kept head and tail of a truncation so passed every
// check and diff, since no truncated text held a noncharacter; decoding the URI payload so
// failed only a rapid property (uri/round-trip, by chance of its seed) and diff, since no
// fixed decode or parse case held one (uri.encode's did, for the encoder).
func noncharacterFiles() []gfile {
	nonchars := []struct{ name, s string }{
		{"u-ffff", "\uffff"}, {"u-fffe", "\ufffe"}, {"u-fdd0", "\ufdd0"}, {"u-fdef", "\ufdef"},
		{"u-1fffe", "\U0001fffe"}, {"u-10ffff", "\U0010ffff"}, {"between-letters", "a\uffffb\ufdd0c"},
	}
	var dec, enc2, parse []gcase
	for _, n := range nonchars {
		dec = append(dec, c("id-"+n.name+"-decodes", "SR-URI-2 SR-URI-3", o("uri", enc(n.s))).trap("TRAP-STR-UTF8-DECODE"))
		enc2 = append(enc2, c("id-"+n.name+"-kept", "SR-URI-1", o("sessionId", n.s)).trap("TRAP-STR-UTF8-DECODE"))
		parse = append(parse, c("markdown-id-"+n.name, "SR-MENTION-4", o("text", "see @[x]("+enc(n.s)+") and "+enc(n.s+"z"))).trap("TRAP-STR-UTF8-DECODE"))
	}
	fixed := fixedSize("s", "s", "user")
	text := strings.Repeat("\uffff", 12) + strings.Repeat("\ufdd0", 4) + strings.Repeat("m", 30) + strings.Repeat("\U0010ffff", 4) + strings.Repeat("\ufffe", 12)
	var prep []gcase
	for _, extra := range []int{40, 48, 56, 64, 72, 80} {
		prep = append(prep, c(fmt.Sprintf("head-and-tail-keep-noncharacters-budget-plus-%d", extra), "SR-RET-7 SR-RET-9",
			o("world", world(sess("s", events(userMsg(text)))), "agent", agent("me"), "content", "x",
				"references", refs(ref("s")), "config", o("maxReferenceBytes", fixed+extra))).trap("TRAP-STR-UTF8-DECODE"))
	}
	return []gfile{
		{"traps-noncharacter-uri-decode.yaml", protocol.OpURIDecode, dec},
		{"traps-noncharacter-uri-encode.yaml", protocol.OpURIEncode, enc2},
		{"traps-noncharacter-mention-parse.yaml", protocol.OpMentionParse, parse},
		{"traps-noncharacter-prepare.yaml", protocol.OpPrepare, prep},
	}
}

// A URI whose id is a lone surrogate decodes (SR-STR-1, SR-URI-2): JSON.parse reads
// "\ud800". JSON::PP's decode dies on it ("missing low surrogate character in surrogate
// pair"), as Rust's serde_json and Ruby's JSON.parse refuse it, so a port that parses the
// payload with its JSON library answers SESSION_REFERENCE_INVALID_REFERENCE. Every fixed check
// that decodes such a URI answers with the lone surrogate in its result, so it needs the
// lone-surrogates feature, which a port that cannot write one leaves out: the Perl port
// passed all its checks so (a rapid property sent one URI by chance on one seed; diff, without
// the feature, never). Through host.send the answer is a code alone: the seed decodes the id,
// then fails on it as on any other source (a read of an unknown session, a fourth source, the
// agent's own id after it), so these run for every adapter with the host feature.
func loneSurrogateHost() gfile {
	w := world(sess("a", events(userMsg("hi"))), sess("b"), sess("c"))
	send := func(name, reqs, text string) gcase {
		return c(name, reqs, o("world", w, "agent", agent("me"), "running", false, "text", text)).trap("TRAP-JSON-LONE-SURROGATES")
	}
	hi, lo := enc(u(`\ud800`)), enc(u(`\udc00x`))
	return gfile{"traps-lone-surrogate-host-send.yaml", protocol.OpHostSend, []gcase{
		send("bare-high-surrogate-id-is-read", "SR-STR-1 SR-URI-2 SR-PREP-7 SR-HOST-7", "see "+hi),
		send("markdown-low-surrogate-id-is-read", "SR-STR-1 SR-URI-2 SR-PREP-7 SR-HOST-7", "see @[x]("+lo+") and "+enc("a")),
		send("reversed-pair-id-is-read", "SR-STR-1 SR-URI-2 SR-PREP-7 SR-HOST-7", enc("a")+" "+enc(u(`\ude00\ud83d`))),
		send("lone-surrogate-id-is-a-fourth-source", "SR-STR-1 SR-URI-2 SR-PREP-4 SR-HOST-7", enc("a")+" "+enc("b")+" "+enc("c")+" @[s]("+hi+")"),
		send("lone-surrogate-id-before-self-reference", "SR-STR-1 SR-URI-2 SR-PREP-2 SR-HOST-7", hi+" then "+enc("me")),
	}}
}

// A final newline is text (TRAP-STR-TRIM): the seed keeps every code unit of a message that
// is not a mention. A Perl port that reads its text the way Perl reads lines, `chomp $text`,
// drops one trailing "\n" from the parsed text and from the message a host delivers. Found by
// a variant of the Perl port that only the rapid property mention.parse/agrees-with-reference
// caught, by chance of its seed (diff --checks 1000 did not): no fixed case ended a text
// with "\n".
func chompParse() gfile {
	p := func(name, text string) gcase {
		return c(name, "SR-MENTION-4 SR-MENTION-9", o("text", text)).trap("TRAP-STR-TRIM")
	}
	return gfile{"traps-final-newline-mention-parse.yaml", protocol.OpMentionParse, []gcase{
		p("plain-text-final-newline-kept", "no mention here\n"),
		p("bare-uri-then-final-newline", "see "+enc("a")+"\n"),
		p("markdown-then-two-newlines", "@[x]("+enc("a")+")\n\n"),
		p("final-crlf-kept", "see "+enc("a")+"\r\n"),
		p("only-a-newline", "\n"),
	}}
}

func chompHost() gfile {
	w := world(sess("a", events(userMsg("hi"))))
	send := func(name, text string) gcase {
		return c(name, "SR-HOST-1 SR-HOST-6", o("world", w, "agent", agent("me"), "running", false, "text", text)).trap("TRAP-STR-TRIM")
	}
	return gfile{"traps-final-newline-host-send.yaml", protocol.OpHostSend, []gcase{
		send("no-mention-final-newline-kept", "hello\n").only(cases.Profile001),
		send("mention-final-newline-kept", "see "+enc("a")+"\n").only(cases.Profile001),
	}}
}
