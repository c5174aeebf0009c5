package cases_test

import (
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// The omission notice writes its count as plain decimal digits (SR-RET-6, SR-RET-9): the
// seed's template literal `${omitted}` is Number-to-String, no grouping. Found by porting the
// contract to TypeScript from the spec alone: a notice written with omitted.toLocaleString()
// ("4,900" in en-US, "4.900" in de, "4 900" in fr) passed every other fixed check, because
// no fixed check cut a message by 1,000 bytes or more (TRAP-TYPE-LOCALE-NUMBER: C#'s "{0:N0}",
// Python's f"{n:,}", Java's %,d and NumberFormat group the same way).

func noticeCountFiles() []gfile {
	fixed := fixedSize("s", "s", "user")
	prep := func(name string, text string, room int, more ...*wire.Object) gcase {
		ev := append([]*wire.Object{userMsg(text)}, more...)
		return c(name, "SR-RET-6 SR-RET-9", o("world", world(sess("s", events(ev...))), "agent", agent("me"),
			"content", "x", "references", refs(ref("s")), "config", o("maxReferenceBytes", fixed+room))).trap("TRAP-TYPE-LOCALE-NUMBER")
	}
	return []gfile{{"traps-notice-count-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("omitted-thousands-written-without-grouping", strings.Repeat("a", 3000), 200),
		prep("omitted-exactly-one-thousand-region", strings.Repeat("b", 1100), 100),
		prep("omitted-tens-of-thousands-written-without-grouping", strings.Repeat("0123456789", 2500), 400),
		prep("omitted-thousands-of-multibyte-text", strings.Repeat("é", 1500), 120),
	}}}
}
