// Package gen holds rapid generators for the contract's inputs: JavaScript strings that aim
// at the places ports go wrong, mentions and URIs, worlds of sessions and surfaces, configs,
// and whole protocol requests for every op.
package gen

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Options select what generated strings may hold.
type Options struct {
	// LoneSurrogates allows unpaired surrogates (only for adapters declaring the feature).
	LoneSurrogates bool
}

// hostile are code points and snippets that break naive ports: JSON escapes, controls, the
// tag character, line terminators JavaScript knows and Go does not, BOM, JavaScript-only
// whitespace, case-mapping specials, multi-byte and astral text.
var hostile = []string{
	"<", ">", "&", `"`, `\`, "/", "\n", "\r", "\t", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f",
	"\u2028", "\u2029", "\ufeff", "\u00a0", "\u0085", "\u1680", "\u2000", "\u200a", "\u202f", "\u3000",
	"\u03a3", "\u03c3", "\u0130", "\u0345", "\u00df", "\u1e9e", "\u2126", "\u212a", "İ", "Σ", "ΑΣ",
	"é", "e\u0301", "中", "文", "日本語", "😀", "🇨🇳", "𐐀", "\U0001e900", "\u00b5", "\uffff", "\ufffd",
	"]", "[", "(", ")", "@", "@[", "](", "dsh-session:", "</referenced-sessions>", "\\]", "\\\\",
}

// String draws a JavaScript string (WTF-8) rich in hostile pieces.
func String(t *rapid.T, label string, o Options, maxPieces int) string {
	n := rapid.IntRange(0, maxPieces).Draw(t, label+".pieces")
	var b wire.Builder
	for i := 0; i < n; i++ {
		switch rapid.IntRange(0, 11).Draw(t, label+".kind") {
		case 10, 11: // a porting trap (traps.go) in every string position
			b.WriteString(trapString(rapid.IntRange(0, len(Traps())-1).Draw(t, label+".trap"), o))
		case 0, 1, 2:
			b.WriteString(rapid.StringMatching(`[a-zA-Z0-9 _.-]{1,6}`).Draw(t, label+".ascii"))
		case 3, 4, 5:
			b.WriteString(rapid.SampledFrom(hostile).Draw(t, label+".hostile"))
		case 6:
			b.WriteRune(rapid.RuneFrom(nil, &rangeTableAll).Draw(t, label+".rune"))
		case 7:
			if o.LoneSurrogates {
				b.WriteUnit(uint16(rapid.IntRange(0xD800, 0xDFFF).Draw(t, label+".surrogate")))
			} else {
				b.WriteString("😀")
			}
		case 8:
			b.WriteString(rapid.StringMatching(`[ΑΒΓΣσςİIıi\x{0345}\x{0307}'.:]{1,4}`).Draw(t, label+".greek"))
		default:
			b.WriteString(rapid.StringOfN(rapid.RuneFrom([]rune("中文字😀é\u00a0\u2028")), 1, 4, -1).Draw(t, label+".mb"))
		}
	}
	return b.String()
}

// ID draws a session id: usually from a small pool so references hit sessions, sometimes a
// hostile string (empty included).
func ID(t *rapid.T, label string, o Options) string {
	if rapid.IntRange(0, 4).Draw(t, label+".hostile?") == 0 {
		return String(t, label, o, 3)
	}
	return rapid.SampledFrom(idPool).Draw(t, label)
}

var idPool = []string{"s-1", "s-2", "s-3", "s-4", "s-5", "S-1", "agent", "019a-ΣΑ", "ses 6"}

// URI draws a string that is a canonical URI, or one near it that must be rejected.
func URI(t *rapid.T, label string, o Options) string {
	id := ID(t, label+".id", o)
	u := contract.URI(id)
	switch rapid.IntRange(0, 7).Draw(t, label+".mutation") {
	case 0: // drop the last payload character
		if len(u) > len(contract.Scheme)+1 {
			return u[:len(u)-1]
		}
		return u
	case 1: // append a payload character
		return u + rapid.SampledFrom([]string{"A", "_", "-", "=", "0"}).Draw(t, label+".extra")
	case 2: // a non-canonical JSON text for an id
		pool := nonCanonicalJSON
		if !o.LoneSurrogates {
			pool = wellFormedNonCanonicalJSON
		}
		return contract.URIOf(rapid.SampledFrom(pool).Draw(t, label+".json"))
	case 3: // the scheme alone, or in another case
		return rapid.SampledFrom([]string{"dsh-session:", "DSH-SESSION:" + u[len(contract.Scheme):], "dsh-session:!!", "dsh-session:AA"}).Draw(t, label+".odd")
	case 4: // stray bits: the last payload character with an unused low bit set, which a
		// decoder ignores, so only re-encoding the URI (not the JSON) rejects it
		return strayBits(u)
	default:
		return u
	}
}

