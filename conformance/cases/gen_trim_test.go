package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Text the seed keeps as it is, with whitespace at its ends (TRAP-STR-TRIM): a title becomes
// a candidate's label, a Markdown label a reference's label, a reference's label a source's,
// code unit for code unit. A port that "sanitizes" them with its language's trim (Java
// String.trim() drops every code unit up to U+0020, strip() Character.isWhitespace, a
// TypeScript port's trim() U+00A0 and U+FEFF too) changes the label. Found by a Java port
// written from the spec, whose title.trim() passed every other fixed check.

// trimmed are texts each trim of some language changes, and each names what takes its ends.
var trimmed = []struct{ name, text string }{
	{"spaces", "  padded  "},
	{"tab-and-newline", "\ttabbed\n"},
	{"controls", "\x01control\x1f"},           // Java trim(); not strip() at the start
	{"ideographic-space", "\u3000wide\u3000"}, // Java strip(), isBlank(); not trim()
	{"line-separators", "\u2028line\u2029"},   // Java strip(); JavaScript trim()
	{"no-break-space", "\u00a0nbsp\u00a0"},    // JavaScript and .NET trim; not Java
	{"byte-order-mark", "\ufeffbom\ufeff"},    // JavaScript trim(); not Java
	{"next-line", "\u0085nel\u0085"},          // Python strip(), .NET Trim(); not Java
	{"blank", "   "},                          // isBlank() / IsNullOrWhiteSpace: the id instead
}

func trimFiles() []gfile {
	me := agentIn("me", "/repo")
	var cand, parse, prep []gcase
	for _, t := range trimmed {
		cand = append(cand, c("title-"+t.name+"-kept", "SR-CAND-5 SR-STR-1",
			o("world", world(sess("a", title(t.text))), "agent", me)).trap("TRAP-STR-TRIM"))
		parse = append(parse, c("label-"+t.name+"-kept", "SR-MENTION-4 SR-STR-1",
			o("text", "see @["+t.text+"]("+enc("a")+")")).trap("TRAP-STR-TRIM"))
		prep = append(prep, c("label-"+t.name+"-kept", "SR-PREP-3 SR-STR-1",
			o("world", world(sess("s", events(userMsg("hi")))), "agent", me, "content", "x",
				"references", refs(refL("s", t.text)))).trap("TRAP-STR-TRIM"))
	}
	return []gfile{
		{"traps-trim-candidates.yaml", protocol.OpCandidates, cand},
		{"traps-trim-mention-parse.yaml", protocol.OpMentionParse, parse},
		{"traps-trim-prepare.yaml", protocol.OpPrepare, prep},
	}
}
