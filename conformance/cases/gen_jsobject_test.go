package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Found by porting the contract to TypeScript from the spec alone: a port that keeps its
// "seen" ids, or copies an object, in a plain JavaScript object instead of a Set or Map
// passed every other fixed check, because no fixed check used an id that a plain object
// treats apart from other strings.
//
// Integer-like keys (TRAP-ORDER-HASH-ITERATION): Object.keys, Object.values, Object.entries
// and for…in list an object's array-index keys ("0" to "4294967294") first, in ascending
// numeric order, then the other keys in insertion order. A dedup that builds a record of
// references and returns Object.values(record) puts "2" before "10" before "b" whatever the
// order of mention.
//
// Prototype keys (TRAP-TYPE-PROTOTYPE-KEYS): `id in record` is true for "toString",
// "constructor", "__proto__", "valueOf" … of an empty object, so a dedup that asks `in`
// skips the first mention of such a source; `record[id] = …` with id "__proto__" sets the
// record's prototype instead of adding a key, so Object.hasOwn never sees it and
// Object.values leaves it out; and a hand-written deep copy (`out[k] = copy(v[k])` over
// for…in) drops a content key "__proto__" the same way, where structuredClone keeps it.

func jsObjectFiles() []gfile {
	return []gfile{jsObjectPrepare(), jsObjectCandidates()}
}

// protoNames are keys every plain object already has (inherited from Object.prototype).
var protoNames = []string{"toString", "constructor", "__proto__", "valueOf", "hasOwnProperty"}

func jsObjectPrepare() gfile {
	// One session per id, each with one message naming it, so a snapshot out of place or
	// missing shows in the prompt text as well as in the records.
	src := func(id string) *wire.Object { return sess(id, events(userMsg("from "+id))) }
	w := func(ids ...string) *wire.Object {
		ss := make([]*wire.Object, len(ids))
		for i, id := range ids {
			ss[i] = src(id)
		}
		return world(ss...)
	}
	prep := func(name, reqs, trap string, world *wire.Object, rs []any) gcase {
		return c(name, reqs, o("world", world, "agent", agent("me"), "content", "x", "references", rs)).trap(trap)
	}
	order := "TRAP-ORDER-HASH-ITERATION"
	proto := "TRAP-TYPE-PROTOTYPE-KEYS"
	cs := []gcase{
		prep("integer-like-ids-keep-mention-order", "SR-PREP-3 SR-PROMPT-4 SR-PROMPT-5", order,
			w("b", "10", "2"), refs(ref("b"), ref("10"), ref("2"))),
		prep("integer-like-ids-descending-keep-mention-order", "SR-PREP-3 SR-PROMPT-5", order,
			w("10", "2", "0"), refs(ref("10"), ref("2"), ref("0"))),
		prep("integer-like-ids-repeated-keep-first-mention-order", "SR-PREP-3 SR-PROMPT-4", order,
			w("x", "7", "3"), refs(refL("x", "first x"), ref("7"), refL("x", "second x"), ref("3"), ref("7"))),
		// "4294967294" is the largest array index, ordered first; "4294967295" is not one, and
		// neither is "01" or "-1": those keep insertion order.
		prep("largest-array-index-keeps-mention-order", "SR-PREP-3 SR-PROMPT-5", order,
			w("a", "4294967295", "4294967294"), refs(ref("a"), ref("4294967295"), ref("4294967294"))),
		prep("non-canonical-numbers-after-a-number", "SR-PREP-3 SR-PROMPT-5", order,
			w("01", "-1", "1"), refs(ref("01"), ref("-1"), ref("1"))),
	}
	for _, id := range protoNames {
		cs = append(cs, prep("prototype-key-"+id+"-is-a-source", "SR-PREP-3 SR-PREP-6 SR-PROMPT-5", proto,
			w("a", id), refs(ref("a"), ref(id))))
	}
	cs = append(cs,
		prep("prototype-keys-keep-mention-order", "SR-PREP-3 SR-PROMPT-5", proto,
			w("constructor", "__proto__", "toString"), refs(ref("constructor"), ref("__proto__"), ref("toString"))),
		prep("proto-key-repeated-keeps-first-label", "SR-PREP-3", proto,
			w("__proto__", "b"), refs(refL("__proto__", "first"), ref("b"), refL("__proto__", "second"))),
		// A repeated __proto__ still counts once: four mentions, three sources.
		prep("proto-key-repeated-counts-once", "SR-PREP-4", proto,
			w("__proto__", "a", "b"), refs(ref("__proto__"), ref("a"), ref("__proto__"), ref("b"))),
		// Content keys: a copy key by key drops "__proto__" (it sets the copy's prototype).
		c("content-proto-key-kept", "SR-PREP-8", o("world", world(), "agent", agent("me"), "content",
			o("__proto__", o("polluted", true), "b", 2), "references", refs())).trap(proto),
		c("content-nested-proto-key-kept-with-a-source", "SR-PREP-8", o("world", w("s"), "agent", agent("me"), "content",
			a(o("type", "text", "text", "hi", "__proto__", o("type", "image")), o("constructor", "c", "toString", nil)),
			"references", refs(ref("s")))).trap(proto),
		c("content-proto-key-null-kept", "SR-PREP-8", o("world", world(), "agent", agent("me"), "content",
			o("a", o("__proto__", nil, "valueOf", 1)), "references", refs())).trap(proto),
		// A reference's keys are read as they are: an own "__proto__" holds no sessionId
		// (a port that copies the reference with Object.assign inherits one) …
		prep("reference-proto-key-is-not-its-session-id", "SR-PREP-1", proto,
			w("a"), refs(o("__proto__", o("sessionId", "a")))),
		// … and no label.
		prep("reference-proto-key-is-not-its-label", "SR-PREP-1 SR-PREP-3", proto,
			w("a"), refs(o("sessionId", "a", "__proto__", o("label", 5)))),
	)
	return gfile{"traps-jsobject-prepare.yaml", protocol.OpPrepare, cs}
}

func jsObjectCandidates() gfile {
	cand := func(name, reqs, trap string, world *wire.Object, query string) gcase {
		args := o("world", world, "agent", agent("me"))
		if query != "" {
			args.Set("query", query)
		}
		return c(name, reqs, args).trap(trap)
	}
	ids := world(sess("b", title("T b")), sess("10", title("T 10")), sess("2"), sess("toString", title("T s")), sess("__proto__"), sess("constructor", title("T c")))
	return gfile{"traps-jsobject-candidates.yaml", protocol.OpCandidates, []gcase{
		cand("integer-like-and-prototype-ids-keep-listing-order", "SR-CAND-2 SR-CAND-5", "TRAP-ORDER-HASH-ITERATION", ids, ""),
		cand("integer-like-and-prototype-ids-keep-listing-order-with-query", "SR-CAND-2 SR-CAND-8", "TRAP-ORDER-HASH-ITERATION", ids, "t"),
		cand("prototype-ids-are-titled-by-their-own-reads", "SR-CAND-5", "TRAP-TYPE-PROTOTYPE-KEYS", ids, "o"),
	}}
}
