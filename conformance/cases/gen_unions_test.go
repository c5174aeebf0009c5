package cases_test

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// The closed unions of projection, member by member: every event type, content block type and
// message source kind the package's types (dsh-session's SessionEventMap and the plugins that
// extend it, dsh-llm's ContentBlockMap and MessageSourceMap), its code or its README name, and
// the neighbours a port author would invent from the README ("unfinished assistant chunks are
// excluded", "reasoning", "context"). For each, what the package does with it is a fixed check:
// projection names three event types and fails on any other (SR-QUERY-3), reads only "text"
// blocks (SR-PROJ-4), and projects a user message only for source kind "user" or the compact
// checkpoint marker (SR-PROJ-1, SR-PROJ-3). A port that maps one more member onto a branch it
// names (skips a chunk as it skips a tool result, reads a reasoning block's text, takes kind
// "system" for a user) fails the member's case. conformance/adapters/node-upstream/boundary
// makes those mutants of the package itself, and the cases here kill them.
//
// The two survivors of issue 26 are here too: assistant-chunk (a port that skips an
// assistant/chunk like a tool/result), and the bisection-upper-bound cases of
// retention-bounds.yaml (a truncation bisection whose upper bound starts one byte below the
// target).

func unionFiles() []gfile {
	return []gfile{unionsEvents(), unionsBlocks(), unionsSources(), retentionBounds()}
}

// slug names a union member in a case name: lowercase letters, digits and "-" as they are,
// "/" as "-", an uppercase letter as "upper-" and the letter, anything else as its code point.
func slug(s string) string {
	if s == "" {
		return "empty"
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '-' || r == '/':
			b.WriteByte('-')
		case r >= 'A' && r <= 'Z':
			b.WriteString("upper-" + string(r+'a'-'A'))
		default:
			fmt.Fprintf(&b, "-u%04x-", r)
		}
	}
	return strings.Trim(b.String(), "-")
}

// oneSource is a prepare of content "x" by me of the one session "s" whose surface holds ev.
func oneSource(name, reqs string, ev ...*wire.Object) gcase {
	return c(name, reqs, o("world", world(sess("s", events(ev...))), "agent", agent("me"), "content", "x", "references", refs(ref("s"))))
}

// eventTypes are the event types projection does not name: the rest of dsh-session's
// SessionEventMap, the keys its plugins merge in (dsh-compaction, dsh-session-title,
// dsh-commands, dsh-agent at 0.1.0-rc.8), and names a port author might invent or misspell.
var eventTypes = []string{
	// dsh-session's SessionEventMap
	"assistant/chunk", "tool/call", "turn/start", "turn/end", "step/start", "step/end",
	"todo/write", "request/header", "request/context", "session/end-seed",
	// merged in by plugins
	"compaction/start", "compaction/summary", "compaction/end", "compaction/prune",
	"session/title", "command/run", "command/done", "agent/inbox/spliced",
	// invented from the README or other harnesses
	"assistant/delta", "assistant/reasoning", "user/context", "system/message", "system/notice",
	"context/message", "compact/checkpoint", "tool/use", "message",
	// the named three, misspelt
	"User/Message", "user/message ", "user_message", "assistant/Message", "assistant_message",
	"tool/results", "tool_result", "",
}

// messageShaped is an event of type typ whose data has every field each named branch reads,
// with text: a port that sends the type down any branch projects it, where the contract fails.
func messageShaped(typ, text string) *wire.Object {
	return o("type", typ, "data", o("role", "user", "content", a(textBlock(text)), "source", o("kind", "user"),
		"message", o("role", "assistant", "content", a(textBlock(text)), "source", o("kind", "model")),
		"turn", 1, "step", 1))
}

