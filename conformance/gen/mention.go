package gen

import (
	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// MentionText draws mention.parse text assembled from mention fragments, each aimed at a
// partition of the seed's mention regex
// /@\[((?:\\.|[^\\\]])*)\]\((dsh-session:[^\s)]*)\)|(dsh-session:[A-Za-z0-9_-]+)/gu:
// well-formed mentions with trap labels, labels with escapes (\], \\, \x, a trailing
// backslash), labels across lines (raw line terminators match [^\\\]], escaped ones do not
// match \\.), unclosed brackets and parentheses, bare URIs next to Markdown ones and inside
// words, URIs ended by JavaScript whitespace and by characters other languages call space,
// and non-canonical payloads (which fail the whole parse, so they come rarely).
func MentionText(t *rapid.T, o Options) string {
	n := rapid.IntRange(1, 6).Draw(t, "fragments")
	var b wire.Builder
	for i := 0; i < n; i++ {
		b.WriteString(mentionFragment(t, o))
	}
	return b.String()
}

func fragID(t *rapid.T, o Options) string {
	if rapid.IntRange(0, 3).Draw(t, "frag.trapID?") == 0 {
		return trapString(rapid.IntRange(0, len(Traps())-1).Draw(t, "frag.trapID"), o)
	}
	return rapid.SampledFrom(idPool).Draw(t, "frag.id")
}

func fragLabel(t *rapid.T, o Options) string {
	switch rapid.IntRange(0, 3).Draw(t, "frag.labelKind") {
	case 0:
		return trapString(rapid.IntRange(0, len(Traps())-1).Draw(t, "frag.labelTrap"), o)
	case 1:
		return ""
	default:
		return String(t, "frag.label", o, 3)
	}
}

// fragment kinds, in the order mentionFragment draws them.
func mentionFragment(t *rapid.T, o Options) string {
	id := fragID(t, o)
	u := contract.URI(id)
	switch rapid.IntRange(0, 15).Draw(t, "frag.kind") {
	case 0, 1: // a well-formed mention, its label escaped by Format
		return contract.Mention(id, fragLabel(t, o))
	case 2: // raw label escapes: \] \\ \x and a backslash before a line terminator
		esc := rapid.SampledFrom([]string{`\]`, `\\`, `\x`, `\[`, `\@`, "\\\u00e9", "\\😀", `\\\]`, "\\\n", "\\\u2028", "\\\r"}).Draw(t, "frag.escape")
		return "@[a" + esc + "b](" + u + ")"
	case 3: // a label across lines: raw line terminators are label characters
		lt := rapid.SampledFrom([]string{"\n", "\r\n", "\u2028", "\u2029", "\r", "\u0085"}).Draw(t, "frag.lt")
		return "@[first" + lt + "second](" + u + ")"
	case 4: // unclosed: a bracket or parenthesis never closed, or a trailing backslash
		return rapid.SampledFrom([]string{
			"@[" + id, "@[" + id + "](" + u, "@[" + id + "\\](" + u + ")", "@[" + id + "]" + u, "@[" + id + "] (" + u + ")",
			"@[[" + id + "](" + u + ")", "@[" + id + "]](" + u + ")", "[" + id + "](" + u + ")", "@ [" + id + "](" + u + ")",
			"@[" + id + "](" + u + " )", "@[" + id + "](<" + u + ">)",
		}).Draw(t, "frag.unclosed")
	case 5, 6: // a bare URI, alone, inside a word, or right before or after a mention
		switch rapid.IntRange(0, 3).Draw(t, "frag.bareKind") {
		case 0:
			return " " + u + " "
		case 1:
			return "word" + u + "word"
		case 2:
			return u + contract.Mention(id, "x")
		default:
			return contract.Mention(id, "x") + u
		}
	case 7, 8: // a URI ended by a character: JavaScript's \s ends it, other spaces do not
		end := rapid.SampledFrom([]string{"\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u202f", "\u205f", "\u3000", "\ufeff", "\t", "\v",
			"\u0085", "\u180e", "\u200b", "\u001c", "\u001f", "\u2060", ")", "(", "]", ".", ","}).Draw(t, "frag.end")
		if rapid.Bool().Draw(t, "frag.endMarkdown") {
			return "@[l](" + u + end + ")"
		}
		return u + end
	case 9: // a label holding a URI, or a mention inside a label
		return rapid.SampledFrom([]string{"@[" + u + "](" + u + ")", "@[@[x](" + u + ")](" + u + ")", "@[x](" + u + ")(" + u + ")"}).Draw(t, "frag.nested")
	case 10: // a non-canonical payload: fails the whole parse
		if rapid.IntRange(0, 2).Draw(t, "frag.bad?") > 0 {
			return "plain "
		}
		pool := nonCanonicalJSON
		if !o.LoneSurrogates {
			pool = wellFormedNonCanonicalJSON
		}
		bad := contract.URIOf(rapid.SampledFrom(pool).Draw(t, "frag.json"))
		switch rapid.IntRange(0, 3).Draw(t, "frag.badKind") {
		case 0:
			return "@[bad](" + bad + ")"
		case 1:
			return " " + bad + " "
		case 2:
			return rapid.SampledFrom([]string{"@[bad](" + u + "=)", "@[bad](" + strayBits(u) + ")", " " + strayBits(u) + " "}).Draw(t, "frag.stray")
		default:
			return "@[bad](dsh-session:)"
		}
	case 11: // lookalikes that are no reference: the scheme alone, another case, a break
		return rapid.SampledFrom([]string{"dsh-session:", "dsh-session: ", "DSH-SESSION:" + u[len(contract.Scheme):], "dsh-session:!", "dsh_session:" + u[len(contract.Scheme):], "@[]", "@[](", "@()"}).Draw(t, "frag.lookalike")
	case 12: // a trap character between fragments
		return trapString(rapid.IntRange(0, len(Traps())-1).Draw(t, "frag.trap"), o)
	default: // prose
		return String(t, "frag.prose", o, 3)
	}
}
