package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Message text the seed keeps as it is (TRAP-STR-TRIM): projection skips a message only when
// its text is "" (SR-PROJ-4), so a message of blanks is projected, and its text goes into the
// snapshot code unit for code unit. Found by porting the contract to TypeScript from the spec
// alone: a projection that skipped `!text.trim()` (the usual way to drop "empty" input in
// TypeScript) passed every other fixed check, because no fixed check held a message of blanks
// only; nor did any hold a message with blanks at its ends.

// blanks are texts of blanks only, each one that some language's trim or blank test empties.
var blanks = []struct{ name, text string }{
	{"space", " "},
	{"spaces-and-tab", " \t "},
	{"line-ends", "\n\r\n"},
	{"no-break-space", "\u00a0"},       // JavaScript, .NET, Python; not Java
	{"byte-order-mark", "\ufeff"},      // JavaScript only
	{"line-separator", "\u2028"},       // JavaScript, Java strip()
	{"ideographic-space", "\u3000"},    // JavaScript, Java strip(), Python
	{"next-line", "\u0085"},            // Python, .NET; not JavaScript
	{"control", "\x01"},                // Java trim()
	{"nul-between-spaces", " \u0000 "}, // Java trim()
}

func blankTextFiles() []gfile {
	var cs []gcase
	prep := func(name, reqs string, ev ...*wire.Object) gcase {
		return c(name, reqs, o("world", world(sess("s", events(ev...))), "agent", agent("me"),
			"content", "x", "references", refs(ref("s")))).trap("TRAP-STR-TRIM")
	}
	for _, b := range blanks {
		cs = append(cs, prep("blank-"+b.name+"-messages-are-projected", "SR-PROJ-4 SR-PROJ-5 SR-STR-1",
			userMsg(b.text), asstMsg(b.text), checkpointMsg(b.text), userMsg("end")))
	}
	for _, t := range trimmed {
		cs = append(cs, prep("text-"+t.name+"-kept-untrimmed", "SR-PROJ-4 SR-STR-1",
			userMsg(t.text), asstMsg(t.text)))
	}
	return []gfile{{"traps-blank-prepare.yaml", protocol.OpPrepare, cs}}
}
