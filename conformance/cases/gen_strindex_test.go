package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Found by porting the contract to Ruby from the spec alone (TRAP-TYPE-STRING-INDEX). The
// seed reads properties of values of any type, and a primitive has none: "x".sessionId is
// undefined. A Ruby port that reads them duck-typed, value["sessionId"] with a rescue for the
// types that raise (an Integer or an Array raises TypeError, nil NoMethodError), meets
// String#[] with a String argument, which is a substring search: "sessionId"["sessionId"] is
// "sessionId". So a reference that is the string "sessionId" becomes {sessionId: "sessionId"}
// (the seed: not an object, SESSION_REFERENCE_INVALID_REFERENCE), and a user/message whose
// data is the string "source" gets the source "source", which has no kind, so the message is
// skipped (the seed: data.source is undefined, reading its kind throws, no code). A
// configuration that is such a string was already a case (config/string-config-defaults).
// Other strings (`"ab"` as a reference, the non-object configurations) read nothing either way.

func strIndexFiles() []gfile {
	me := agent("me")
	w := world(sess("sessionId", events(userMsg("hi"))), sess("label", events(userMsg("there"))))
	prep := func(name, reqs string, rs []any) gcase {
		return c(name, reqs, o("world", w, "agent", me, "content", "x", "references", rs)).trap("TRAP-TYPE-STRING-INDEX")
	}
	dataWorld := func(data any) *wire.Object {
		return world(sess("s", surf(o("capturedThroughSeq", 2.0, "events", a(
			o("type", "user/message", "seq", 1.0, "data", data),
			o("type", "user/message", "seq", 2.0, "data", o("role", "user", "content", a(textBlock("kept")), "source", o("kind", "user"))),
		)))))
	}
	data := func(name string, d any) gcase {
		return c(name, "SR-QUERY-3 SR-ERR-2", o("world", dataWorld(d), "agent", me, "content", "x", "references", refs(ref("s")))).trap("TRAP-TYPE-STRING-INDEX")
	}
	return []gfile{
		{"traps-string-index-prepare.yaml", protocol.OpPrepare, []gcase{
			prep("reference-string-naming-session-id-key", "SR-PREP-1", []any{"sessionId"}),
			prep("reference-string-holding-both-keys", "SR-PREP-1", []any{"sessionId and label"}),
			prep("reference-string-after-a-valid-one", "SR-PREP-1", []any{ref("label"), "sessionId"}),
			data("user-message-data-string-naming-source", "source"),
			data("user-message-data-string-holding-source-and-content", "source, content"),
		}},
		{"traps-string-index-config.yaml", protocol.OpConfig, []gcase{
			c("config-string-naming-every-key", "SR-CONF-4", o("config", "maxReferences candidateLimit maxReferenceBytes")).trap("TRAP-TYPE-STRING-INDEX"),
		}},
	}
}
