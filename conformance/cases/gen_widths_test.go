package cases_test

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Integer widths where a configured value is used, not only where it is validated
// (TRAP-TYPE-SAFE-INTEGER). A Java or C# port that validates the configuration as a long and
// reports it right still narrows it where it compares: `(int) maxReferenceBytes` keeps the
// low 32 bits, so 2^32+150 becomes a budget of 150 and 2^53−1 one of −1; `(int) limit` makes
// 2^32+2 a limit of 2. The config op and a huge explicit limit see none of it; a source under
// such a budget and a listing under such a limit do. Found by a Java port written from the
// spec (conformance/adapters/java), whose first draft passed every other fixed check with
// the budget narrowed.

func widthFiles() []gfile {
	return []gfile{widthsPrepare(), widthsCandidates()}
}

// int32Of is what Java's (int) of a long, C#'s unchecked (int) and Go's int32() make of v,
// written for a case name.
func int32Of(v int64) string { return strings.Replace(fmt.Sprint(int32(v)), "-", "minus-", 1) }

func widthsPrepare() gfile {
	me := agent("me")
	// Two messages and about 300 bytes of snapshot: a narrowed budget of 150 drops the first
	// and cuts the second, of 0 or less fails the source; the contract keeps both untouched.
	src := sess("s", events(userMsg("first message"), asstMsg(strings.Repeat("abcdefghij", 20))))
	var cs []gcase
	for _, b := range []struct {
		name   string
		budget int64
	}{
		{"2-pow-31", 1 << 31},
		{"2-pow-32", 1 << 32},
		{"2-pow-32-plus-150", 1<<32 + 150},
		{"2-pow-33-plus-150", 1<<33 + 150},
		{"max-safe", 1<<53 - 1},
	} {
		name := fmt.Sprintf("budget-%s-narrowed-to-%s", b.name, int32Of(b.budget))
		cs = append(cs, c(name, "SR-CONF-5 SR-RET-1", o("world", world(src), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", float64(b.budget)))).trap("TRAP-TYPE-SAFE-INTEGER"))
	}
	return gfile{"traps-widths-prepare.yaml", protocol.OpPrepare, cs}
}

func widthsCandidates() gfile {
	me := agent("me")
	five := make([]*wire.Object, 5)
	for i := range five {
		five[i] = sess(fmt.Sprintf("s%d", i+1), created(i+1))
	}
	w := world(five...)
	var cs []gcase
	for _, l := range []int64{1<<32 + 2, 1<<33 + 3, 1<<53 - 1} {
		n := int32Of(l)
		cs = append(cs,
			c(fmt.Sprintf("config-limit-%d-narrowed-to-%s", l, n), "SR-CONF-5 SR-CAND-3",
				o("world", w, "agent", me, "config", o("candidateLimit", float64(l)))).trap("TRAP-TYPE-SAFE-INTEGER"),
			c(fmt.Sprintf("config-limit-%d-narrowed-to-%s-with-query", l, n), "SR-CONF-5 SR-CAND-3 SR-CAND-12",
				o("world", w, "agent", me, "query", "S", "config", o("candidateLimit", float64(l)))).trap("TRAP-TYPE-SAFE-INTEGER"),
			c(fmt.Sprintf("limit-%d-narrowed-to-%s", l, n), "SR-CAND-3",
				o("world", w, "agent", me, "limit", float64(l))).trap("TRAP-TYPE-SAFE-INTEGER"),
		)
	}
	// A header's createdAt is copied as the header has it (SR-CAND-9): a port that reads it
	// into a Java long (epoch milliseconds, Instant.toEpochMilli) truncates 1.5 to 1 and
	// saturates 1e21 at 2^63-1.
	for _, v := range []struct {
		name string
		v    any
	}{
		{"fraction", 1.5},
		{"negative-fraction", -2.5},
		{"millis-and-a-half", 1733390000000.5},
		{"1e21", 1e21},
		{"smallest-subnormal", num("5e-324")},
	} {
		cs = append(cs, c("created-at-"+v.name+"-copied", "SR-CAND-9", o("world", world(o("header", o("id", "a", "createdAt", v.v))), "agent", me)).trap("TRAP-TYPE-SAFE-INTEGER"))
	}
	return gfile{"traps-widths-candidates.yaml", protocol.OpCandidates, cs}
}