const base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// strayBits sets the lowest unused bit of the last character of u's payload, when the
// payload's length leaves bits unused (2 or 3 characters in the last quantum).
func strayBits(u string) string {
	p := u[len(contract.Scheme):]
	if len(p)%4 < 2 {
		return u
	}
	last := strings.IndexByte(base64URL, p[len(p)-1])
	if last < 0 {
		return u
	}
	return u[:len(u)-1] + string(base64URL[last|1])
}

var nonCanonicalJSON = []string{
	`"\u0061"`, ` "a"`, `"a" `, `"\/"`, `"\uD83D\uDE00"`, `"\u00e9"`, `"<"`, `1`, `null`, `["a"]`, `{"a":1}`,
	`"\x"`, `'a'`, `"\u2028"`, "\"\u2028\"", `"\ud800"`, `"\uD800"`, "\"\x7f\"",
}

// wellFormedNonCanonicalJSON is nonCanonicalJSON without "\ud800", the canonical JSON of a
// lone surrogate, which only an adapter with lone surrogates can decode.
var wellFormedNonCanonicalJSON = slices.DeleteFunc(slices.Clone(nonCanonicalJSON), func(s string) bool { return s == `"\ud800"` })

// Text draws message text mixing prose, well-formed mentions, bare URIs and broken mentions.
func Text(t *rapid.T, label string, o Options) string {
	n := rapid.IntRange(0, 5).Draw(t, label+".parts")
	var b wire.Builder
	for i := 0; i < n; i++ {
		switch rapid.IntRange(0, 8).Draw(t, label+".part") {
		case 0, 1:
			b.WriteString(String(t, label+".prose", o, 4))
		case 2, 3:
			id := ID(t, label+".id", o)
			lbl := id
			if rapid.Bool().Draw(t, label+".labelled") {
				lbl = String(t, label+".label", o, 4)
			}
			b.WriteString(contract.Mention(id, lbl))
		case 4:
			b.WriteString(contract.URI(ID(t, label+".bare", o)))
		case 5:
			b.WriteString("@[" + String(t, label+".raw", o, 3) + "](" + URI(t, label+".uri", o) + ")")
		case 6:
			b.WriteString(rapid.SampledFrom(brokenMentions).Draw(t, label+".broken"))
		default:
			b.WriteString(URI(t, label+".near", o))
		}
	}
	return b.String()
}

var brokenMentions = []string{
	"@[x](dsh-session:)", "@[x](dsh-session: )", "@[x](dsh-session:ImEi", "@[x\\\n](dsh-session:ImEi)",
	"@[x]](dsh-session:ImEi)", "@[x\\](dsh-session:ImEi)", "@[](dsh-session:ImEi)", "word" + contract.URI("a") + "word",
	"dsh-session:", "dsh-session:!", "@[a](dsh-session:ImEi\u00a0)", "@[a](dsh-session:ImEi\u2028)", "@[a\u2028b](dsh-session:ImEi)",
	"@@[a](dsh-session:ImEi)", "@[a](dsh-session:ImEi))", "@[a](dsh-session:ImE)",
}

// rangeTableAll draws any code point but surrogates.
var rangeTableAll = allRunes()

func allRunes() unicode.RangeTable {
	return unicode.RangeTable{R16: []unicode.Range16{{Lo: 0x20, Hi: 0xD7FF, Stride: 1}, {Lo: 0xE000, Hi: 0xFFFF, Stride: 1}}, R32: []unicode.Range32{{Lo: 0x10000, Hi: 0x10FFFF, Stride: 1}}}
}

// Number draws a JavaScript number for seqs and timestamps.
func Number(t *rapid.T, label string) float64 {
	switch rapid.IntRange(0, 8).Draw(t, label+".kind") {
	case 0:
		return rapid.Float64().Draw(t, label+".float")
	case 1:
		return float64(rapid.Int64Range(-1<<53, 1<<53).Draw(t, label+".big"))
	case 2:
		return rapid.SampledFrom(numberEdges).Draw(t, label+".edge")
	case 7:
		// A power of two: its rounding interval is lopsided (TRAP-JSON-NUMBER-DIGITS).
		return math.Ldexp(1, rapid.IntRange(-1074, 1023).Draw(t, label+".pow2"))
	case 8:
		// i + k/2^(j+1), k odd, i in [2^b, 2^(b+1)): exactly halfway between two j-digit
		// fractions, where Number::toString takes the even one (TRAP-JSON-NUMBER-DIGITS). It is
		// a tie of the shortest candidates when j is the fraction's length there: the double
		// has 16 or 17 significant digits, so j is that less the integer's digits.
		b := rapid.IntRange(0, 50).Draw(t, label+".binade")
		intDigits := int(float64(b)*math.Log10(2)) + 1
		j := 17 - intDigits - rapid.IntRange(0, 1).Draw(t, label+".shorter")
		j = max(1, min(j, 51-b)) // k/2^(j+1) exact in the double
		i := math.Ldexp(1, b) + float64(rapid.Int64Range(0, 1<<b-1).Draw(t, label+".integer"))
		k := 2*rapid.Int64Range(0, 1<<j-1).Draw(t, label+".odd") + 1
		return i + math.Ldexp(float64(k), -(j+1))
	default:
		return float64(rapid.IntRange(0, 2000).Draw(t, label+".small"))
	}
}

