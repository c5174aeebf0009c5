package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// A number beyond the double range (1e400) is Infinity to JSON.parse, and
// Number.isSafeInteger(Infinity) is false: the seed fails a configured value or a limit of
// ±Infinity with its code, SESSION_REFERENCE_INVALID_CONFIG or
// SESSION_REFERENCE_INVALID_REFERENCE (SR-CONF-2, SR-CAND-4; TRAP-TYPE-SAFE-INTEGER). A
// Python port that tests integrality with v == int(v) (or math.floor(v), round(v)) before
// the range meets OverflowError there ("cannot convert float infinity to integer"), which
// carries no contract code. Found by a Python port written from the spec: its first draft,
// fixed to pass every other check, still crashed on them, as no fixed check sent a number
// that reads as Infinity.

func infinityFiles() []gfile {
	return []gfile{infinityConfig(), infinityCandidates(), infinityPrepare()}
}

// inf and minusInf are texts JSON.parse reads as Infinity and -Infinity.
var (
	inf      = wire.Number("1e400")
	minusInf = wire.Number("-1e400")
)

func infinityConfig() gfile {
	cfg := func(name string, v *wire.Object) gcase {
		return c(name, "SR-CONF-2", o("config", v)).trap("TRAP-TYPE-SAFE-INTEGER")
	}
	return gfile{"traps-infinity-config.yaml", protocol.OpConfig, []gcase{
		cfg("max-references-infinity", o("maxReferences", inf)),
		cfg("candidate-limit-infinity", o("candidateLimit", inf)),
		cfg("max-reference-bytes-infinity", o("maxReferenceBytes", inf)),
		cfg("max-references-minus-infinity", o("maxReferences", minusInf)),
		cfg("candidate-limit-minus-infinity", o("candidateLimit", minusInf)),
		cfg("max-reference-bytes-minus-infinity", o("maxReferenceBytes", minusInf)),
		cfg("max-reference-bytes-infinity-uppercase-exponent", o("maxReferenceBytes", wire.Number("1E+999"))),
		// The keys are validated in order: an earlier invalid key decides, and so does an
		// earlier Infinity.
		cfg("max-references-0-before-candidate-limit-infinity", o("maxReferences", 0, "candidateLimit", inf)),
		cfg("max-references-infinity-before-candidate-limit-0", o("maxReferences", inf, "candidateLimit", 0)),
	}}
}

func infinityCandidates() gfile {
	w := world(sess("a", created(1)), sess("b", created(2)))
	me := agent("me")
	cand := func(name, reqs string, kv ...any) gcase {
		return c(name, reqs, o(append([]any{"world", w, "agent", me}, kv...)...)).trap("TRAP-TYPE-SAFE-INTEGER")
	}
	return gfile{"traps-infinity-candidates.yaml", protocol.OpCandidates, []gcase{
		cand("limit-infinity", "SR-CAND-4", "limit", inf),
		cand("limit-minus-infinity", "SR-CAND-4", "limit", minusInf),
		cand("limit-infinity-with-query", "SR-CAND-4", "limit", inf, "query", "a"),
		cand("limit-infinity-already-aborted", "SR-CAND-4 SR-CANCEL-7", "limit", inf, "cancel", "before"),
		cand("config-candidate-limit-infinity", "SR-CONF-2 SR-ERR-5", "config", o("candidateLimit", inf)),
		cand("config-max-reference-bytes-infinity", "SR-CONF-2 SR-ERR-5", "config", o("maxReferenceBytes", inf)),
	}}
}

func infinityPrepare() gfile {
	w := world(sess("s", events(userMsg("hello"))))
	me := agent("me")
	prep := func(name string, v *wire.Object) gcase {
		return c(name, "SR-CONF-2 SR-ERR-5", o("world", w, "agent", me, "content", "x",
			"references", refs(ref("s")), "config", v)).trap("TRAP-TYPE-SAFE-INTEGER")
	}
	return gfile{"traps-infinity-prepare.yaml", protocol.OpPrepare, []gcase{
		prep("max-reference-bytes-infinity", o("maxReferenceBytes", inf)),
		prep("max-references-infinity", o("maxReferences", inf)),
		prep("max-references-minus-infinity", o("maxReferences", minusInf)),
	}}
}
