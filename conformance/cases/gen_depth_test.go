package cases_test

import (
	"strconv"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Found by porting the contract to Ruby from the spec alone: a port whose prepare copies the
// content the usual Ruby way, JSON.parse(JSON.generate(content)), passed every other fixed
// check, and fails with no code on content nested more than 100 deep (TRAP-JSON-DEPTH-LIMIT):
// Ruby's JSON.generate and JSON.parse both have max_nesting 100 by default, and so has the
// adapter's own JSON.parse of the request line, which answers ADAPTER_PROTOCOL. The seed copies
// with structuredClone and encodes an id with JSON.stringify, neither of which has a limit
// near these depths (Node 20.20.2: both take arrays 10,000 deep). 101 is one level past Ruby's
// limit, 65 one past .NET System.Text.Json's MaxDepth of 64 (a port that copies the content
// through a JsonDocument). Deeper cases would only make the YAML larger (it indents by depth).

// nested is v inside depth arrays: nested(2, 1) is [[1]].
func nested(depth int, v any) any {
	for range depth {
		v = []any{v}
	}
	return v
}

// nestedObjects is v under depth objects {"k": …}.
func nestedObjects(depth int, v any) any {
	for range depth {
		v = wire.NewObject().Set("k", v)
	}
	return v
}

func depthFiles() []gfile {
	me := agent("me")
	prep := func(name string, content any, rs []any) gcase {
		return c(name, "SR-PREP-8", o("world", world(sess("s", events(userMsg("hi")))), "agent", me,
			"content", content, "references", rs)).trap("TRAP-JSON-DEPTH-LIMIT")
	}
	prepCases := []gcase{
		prep("content-arrays-nested-65-no-references", nested(65, "x"), refs()),
		prep("content-arrays-nested-101-no-references", nested(101, "x"), refs()),
		prep("content-objects-nested-101-no-references", nestedObjects(101, 1.0), refs()),
		prep("content-arrays-nested-101-with-a-source", nested(101, "x"), refs(ref("s"))),
	}
	var enc, format []gcase
	for _, d := range []int{65, 101} {
		n := strconv.Itoa(d)
		enc = append(enc,
			c("array-id-nested-"+n, "SR-URI-1", o("sessionId", nested(d, "a"))).trap("TRAP-JSON-DEPTH-LIMIT"),
			c("object-id-nested-"+n, "SR-URI-1", o("sessionId", nestedObjects(d, "a"))).trap("TRAP-JSON-DEPTH-LIMIT"))
		format = append(format,
			c("array-id-nested-"+n+"-with-label", "SR-MENTION-1 SR-URI-1", o("sessionId", nested(d, 1.0), "label", "deep")).trap("TRAP-JSON-DEPTH-LIMIT"))
	}
	return []gfile{
		{"traps-depth-prepare.yaml", protocol.OpPrepare, prepCases},
		{"traps-depth-uri-encode.yaml", protocol.OpURIEncode, enc},
		{"traps-depth-mention-format.yaml", protocol.OpMentionFormat, format},
	}
}
