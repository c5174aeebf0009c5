package gen

import (
	"sync"
)

// Trap is one string where a language's defaults part ways with JavaScript's: a port that
// uses its standard library's case mapping, whitespace class, UTF-8 handling or JSON encoder
// gets it wrong.
type Trap struct {
	// S is the text (WTF-8: lone surrogates are their 3-byte generalized UTF-8 form).
	S string
	// Why names the default it trips.
	Why string
	// Lower is S lowercased as the contract lowercases (SR-STR-4: JavaScript's
	// toLowerCase, Unicode 17): what a query must hold to match S where a port's own
	// lowercasing does not.
	Lower string
}

// Traps returns the trap strings the generators place in every string position (ids,
// labels, titles, cwds, queries, message texts, mention labels). It is the one accessor
// generators use, so the list can be replaced by the porting-trap catalogue's without
// touching them. The slice is shared: do not modify it.
func Traps() []Trap { return trapsOnce() }

var trapsOnce = sync.OnceValue(func() []Trap {
	var out []Trap
	add := func(why string, ss ...string) {
		for _, s := range ss {
			l, cased := trapLower[s]
			if !cased {
				l = s
			}
			out = append(out, Trap{S: s, Why: why, Lower: l})
		}
	}
	// Case mappings added after Unicode 9: a language whose tables are older (or newer)
	// than the JavaScript engine's lowers these differently. Node 20 is Unicode 15.1.
	add("Georgian Mtavruli U+1C90–U+1CBF lowers to Mkhedruli only since Unicode 11",
		"\u1c90", "\u1cb0", "\u1cbd", "\u1cbf", "ᲛᲐᲠᲗᲚᲘ")
	add("Latin Extended-D U+A7C0.. case pairs added in Unicode 12–16",
		"\ua7c0", "\ua7c2", "\ua7c4", "\ua7c5", "\ua7c6", "\ua7c7", "\ua7c9", "\ua7cb", "\ua7cc", "\ua7d0", "\ua7d6", "\ua7d8", "\ua7da", "\ua7dc", "\ua7f5")
	add("Adlam U+1E900 capitals (Unicode 9), Osage U+104B0, Vithkuqi U+10570, Garay U+10D50",
		"\U0001e900", "\U0001e921", "\U000104b0", "\U00010570", "\U00010d50")
	add("Cyrillic U+1C89 and other Unicode 16 case pairs", "\u1c89", "\u2c2f")
	// Final sigma: JavaScript lowers Σ to ς after a cased letter (case-ignorables skipped)
	// and not before one; simple mappings always give σ.
	add("final sigma after a cased letter, across Case_Ignorable characters",
		"ΑΣ", "ΑΣ ", "Α'Σ", "Α\u0345Σ", "Α\u00adΣ", "ΑΣ\u0301", "ΑΣΑ", "Σ", "ΑΣ.", "\U0001e900Σ", "ᲐΣ", "ΑΣ\u200d", "A\u00b7Σ")
	// JavaScript's \s and String.prototype.trim: Unicode White_Space plus U+FEFF, and not
	// U+0085, U+180E, U+200B or the information separators U+001C–U+001F that Python's
	// str.isspace and .NET's \s count.
	add("in JavaScript's \\s", "\ufeff", "\u00a0", "\u1680", "\u2000", "\u2005", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\v", "\f")
	add("not in JavaScript's \\s, though other languages treat it as space",
		"\u0085", "\u001c", "\u001d", "\u001e", "\u001f", "\u180e", "\u200b", "\u2060")
	add("byte order mark (U+FEFF, also above): stripped by TextDecoder at the start of each decoded part", "\ufeffa", "\ufeff\ufeff", "a\ufeff")
	add("lone surrogates (only sent to adapters declaring the feature)", "\xed\xa0\x80", "\xed\xbf\xbf", "a\xed\xb0\x80", "\xed\xa0\xbd")
	add("U+0130 İ lowers to i + U+0307 in JavaScript, to i in simple mappings, to i̇ or i by locale",
		"\u0130", "İSTANBUL", "\u0049\u0307", "ı")
	add("full case mappings that change length: ẞ ß ŉ ǰ ΐ ﬀ", "\u1e9e", "\u00df", "\u0149", "\u01f0", "\u0390", "\ufb00", "\u212a", "\u2126")
	add("astral characters: 2 UTF-16 units, 4 UTF-8 bytes, 1 code point", "😀", "𐐀", "\U0001f1e8\U0001f1f3", "\U0010fffd")
	add("noncharacters and replacement", "\uffff", "\ufffe", "\ufffd")
	return out
})

// trapLower is each trap's lowercase where it differs from the trap (every other trap is its
// own lowercase). It is a table, not a case mapping: the generators only need these strings'
// lowercase, the kit's Unicode tables are not the contract's, and the kit must not define the
// contract's lowercasing a second time. conformance/refadapter checks it against the
// reference's (TestTrapLowerIsTheContracts).
var trapLower = map[string]string{
	"\u1c90":                               "\u10d0",
	"\u1cb0":                               "\u10f0",
	"\u1cbd":                               "\u10fd",
	"\u1cbf":                               "\u10ff",
	"\u1c9b\u1c90\u1ca0\u1c97\u1c9a\u1c98": "\u10db\u10d0\u10e0\u10d7\u10da\u10d8",
	"\ua7c0":                               "\ua7c1",
	"\ua7c2":                               "\ua7c3",
	"\ua7c4":                               "\ua794",
	"\ua7c5":                               "\u0282",
	"\ua7c6":                               "\u1d8e",
	"\ua7c7":                               "\ua7c8",
	"\ua7c9":                               "\ua7ca",
	"\ua7cb":                               "\u0264",
	"\ua7cc":                               "\ua7cd",
	"\ua7d0":                               "\ua7d1",
	"\ua7d6":                               "\ua7d7",
	"\ua7d8":                               "\ua7d9",
	"\ua7da":                               "\ua7db",
	"\ua7dc":                               "\u019b",
	"\ua7f5":                               "\ua7f6",
	"\U0001e900":                           "\U0001e922",
	"\U0001e921":                           "\U0001e943",
	"\U000104b0":                           "\U000104d8",
	"\U00010570":                           "\U00010597",
	"\U00010d50":                           "\U00010d70",
	"\u1c89":                               "\u1c8a",
	"\u2c2f":                               "\u2c5f",
	"\u0391\u03a3":                         "\u03b1\u03c2",
	"\u0391\u03a3 ":                        "\u03b1\u03c2 ",
	"\u0391'\u03a3":                        "\u03b1'\u03c2",
	"\u0391\u0345\u03a3":                   "\u03b1\u0345\u03c2",
	"\u0391\u00ad\u03a3":                   "\u03b1\u00ad\u03c2",
	"\u0391\u03a3\u0301":                   "\u03b1\u03c2\u0301",
	"\u0391\u03a3\u0391":                   "\u03b1\u03c3\u03b1",
	"\u03a3":                               "\u03c3",
	"\u0391\u03a3.":                        "\u03b1\u03c2.",
	"\U0001e900\u03a3":                     "\U0001e922\u03c2",
	"\u1c90\u03a3":                         "\u10d0\u03c2",
	"\u0391\u03a3\u200d":                   "\u03b1\u03c2\u200d",
	"A\u00b7\u03a3":                        "a\u00b7\u03c2",
	"\u0130":                               "i\u0307",
	"\u0130STANBUL":                        "i\u0307stanbul",
	"I\u0307":                              "i\u0307",
	"\u1e9e":                               "\u00df",
	"\u212a":                               "k",
	"\u2126":                               "\u03c9",
	"\U00010400":                           "\U00010428",
}

// casedTraps are the traps (well-formed ones) whose lowercase differs from them.
var casedTraps = sync.OnceValue(func() []Trap {
	var out []Trap
	for _, tr := range Traps() {
		if !hasSurrogate(tr.S) && tr.Lower != tr.S {
			out = append(out, tr)
		}
	}
	return out
})

// trap draws a trap string; without lone surrogates enabled, those are replaced by U+FFFD
// (the value a well-formed port would see).
func trapString(pick int, o Options) string {
	ts := Traps()
	s := ts[pick%len(ts)].S
	if !o.LoneSurrogates && hasSurrogate(s) {
		return "\ufffd"
	}
	return s
}

// hasSurrogate reports whether s (WTF-8) holds an encoded surrogate.
func hasSurrogate(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == 0xED && s[i+1] >= 0xA0 {
			return true
		}
	}
	return false
}
