package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Objects whose key order a port must make JavaScript's (TRAP-JSON-KEY-ORDER). A port reads a
// request with its own JSON parser and meets a caller's object in the order of the request's
// text; JavaScript's JSON.parse makes an object whose keys are in property order: array
// indices (the canonical decimal integers 0 to 2^32 − 2) ascending first, then the other keys
// in the order first met. Where the contract writes a caller's object (JSON.stringify of a
// session id that is not a string, in uri.encode and mention.format), that order is bytes of
// the answer. These cases are sent in the order written below, not JavaScript's
// (wire.Object.KeepOrder): integer-like keys after others, string keys not in sorted order,
// keys that look like indices but are not ("-1", "01", "4294967295"), the largest index
// ("4294967294"), nested objects. A port that keeps the text's order (a Python dict, a Ruby
// Hash, a Java LinkedHashMap, serde_json with preserve_order) fails the cases with an index
// key after another key; one that sorts the keys (a Go map through encoding/json, serde_json's
// default BTreeMap, nlohmann::json) fails those whose other keys are not in sorted order or
// whose indices sort otherwise as text ("10" before "9").

func keyOrderFiles() []gfile {
	// kept is an object sent with its keys (and those of every object in it) in this order.
	kept := func(kv ...any) *wire.Object { return wire.KeepOrder(o(kv...)).(*wire.Object) }
	id := func(name string, v any) gcase {
		return c(name, "SR-URI-1", o("sessionId", v).KeepOrder()).trap("TRAP-JSON-KEY-ORDER")
	}
	mention := func(name string, v any) gcase {
		return c(name, "SR-MENTION-1 SR-URI-1", o("sessionId", v, "label", "x").KeepOrder()).trap("TRAP-JSON-KEY-ORDER")
	}
	return []gfile{
		{"traps-key-order-uri-encode.yaml", protocol.OpURIEncode, []gcase{
			// An index key after a string key: JavaScript lists it first.
			id("index-key-after-string-key", kept("b", 1, "1", 2)),
			// String keys keep the order first met, sorted or not.
			id("string-keys-not-sorted", kept("b", 1, "a", 2)),
			id("string-keys-descending", kept("zeta", 1, "beta", 2, "alpha", 3)),
			id("string-keys-differing-in-case", kept("b", 1, "B", 2, "a", 3)),
			id("non-ascii-keys-not-sorted", kept("é", 1, "z", 2, "a", 3)),
			id("empty-key-after-another", kept("b", 1, "", 2)),
			// Indices ascend by value, not as text, and come before every other key.
			id("index-keys-by-value-not-text", kept("10", 1, "9", 2, "b", 3)),
			id("index-keys-descending-after-string-keys", kept("b", 1, "a", 2, "2", 3, "1", 4, "0", 5)),
			// Keys that read as integers but are no array index stay in place.
			id("negative-one-is-no-index", kept("b", 1, "-1", 2)),
			id("leading-zero-is-no-index", kept("b", 1, "01", 2, "1", 3)),
			id("non-canonical-numbers-are-no-index", kept("b", 1, "1.5", 2, "1e3", 3, "+1", 4, " 1", 5, "-0", 6, "0", 7)),
			// 2^32 − 2 is the largest array index; 2^32 − 1 and beyond are ordinary keys.
			id("largest-index-4294967294", kept("b", 1, "4294967294", 2)),
			id("4294967295-is-no-index", kept("b", 1, "4294967295", 2)),
			id("integer-keys-around-the-last-index", kept("b", 1, "4294967296", 2, "4294967295", 3, "4294967294", 4, "9007199254740993", 5)),
			// Every object is ordered, at any depth and inside arrays.
			id("nested-index-key-after-string-key", kept("a", kept("b", 1, "1", 2))),
			id("nested-objects", kept("b", kept("y", 1, "2", 2, "x", 3), "1", a(kept("d", 1, "0", 2, "c", 3)), "a", kept("10", 1, "9", 2))),
			id("array-of-objects", a(kept("b", 1, "1", 2), kept("b", 1, "a", 2))),
		}},
		{"traps-key-order-mention-format.yaml", protocol.OpMentionFormat, []gcase{
			// The mention's URI encodes the id as uri.encode does.
			mention("object-id-index-key-after-string-key", kept("b", 1, "1", 2)),
			mention("object-id-string-keys-not-sorted", kept("b", 1, "a", 2)),
			mention("object-id-nested", kept("b", kept("y", 1, "2", 2), "a", 3)),
		}},
	}
}
