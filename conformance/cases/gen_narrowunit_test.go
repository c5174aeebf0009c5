package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// A mention scanner over UTF-16 code units compares each unit with ASCII punctuation as the
// unit itself, never its low byte. Found by porting the contract to Rust from the spec alone:
// a label scan written `units[j] as u8 != b']'` (the cast truncates a u16 to its low byte)
// passed all 1,970 checks with --require-all, because no label held a code unit whose low
// byte is `]` or `\` (U+015D ŝ, U+305D そ, U+015C Ŝ, U+305C ぜ): such a label ends there, the
// Markdown form fails, and the bare URI inside it is parsed instead (TRAP-RE-CODE-UNITS).
// The formatter's escape written the same way, `if u as u8 == b']'`, passed too: it puts a
// `\` before そ, and parsing takes `\そ` back to そ, so the format-parse round trip cannot see
// it; only fixed format cases can.

func narrowUnitFiles() []gfile {
	p := func(name, text string) gcase {
		return c(name, "SR-MENTION-3 SR-MENTION-4", o("text", text)).trap("TRAP-RE-CODE-UNITS")
	}
	f := func(name string, args *wire.Object) gcase {
		return c(name, "SR-MENTION-1 SR-MENTION-2", args).trap("TRAP-RE-CODE-UNITS")
	}
	format := gfile{"traps-narrow-unit-mention-format.yaml", protocol.OpMentionFormat, []gcase{
		f("label-u305d-low-byte-is-bracket-not-escaped", o("sessionId", "a", "label", "aそb")),
		f("label-u015d-low-byte-is-bracket-not-escaped", o("sessionId", "a", "label", "ŝ")),
		f("label-u305c-low-byte-is-backslash-not-escaped", o("sessionId", "a", "label", "ぜx")),
		f("label-u015c-low-byte-is-backslash-not-escaped", o("sessionId", "a", "label", "xŜ")),
		f("label-u5d5d-not-escaped-beside-real-bracket", o("sessionId", "a", "label", "嵝]")),
		f("id-as-label-u305d-not-escaped", o("sessionId", "そうだ")),
	}}
	return []gfile{format, {"traps-narrow-unit-mention-parse.yaml", protocol.OpMentionParse, []gcase{
		p("label-u305d-low-byte-is-bracket", "@[aそb](dsh-session:ImEi)"),
		p("label-u015d-low-byte-is-bracket", "@[ŝ](dsh-session:ImEi)"),
		p("label-u305c-low-byte-is-backslash", "@[ぜx](dsh-session:ImEi)"),
		p("label-u015c-low-byte-is-backslash", "@[xŜ](dsh-session:ImEi)"),
		p("label-u5d5d-both-bytes-bracket", "see @[嵝](dsh-session:ImEi) now"),
		p("uri-u0129-low-byte-is-paren", "@[x](dsh-session:ImEiĩ)"),
		p("at-u0140-low-byte-is-at", "ŀ[x](dsh-session:ImEi)"),
		p("bare-payload-then-u0141", "dsh-session:ImEiŁ"),
	}}}
}