// numberEdges are where number-to-string conversions part ways with JavaScript's: the
// switch to an exponent at 1e21 and below 1e-6 (Go's %g switches at 1e6 and 1e-4), shortest
// round-trip digits, the extremes, and integers beyond 2^53.
var numberEdges = []float64{
	1e6, 123456789, 999999999999999900000, 1e21, 1.5e21, 1e-6, 1e-7, 1.5e-7, 0.1,
	0.30000000000000004, 5e-324, 1.7976931348623157e308, -1.5, -1e21, 1 << 53, 1<<53 + 2, 1e300,
}

// must marshals a JSON value built here.
func must(v any) any {
	if _, err := wire.Marshal(v); err != nil {
		panic(fmt.Sprintf("gen: %v", err))
	}
	return v
}

// Request draws a request for op, any op of the protocol (host.send through HostSend).
func Request(t *rapid.T, op string, o Options) protocol.Request {
	if op == protocol.OpHostSend {
		return HostSend(t, o)
	}
	args := wire.NewObject()
	switch op {
	case protocol.OpURIEncode:
		args.Set("sessionId", String(t, "sessionId", o, 6))
	case protocol.OpURIDecode:
		if rapid.IntRange(0, 3).Draw(t, "raw?") == 0 {
			args.Set("uri", String(t, "uri", o, 4))
		} else {
			args.Set("uri", URI(t, "uri", o))
		}
	case protocol.OpMentionFormat:
		args.Set("sessionId", String(t, "sessionId", o, 5))
		if rapid.Bool().Draw(t, "labelled") {
			args.Set("label", String(t, "label", o, 6))
		}
	case protocol.OpMentionParse:
		if rapid.IntRange(0, 2).Draw(t, "fragments?") > 0 {
			args.Set("text", MentionText(t, o))
		} else {
			args.Set("text", Text(t, "text", o))
		}
	case protocol.OpConfig:
		if rapid.IntRange(0, 4).Draw(t, "config?") > 0 {
			args.Set("config", Config(t, "config"))
		}
	case protocol.OpCandidates:
		if rapid.Bool().Draw(t, "deep?") {
			return CandidatesDeep(t, o)
		}
		w := World(t, "world", o)
		args.Set("world", w.Value())
		args.Set("agent", Agent(t, "agent", o))
		if rapid.IntRange(0, 3).Draw(t, "query?") > 0 {
			args.Set("query", Query(t, "query", w, o))
		}
		if rapid.IntRange(0, 2).Draw(t, "limit?") == 0 {
			args.Set("limit", Limit(t, "limit"))
		}
		if rapid.IntRange(0, 4).Draw(t, "config?") == 0 {
			args.Set("config", Config(t, "config"))
		}
		setCancel(t, args)
	case protocol.OpPrepare:
		switch rapid.IntRange(0, 2).Draw(t, "partition") {
		case 0:
			return RetentionPrepare(t, o)
		case 1:
			return PreparePrecedence(t, o)
		}
		w := World(t, "world", o)
		args.Set("world", w.Value())
		agent := Agent(t, "agent", o)
		args.Set("agent", agent)
		args.Set("content", Content(t, "content", o))
		args.Set("references", References(t, "references", w, agent, o))
		if rapid.IntRange(0, 2).Draw(t, "config?") == 0 {
			args.Set("config", BudgetConfig(t, "config"))
		}
		setCancel(t, args)
	default:
		panic("gen: no generator for op " + op)
	}
	return protocol.Request{Op: op, Args: must(args).(*wire.Object)}
}

func setCancel(t *rapid.T, args *wire.Object) {
	switch rapid.IntRange(0, 9).Draw(t, "cancel") {
	case 0:
		args.Set("cancel", protocol.CancelBefore)
	case 1:
		args.Set("cancel", protocol.CancelDuringRead)
	}
}
