package cases

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// PartTraps narrows the traps a chunked case names (ChunkParts) to those that can explain a
// difference on its input part: a port that falls into a trap answers as JavaScript does on
// inputs outside the trap's reach, so a trap that cannot reach the part that differs is not
// the likeliest cause. It returns traps unchanged when none is left, or no rule narrows them.
//
//   - TRAP-CASE-CODE-UNIT reaches only text with a code point above U+FFFF or a lone
//     surrogate (a port that maps code units gets every other code point right);
//   - TRAP-CASE-ASCII-ONLY and TRAP-CASE-UNICODE-VERSION reach only non-ASCII text (ASCII's
//     lowercase is the same in every table and every ASCII-only mapping);
//   - TRAP-CASE-FINAL-SIGMA-MISSING reaches only a part where the contract writes a final
//     sigma: a port with no rule writes "σ", which is the contract's answer everywhere else.
func PartTraps(traps []string, p ChunkPart) []string {
	text := p.Query + p.Title
	kept := slices.DeleteFunc(slices.Clone(traps), func(id string) bool {
		switch id {
		case "TRAP-CASE-CODE-UNIT":
			return !beyondBMP(text)
		case "TRAP-CASE-ASCII-ONLY", "TRAP-CASE-UNICODE-VERSION":
			return isASCII(text)
		case "TRAP-CASE-FINAL-SIGMA-MISSING":
			return !strings.Contains(p.Title, "ς")
		}
		return false
	})
	if len(kept) == 0 {
		return traps
	}
	return kept
}

// beyondBMP reports whether s (WTF-8) holds a code point above U+FFFF or a lone surrogate.
func beyondBMP(s string) bool {
	for len(s) > 0 {
		r, n := wire.DecodeRune(s)
		if r > 0xFFFF || (r >= 0xD800 && r <= 0xDFFF) {
			return true
		}
		s = s[n:]
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
