package cases_test

import (
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Payloads that are well-formed JSON but reach a JSON parser's own limits
// (spec/porting-traps.md, TRAP-JSON-PARSER-LIMITS). JSON.parse reads both (Node 20 parses
// arrays nested 200,000 deep, and a 5,000-digit integer as Infinity), neither is a string,
// so every one is SESSION_REFERENCE_INVALID_REFERENCE. Python's json.loads raises
// RecursionError (not a ValueError) past its recursion limit, 1,000 by default and 20,000
// under the Python kit's serve, and ValueError (not a JSONDecodeError) for an integer
// literal of more than 4,300 digits: a port that maps only the parse-error class answers
// with no code. The depth is 30,000, measured to fail under the kit's limit.

const parserDepth = 30000

func parserLimitFiles() []gfile {
	deep := b64(strings.Repeat("[", parserDepth) + strings.Repeat("]", parserDepth))
	digits := b64(strings.Repeat("1", 5000))
	justOver := b64("-" + strings.Repeat("9", 4301))
	d := func(name, uri string) gcase {
		return c(name, "SR-URI-5 SR-URI-7", o("uri", uri)).trap("TRAP-JSON-PARSER-LIMITS")
	}
	p := func(name, reqs, text string) gcase {
		return c(name, reqs, o("text", text)).trap("TRAP-JSON-PARSER-LIMITS")
	}
	return []gfile{
		{"traps-parser-uri.yaml", protocol.OpURIDecode, []gcase{
			d("payload-array-nested-30000", deep),
			d("payload-integer-5000-digits", digits),
			d("payload-negative-integer-4301-digits", justOver),
		}},
		{"traps-parser-mention.yaml", protocol.OpMentionParse, []gcase{
			// The deep payload is the second URI: the first decodes, the second decides.
			p("bare-payload-array-nested-30000", "SR-MENTION-6", "see "+enc("a")+" and "+deep),
			p("markdown-payload-integer-5000-digits", "SR-MENTION-5", "see @[x]("+digits+")"),
		}},
	}
}