func unionsEvents() gfile {
	var cs []gcase
	// The survivor of issue 26: an assistant/chunk as the session log writes it (a stream
	// chunk of a turn's step), between the user's message and the assembled answer.
	cs = append(cs, oneSource("assistant-chunk-fails", "SR-QUERY-3 SR-PROJ-3",
		userMsg("question"),
		o("type", "assistant/chunk", "data", o("turn", 1, "step", 1, "chunk", o("type", "text-delta", "text", "partial ans"))),
		asstMsg("partial answer")))
	cs = append(cs, oneSource("tool-call-fails", "SR-QUERY-3 SR-PROJ-3",
		userMsg("question"),
		o("type", "tool/call", "data", o("turn", 1, "step", 1, "callId", "c1", "name", "read", "arguments", "{}")),
		toolResult("body"), asstMsg("answer")))
	for _, typ := range eventTypes {
		cs = append(cs, oneSource("event-"+slug(typ)+"-fails", "SR-QUERY-3", userMsg("u"), messageShaped(typ, "from "+typ)))
	}
	// An event that is no object of the three shapes but has a named type is read as that
	// type: the type alone decides the branch, not the data's keys.
	cs = append(cs,
		oneSource("user-message-with-message-key-is-a-user-message", "SR-PROJ-1 SR-PROJ-2",
			o("type", "user/message", "data", o("role", "user", "content", a(textBlock("user text")), "source", o("kind", "user"),
				"message", o("content", a(textBlock("nested assistant text")))))),
		oneSource("assistant-message-with-user-keys-is-an-assistant-message", "SR-PROJ-2",
			o("type", "assistant/message", "data", o("role", "user", "content", a(textBlock("flat user text")), "source", o("kind", "user"),
				"message", o("content", a(textBlock("assistant text")))))),
		oneSource("tool-result-message-shaped-skipped", "SR-PROJ-3", messageShaped("tool/result", "tool text"), asstMsg("a")),
	)
	return gfile{"unions-events.yaml", protocol.OpPrepare, cs}
}

// blockTypes are the content block types textContent does not read: the rest of dsh-llm's
// ContentBlockMap, and the text-like names of other APIs and misspellings.
var blockTypes = []string{
	"reasoning", "image", "tool-call", "tool-result",
	"Text", "TEXT", "text ", "input_text", "output_text", "text-delta", "text_delta", "refusal", "thinking",
	"redacted_thinking", "tool_use", "tool_result", "document", "file", "audio", "markdown", "summary", "",
}

func unionsBlocks() gfile {
	var cs []gcase
	for _, typ := range blockTypes {
		// The block carries a string text in every message kind projection reads (user,
		// assistant, checkpoint), before and after a text block.
		b := o("type", typ, "text", "block "+typ)
		cs = append(cs, oneSource("block-"+slug(typ)+"-ignored", "SR-PROJ-4",
			userBlocks(b, textBlock("user kept")),
			asstBlocks(textBlock("assistant kept"), b),
			o("type", "user/message", "data", o("role", "user", "content", a(b, textBlock("checkpoint kept"), b),
				"source", o("kind", "plugin", "plugin", "compact")))))
	}
	// A message of only other blocks has no text and is skipped, in each kind; a checkpoint
	// of only other blocks is still counted compacted (projection keeps only text, the
	// statistics count the projection).
	for _, typ := range []string{"reasoning", "image", "tool-call"} {
		b := o("type", typ, "text", "only "+typ)
		cs = append(cs, oneSource("only-"+slug(typ)+"-blocks-skipped", "SR-PROJ-4",
			userBlocks(b), asstBlocks(b), o("type", "user/message", "data", o("role", "user", "content", a(b),
				"source", o("kind", "plugin", "plugin", "compact"))), userMsg("u")))
	}
	// A text block whose text is under another key has no text.
	cs = append(cs, oneSource("text-block-text-under-other-keys", "SR-PROJ-4",
		userBlocks(o("type", "text", "content", "under content"), o("type", "text", "value", "under value"), textBlock("t")),
		asstBlocks(o("type", "text", "delta", "under delta"), textBlock("a"))))
	return gfile{"unions-blocks.yaml", protocol.OpPrepare, cs}
}

