package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// The cancel cases whose answer depends on the order of the held call, a failing call and the
// abort (spec/protocol.md, cancel): the seed answers each the same way every time, and the
// protocol's modes are defined by the calls' outcomes, so these are fixed checks. at-call:
// the seed makes every read before it sees an outcome, and finds the signal aborted first
// (CANCELLED, whatever fails). during-read: the abort comes only once every other read
// succeeded, so a failing other read decides (READ_FAILED).

func cancelFiles() []gfile {
	return []gfile{prepareCancel(), candidatesCancel()}
}

func prepareCancel() gfile {
	me := agent("me")
	w := world(
		sess("a", events(userMsg("hello from a"))),
		sess("b", events(userMsg("hello from b"))),
		sess("c", events(userMsg("hello from c"))),
		sess("broken", readErr("storage offline")),
		sess("gone", readErr("deleted")),
	)
	at := func(name, reqs string, rs []any, extra ...any) gcase {
		return c(name, reqs, o(append([]any{"world", w, "agent", me, "content", "x", "references", rs, "cancel", protocol.CancelAtCall}, extra...)...))
	}
	during := func(name, reqs string, rs []any, extra ...any) gcase {
		return c(name, reqs, o(append([]any{"world", w, "agent", me, "content", "x", "references", rs, "cancel", protocol.CancelDuringRead}, extra...)...))
	}
	return gfile{"prepare-cancel.yaml", protocol.OpPrepare, []gcase{
		// A port that maps a read's failure to READ_FAILED without asking whether the signal
		// was aborted first (the seed's catch asks) answers READ_FAILED here.
		at("at-call-then-failing-read", "SR-CANCEL-4 SR-ERR-3", refs(ref("a"), ref("broken"))).trap("TRAP-ASYNC-CANCEL-POINTS"),
		at("at-call-then-success-then-failing-read", "SR-CANCEL-4 SR-ERR-3", refs(ref("a"), ref("b"), ref("broken"))).trap("TRAP-ASYNC-CANCEL-POINTS"),
		at("at-call-then-failing-read-then-success", "SR-CANCEL-4 SR-ERR-3", refs(ref("a"), ref("broken"), ref("b"))).trap("TRAP-ASYNC-CANCEL-POINTS"),
		at("at-call-then-two-failing-reads", "SR-CANCEL-4 SR-ERR-3", refs(ref("a"), ref("broken"), ref("gone"))).trap("TRAP-ASYNC-CANCEL-POINTS"),
		at("at-call-then-unknown-session", "SR-CANCEL-4 SR-ERR-3", refs(ref("a"), ref("nobody"))).trap("TRAP-ASYNC-CANCEL-POINTS"),
		// The held read is the one that would fail: it never settles.
		at("at-call-on-failing-read-then-failing-read", "SR-CANCEL-4", refs(ref("broken"), ref("gone"))).trap("TRAP-ASYNC-CANCEL-POINTS"),
		// Nothing is rendered after an abort: a budget no source fits does not decide.
		at("at-call-then-failing-read-before-budget", "SR-CANCEL-4 SR-ERR-3", refs(ref("a"), ref("broken")), "config", o("maxReferenceBytes", 10)).trap("TRAP-ASYNC-CANCEL-POINTS"),
		// during-read: the failing other read decides, wherever it stands among the others.
		during("during-read-success-then-failing-read", "SR-CANCEL-4 SR-PREP-7", refs(ref("a"), ref("b"), ref("broken"))).trap("TRAP-ASYNC-SEQUENTIAL-READS"),
		during("during-read-failing-read-then-success", "SR-CANCEL-4 SR-PREP-7", refs(ref("a"), ref("broken"), ref("b"))).trap("TRAP-ASYNC-SEQUENTIAL-READS"),
		during("during-read-two-failing-reads", "SR-CANCEL-4 SR-PREP-7", refs(ref("a"), ref("broken"), ref("gone"))).trap("TRAP-ASYNC-SEQUENTIAL-READS"),
		during("during-read-held-failing-read-then-failing-read", "SR-CANCEL-4 SR-PREP-7", refs(ref("broken"), ref("gone"))).trap("TRAP-ASYNC-SEQUENTIAL-READS"),
		// Every other read succeeds: the abort comes, and decides.
		during("during-read-others-succeed", "SR-CANCEL-4", refs(ref("a"), ref("b"), ref("c"))),
		during("during-read-held-failing-read-others-succeed", "SR-CANCEL-4", refs(ref("broken"), ref("a"), ref("b"))),
	}}
}

func candidatesCancel() gfile {
	me := agent("me")
	failing := o("sessions", a(sess("a")), "listError", "index broken")
	return gfile{"candidates-cancel.yaml", protocol.OpCandidates, []gcase{
		// The held listing is the one that would fail: it never settles, the abort decides.
		c("at-call-on-failing-listing", "SR-CANCEL-6 SR-ERR-4", o("world", failing, "agent", me, "cancel", protocol.CancelAtCall)),
		c("during-read-on-failing-listing", "SR-CANCEL-6 SR-ERR-4", o("world", failing, "agent", me, "cancel", protocol.CancelDuringRead)),
		c("during-read-with-query", "SR-CANCEL-6", o("world", world(sess("a"), sess("b")), "agent", me, "query", "a", "cancel", protocol.CancelDuringRead)),
	}}
}
