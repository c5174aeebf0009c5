package cases_test

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

// Found by porting the contract to Ruby from the spec alone (TRAP-STR-TRIM): a formatter that
// strips the label (Ruby's String#strip, which takes ASCII whitespace and NUL from both ends)
// passed every fixed check, which trimmed titles, parsed labels and references' labels but no
// label given to mention.format. The seed escapes the label and changes nothing else
// (SR-MENTION-1); an id used as the label is kept alike (SR-MENTION-2).

func trimFormatFiles() []gfile {
	texts := append(trimmed[:len(trimmed):len(trimmed)], struct{ name, text string }{"nul", "\x00nul\x00"})
	var cs []gcase
	for _, t := range texts {
		cs = append(cs, c("label-"+t.name+"-kept", "SR-MENTION-1 SR-STR-1",
			o("sessionId", "s-1", "label", t.text)).trap("TRAP-STR-TRIM"))
	}
	cs = append(cs,
		c("id-as-label-spaces-kept", "SR-MENTION-2 SR-STR-1", o("sessionId", " padded ")).trap("TRAP-STR-TRIM"),
		c("id-as-label-nul-kept", "SR-MENTION-2 SR-STR-1", o("sessionId", "\x00nul\x00", "label", nil)).trap("TRAP-STR-TRIM"),
	)
	return []gfile{{"traps-trim-mention-format.yaml", protocol.OpMentionFormat, cs}}
}