// sourceKinds are the user-message source kinds projection does not take as "user": the rest
// of dsh-llm's MessageSourceMap and the session-reference kind the package adds, the
// SessionHeader seed kinds, and names a port author might invent or misspell.
var sourceKinds = []string{
	"plugin", "model", "tool", "session-reference",
	"parent", "hook", "disposed", "legacy", "subagent",
	"system", "assistant", "host", "human", "direct", "compact", "checkpoint", "context", "goal", "cron",
	"User", "USER", "user ", "users", "",
}

// checkpointPlugins are plugin names that are not the compact checkpoint marker's.
var checkpointPlugins = []string{"compaction", "dsh-compact", "dsh-compaction", "Compact", "compact ", "summary", "memory", ""}

func unionsSources() gfile {
	var cs []gcase
	for _, kind := range sourceKinds {
		// Alone, and with the marker's plugin key: neither is the user's nor a checkpoint.
		cs = append(cs, oneSource("source-kind-"+slug(kind)+"-skipped", "SR-PROJ-1 SR-PROJ-3",
			sourcedMsg("from kind "+kind, o("kind", kind)),
			sourcedMsg("from kind "+kind+" with plugin compact", o("kind", kind, "plugin", "compact")),
			userMsg("u")))
	}
	for _, plugin := range checkpointPlugins {
		cs = append(cs, oneSource("plugin-"+slug(plugin)+"-not-a-checkpoint", "SR-PROJ-1 SR-PROJ-3",
			sourcedMsg("from plugin "+plugin, o("kind", "plugin", "plugin", plugin)), userMsg("u")))
	}
	// A checkpoint whose marker has the plugin under another key, or the kind under plugin.
	cs = append(cs, oneSource("checkpoint-marker-keys-exact", "SR-PROJ-1",
		sourcedMsg("name key", o("kind", "plugin", "name", "compact")),
		sourcedMsg("swapped", o("kind", "compact", "plugin", "plugin")),
		sourcedMsg("kept", o("kind", "plugin", "plugin", "compact")), userMsg("u")))
	// An assistant message is projected whatever its source says (SR-PROJ-2), and a user
	// message whatever its role says (only the event type and source decide).
	var asst []*wire.Object
	for _, kind := range []string{"model", "user", "tool", "plugin", "session-reference", "system", ""} {
		asst = append(asst, o("type", "assistant/message", "data", o("message", o("role", "assistant",
			"content", a(textBlock("assistant with source "+kind)), "source", o("kind", kind)))))
	}
	asst = append(asst, o("type", "assistant/message", "data", o("message", o("role", "assistant", "content", a(textBlock("assistant without source"))))))
	cs = append(cs, oneSource("assistant-any-source-kind", "SR-PROJ-2", asst...))
	var roles []*wire.Object
	for _, role := range []string{"user", "assistant", "system", "tool", ""} {
		roles = append(roles, o("type", "user/message", "data", o("role", role, "content", a(textBlock("user role "+role)), "source", o("kind", "user"))))
		roles = append(roles, o("type", "assistant/message", "data", o("message", o("role", role, "content", a(textBlock("assistant role "+role)), "source", o("kind", "model")))))
	}
	roles = append(roles, o("type", "user/message", "data", o("content", a(textBlock("user without role")), "source", o("kind", "user"))))
	cs = append(cs, oneSource("role-not-read", "SR-PROJ-1 SR-PROJ-2 SR-PROJ-5", roles...))
	return gfile{"unions-sources.yaml", protocol.OpPrepare, cs}
}

