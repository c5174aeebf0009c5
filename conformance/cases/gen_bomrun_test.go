package cases_test

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// BOM runs (TRAP-STR-BOM): a default TextDecoder strips exactly one leading U+FEFF from the
// head and one from the tail; a second one stays. A port that strips them with its language's
// "trim these characters" (Rust's trim_start_matches('\u{FEFF}'), C#'s TrimStart('\uFEFF'),
// Python's lstrip('\ufeff'), a JavaScript /^\uFEFF+/) drops the whole run. Before these cases
// one fixed check (traps-strings-prepare/bom-cuts-budget-plus-39, a head that starts with two)
// told it apart, and none for the tail: found by a Rust port written from the spec whose tail
// decode was String::from_utf8_lossy(tail).trim_start_matches('\u{FEFF}'), which passed
// every fixed check. Here the head and the tail start with a run of two and of three U+FEFF,
// over a window of budgets that moves each cut across the run: a head that starts with two
// or three, a tail cut inside a run of three or four.

func bomRunFiles() []gfile {
	me := agent("me")
	one := func(name string, budget int, text string) gcase {
		return c(name, "SR-RET-8 SR-RET-9", o("world", world(sess("s", events(userMsg(text)))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", budget))).trap("TRAP-STR-BOM")
	}
	fixed := fixedSize("s", "s", "user")
	var cs []gcase
	for _, run := range []int{2, 3, 4} {
		boms := strings.Repeat("\ufeff", run)
		if run < 4 {
			// The head starts with the run; the tail is letters.
			head := boms + strings.Repeat("h", 40) + strings.Repeat("t", 40)
			for extra := 36; extra < 60; extra += 4 {
				cs = append(cs, one(fmt.Sprintf("head-starts-with-%d-boms-budget-plus-%02d", run, extra), fixed+extra, head))
			}
		}
		if run < 3 {
			continue
		}
		// The tail's cut moves across a run near the end; the head is letters.
		tail := strings.Repeat("h", 40) + boms + strings.Repeat("t", 6)
		for extra := 48; extra < 60; extra++ {
			cs = append(cs, one(fmt.Sprintf("tail-cut-at-%d-boms-budget-plus-%02d", run, extra), fixed+extra, tail))
		}
	}
	return []gfile{{"traps-bom-runs.yaml", protocol.OpPrepare, cs}}
}