// retentionBounds holds the truncation cases that tell the seed's bisection (upper bound the
// target) from one whose upper bound starts one byte lower (or higher). Whether a candidate
// fits is not monotone in the bytes kept: where the tail starts at a BOM, keeping it adds 3
// bytes to the count of bytes kept but none to the text, and when that count of omitted bytes
// falls below 100 the notice gets one digit shorter. Two bisections over ranges that differ by
// one probe different points and can land on either side of such a dip. Found by searching, for
// texts "a"×x + BOM + "a"×y, every target from 28 bytes up, with the package and with a copy
// whose `let high = maxOutputBytes` was `maxOutputBytes - 1` (the truncation differs for 147 of
// the 1,184,739 pairs of text and target), then every budget of the whole preparation at which the copies'
// answers differ; these are the texts and budgets found, plain and escape-heavy.
func retentionBounds() gfile {
	me := agent("me")
	one := func(name string, budget int, text string) gcase {
		return c(name, "SR-RET-6 SR-RET-8 SR-RET-9", o("world", world(sess("s", events(userMsg(text)))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", budget)))
	}
	oneFixed := fixedSize("s", "s", "user")
	var cs []gcase
	for _, b := range []struct {
		name, text string
		extra      int
	}{
		{"bom-tail-101-1", strings.Repeat("a", 101) + "\ufeff" + "a", 39},
		{"bom-tail-103-3", strings.Repeat("a", 103) + "\ufeff" + "aaa", 43},
		{"bom-tail-105-5", strings.Repeat("a", 105) + "\ufeff" + "aaaaa", 47},
		{"bom-tail-letters", strings.Repeat("abcdefgh", 13) + "\ufeff" + "xyz", 43},
		{"bom-tail-escape-heavy", strings.Repeat("<\"\n", 34) + "\ufeff" + "<", 281},
		// and one byte above it (`maxOutputBytes + 1`)
		{"bom-tail-124-24", strings.Repeat("a", 124) + "\ufeff" + strings.Repeat("a", 24), 85},
		{"bom-tail-126-26", strings.Repeat("a", 126) + "\ufeff" + strings.Repeat("a", 26), 89},
	} {
		for d := -1; d <= 1; d++ {
			cs = append(cs, one(fmt.Sprintf("bisection-upper-bound-%s-budget-plus-%03d", b.name, b.extra+d), oneFixed+b.extra+d, b.text))
		}
	}
	// The other boundaries of retention the boundary pass moved by one and no case held
	// (conformance/adapters/node-upstream/boundary-equivalent.json lists the moves that
	// cannot be seen):
	two := fixedSize("s", "s", "user", "user")
	twoMixed := fixedSize("s", "s", "user", "assistant")
	cs = append(cs,
		// one byte over: an older message is dropped (`size() > maxBytes`, not `> maxBytes + 1`,
		// where the newest would be truncated instead)
		c("drop-at-one-byte-over", "SR-RET-2 SR-RET-5", o("world", world(sess("s", events(userMsg("first message"), asstMsg("second message!")))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", twoMixed+13+15-1))),
		// a one-byte text is the longest and is truncated to nothing, 1 byte omitted, truncated
		// (the longest search starts from 0 bytes, `omittedBytes > 0`)
		one("one-byte-text-truncated-to-nothing", oneFixed, "x"),
		// the longest by one byte is the one truncated (`bytes > longestBytes`)
		c("longest-by-one-byte-truncated", "SR-RET-4", o("world", world(sess("s", events(checkpointMsg(strings.Repeat("a", 40)), userMsg(strings.Repeat("b", 41))))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", two+45))),
		// both texts truncated to nothing, one after the other: the second truncation is
		// compared with its own text, not a neighbour's (already "")
		c("both-truncated-to-nothing-newer-longer", "SR-RET-4 SR-RET-6", o("world", world(sess("s", events(checkpointMsg(strings.Repeat("a", 40)), userMsg(strings.Repeat("b", 41))))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", two))),
		c("both-truncated-to-nothing-tie", "SR-RET-4 SR-RET-6", o("world", world(sess("s", events(checkpointMsg(strings.Repeat("a", 40)), userMsg(strings.Repeat("b", 40))))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", two))),
	)
	return gfile{"retention-bounds.yaml", protocol.OpPrepare, cs}
}
