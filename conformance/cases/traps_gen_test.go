package cases_test

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// The porting-trap fixtures (spec/porting-traps.md): for every place where a language's
// default differs from the JavaScript the contract runs on, the inputs that tell the two
// apart, exhaustive where the set is finite (every code point whose lowercase the contract
// changes, every Cased and Case_Ignorable code point in the three final-sigma contexts, every
// code point some language counts as whitespace or a line terminator). Each case names the
// traps it is built to catch, so a failing one tells a port author which default to look at.
// Sets are written in chunks of code points per case: one request checks a chunk, and the
// case's name gives the chunk's first and last code point.

func trapFiles() []gfile {
	out := []gfile{trapsCase(), trapsSigma(), trapsMention(), trapsNumbers()}
	out = append(out, trapsURI()...)
	out = append(out, trapsStrings()...)
	out = append(out, trapsNumberFiles()...)
	return append(out, trapsOrder()...)
}

func (g gcase) trap(ids ...string) gcase { g.traps = append(g.traps, ids...); return g }

// scalars lists every Unicode scalar value for which keep holds, in order.
func scalars(keep func(rune) bool) []rune {
	var out []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if (r < 0xD800 || r > 0xDFFF) && keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func chunks(rs []rune, n int) [][]rune {
	var out [][]rune
	for len(rs) > n {
		out = append(out, rs[:n])
		rs = rs[n:]
	}
	if len(rs) > 0 {
		out = append(out, rs)
	}
	return out
}

func span(rs []rune) string { return fmt.Sprintf("u%04x-u%04x", rs[0], rs[len(rs)-1]) }

// lowerChanges: code points whose lowercase the contract (Unicode 17, full mapping) or Go's
// Unicode 15 tables change, or that Go calls upper or title case: the ones whose mapping moved
// between versions are among them.
func lowerChanges() []rune {
	return scalars(func(r rune) bool {
		s := string(r)
		return refadapter.Semantics{}.Lower(s) != s || unicode.ToLower(r) != r || unicode.IsUpper(r) || unicode.IsTitle(r)
	})
}

// candidatesQuery is a candidates request whose one listed session (besides the agent) has
// the given title, searched with query.
func candidatesQuery(titles []string, query string) *wire.Object {
	ss := []*wire.Object{sess("me")}
	for i, t := range titles {
		ss = append(ss, sess(fmt.Sprintf("t%d", i), title(t)))
	}
	return o("world", world(ss...), "agent", agent("me"), "query", query)
}

func trapsCase() gfile {
	var cs []gcase
	// Every code point the contract lowercases, 16 to a case: the query is the code points
	// (separated by "|", which no case mapping touches) and the one title is the query as
	// the contract lowercases it, so a port that maps any of them differently misses it.
	for _, ch := range chunks(lowerChanges(), 16) {
		parts := make([]string, len(ch))
		for i, r := range ch {
			parts[i] = string(r)
		}
		q := strings.Join(parts, "|")
		cs = append(cs, c("lowercase-"+span(ch), "SR-STR-4 SR-CAND-8", candidatesQuery([]string{refadapter.Semantics{}.Lower(q)}, q)).
			trap("TRAP-CASE-UNICODE-VERSION", "TRAP-CASE-ASCII-ONLY", "TRAP-CASE-CODE-UNIT"))
	}
	pair := func(name, reqs, t, q string, traps ...string) gcase {
		return c(name, reqs, candidatesQuery([]string{t}, q)).trap(traps...)
	}
	cs = append(cs,
		pair("dotted-capital-i-full-mapping", "SR-STR-4", "İstanbul", "i̇stanbul", "TRAP-CASE-SIMPLE-MAPPING"),
		pair("dotted-capital-i-two-code-units", "SR-STR-4", "aİb", "i̇b", "TRAP-CASE-SIMPLE-MAPPING"),
		pair("dotted-capital-i-not-plain-i", "SR-STR-4", "İ", "ib", "TRAP-CASE-SIMPLE-MAPPING"),
		pair("final-sigma-word-end", "SR-STR-4", "ΟΔΟΣ", "οδος", "TRAP-CASE-FINAL-SIGMA-MISSING"),
		pair("final-sigma-before-space", "SR-STR-4", "ΟΔΟΣ ΚΑΙ", "οδος και", "TRAP-CASE-FINAL-SIGMA-MISSING"),
		pair("final-sigma-not-medial", "SR-STR-4", "ΣΑΣ", "σας", "TRAP-CASE-FINAL-SIGMA-MISSING"),
		pair("lone-sigma-not-final", "SR-STR-4", "Σ", "σ", "TRAP-CASE-FINAL-SIGMA-MISSING"),
		pair("capital-i-not-dotless", "SR-STR-4", "INDEX", "index", "TRAP-CASE-LOCALE"),
		pair("capital-i-never-dotless", "SR-STR-4", "I", "ı", "TRAP-CASE-LOCALE"),
		pair("dotted-i-not-turkish", "SR-STR-4", "İ", "i̇", "TRAP-CASE-LOCALE"),
		pair("lithuanian-i-grave-not-dotted", "SR-STR-4", "Ì", "ì", "TRAP-CASE-LOCALE"),
		pair("lithuanian-i-ogonek-accent", "SR-STR-4", "Į\u0301", "į\u0301", "TRAP-CASE-LOCALE"),
		pair("accented-capital-not-ascii", "SR-STR-4", "ÉCOLE", "école", "TRAP-CASE-ASCII-ONLY"),
		pair("cyrillic-capital", "SR-STR-4", "ДОМ", "дом", "TRAP-CASE-ASCII-ONLY"),
		pair("astral-capital-deseret", "SR-STR-4 SR-STR-1", "𐐀𐐁", "𐐨𐐩", "TRAP-CASE-CODE-UNIT"),
		pair("astral-capital-adlam", "SR-STR-4 SR-STR-1", "𞤀", "𞤢", "TRAP-CASE-CODE-UNIT", "TRAP-CASE-UNICODE-VERSION"),
		pair("lone-surrogate-kept-when-lowercasing", "SR-STR-4 SR-STR-1", u(`A\ud800B`), u(`a\ud800b`), "TRAP-CASE-CODE-UNIT"),
	)
	// Folding and uppercasing are not lowercasing: each of these pairs is equal under case
	// folding (or uppercasing) and is not a match under the contract.
	fold := cases.Fold()
	upper := cases.Upper(language.Und)
	folds := scalars(func(r rune) bool {
		s := string(r)
		return fold.String(s) != refadapter.Semantics{}.Lower(s) && refadapter.Semantics{}.Lower(fold.String(s)) != refadapter.Semantics{}.Lower(s)
	})
	for _, ch := range chunks(folds, 32) {
		var t, q []string
		for _, r := range ch {
			t = append(t, string(r))
			q = append(q, fold.String(string(r)))
		}
		cs = append(cs, c("folded-is-not-lowercased-"+span(ch), "SR-STR-4 SR-CAND-8", candidatesQuery([]string{strings.Join(t, "|")}, strings.Join(q, "|"))).trap("TRAP-CASE-FOLDING"))
	}
	uppers := scalars(func(r rune) bool {
		s := string(r)
		return refadapter.Semantics{}.Lower(upper.String(s)) != refadapter.Semantics{}.Lower(s)
	})
	for _, ch := range chunks(uppers, 32) {
		var t, q []string
		for _, r := range ch {
			t = append(t, string(r))
			q = append(q, upper.String(string(r)))
		}
		cs = append(cs, c("uppercased-is-not-lowercased-"+span(ch), "SR-STR-4 SR-CAND-8", candidatesQuery([]string{strings.Join(t, "|")}, strings.Join(q, "|"))).trap("TRAP-CASE-FOLDING"))
	}
	cs = append(cs,
		pair("sharp-s-not-ss", "SR-STR-4", "Straße", "strasse", "TRAP-CASE-FOLDING"),
		pair("ss-not-sharp-s", "SR-STR-4", "STRASSE", "straße", "TRAP-CASE-FOLDING"),
		pair("final-sigma-not-folded", "SR-STR-4", "ς", "σ", "TRAP-CASE-FOLDING"),
		pair("micro-sign-not-mu", "SR-STR-4", "µ", "μ", "TRAP-CASE-FOLDING"),
		pair("long-s-not-s", "SR-STR-4", "ſ", "s", "TRAP-CASE-FOLDING"),
		pair("dotless-i-not-i", "SR-STR-4", "ı", "i", "TRAP-CASE-FOLDING"),
		pair("ligature-not-expanded", "SR-STR-4", "ﬀ", "ff", "TRAP-CASE-FOLDING"),
	)
	return gfile{"traps-case.yaml", protocol.OpCandidates, cs}
}

// sigmaContexts: every code point that is Cased or Case_Ignorable under the contract or
// under Go's Unicode 15 approximations (letters with case, marks, format characters,
// modifiers), plus uncased letters and digits that an "is a letter" shortcut treats as cased.
func sigmaCodePoints() []rune {
	return scalars(func(r rune) bool {
		return refadapter.Semantics{}.IsCased(r) || refadapter.Semantics{}.IsCaseIgnorable(r) ||
			unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
			unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk, unicode.Other_Lowercase, unicode.Other_Uppercase) ||
			strings.ContainsRune("'.:^`·\u2019\u2024\ufe13\uff07\uff0e\uff1a中あ٣Ⅻ²ʰª_", r)
	})
}

func trapsSigma() gfile {
	var cs []gcase
	// Each code point c in three contexts, space-separated (a space is neither cased nor
	// case-ignorable): "cΣ" (is c cased?), "AcΣ" (is c case-ignorable?) and "AΣc" (does c
	// make the sigma medial?). The title is the query as the contract lowercases it.
	for _, ch := range chunks(sigmaCodePoints(), 48) {
		var parts []string
		for _, r := range ch {
			s := string(r)
			parts = append(parts, s+"Σ", "A"+s+"Σ", "AΣ"+s)
		}
		q := strings.Join(parts, " ")
		cs = append(cs, c("final-sigma-context-"+span(ch), "SR-STR-4 SR-CAND-8", candidatesQuery([]string{refadapter.Semantics{}.Lower(q)}, q)).
			trap("TRAP-CASE-FINAL-SIGMA-PROPERTIES", "TRAP-CASE-FINAL-SIGMA-MISSING"))
	}
	return gfile{"traps-sigma.yaml", protocol.OpCandidates, cs}
}

// spaceCandidates: every code point that JavaScript's \s, Unicode's White_Space, or some
// language's whitespace or line-terminator class holds (Python str.isspace adds U+001C to
// U+001F; Java's Character.isWhitespace drops U+00A0, U+2007, U+202F; .NET and Rust add
// U+0085; old tables hold U+180E and U+200B), and look-alikes that none holds.
func spaceCandidates() []rune {
	return scalars(func(r rune) bool {
		return refadapter.Semantics{}.IsSpace(r) || refadapter.Semantics{}.IsLineTerminator(r) || unicode.IsSpace(r) || unicode.Is(unicode.White_Space, r) ||
			r <= 0x20 || r == 0x7F || r == 0x85 || r == 0xA0 || r == 0xAD || r == 0x180E || r == 0x200B ||
			r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF || r == 0xFFFE || r == 0x3164 || r == 0x1160
	})
}

func trapsMention() gfile {
	A := enc("a")
	p := func(name, reqs, text string, traps ...string) gcase {
		return c(name, reqs, o("text", text)).trap(traps...)
	}
	var cs []gcase
	for _, r := range spaceCandidates() {
		s := string(r)
		cs = append(cs,
			p(fmt.Sprintf("space-class-u%04x-after-payload", r), "SR-MENTION-3 SR-MENTION-8", "@[x]("+A+s+")", "TRAP-RE-WHITESPACE"),
			p(fmt.Sprintf("space-class-u%04x-before-payload", r), "SR-MENTION-3 SR-MENTION-8", "@[x](dsh-session:"+s+"ImEi)", "TRAP-RE-WHITESPACE"),
			p(fmt.Sprintf("dot-class-u%04x-escaped-in-label", r), "SR-MENTION-3 SR-MENTION-4 SR-MENTION-8", "@[a\\"+s+"b]("+A+")", "TRAP-RE-DOT"),
		)
	}
	// A bare URI's payload is [A-Za-z0-9_-] and nothing else: not a Unicode \w or \d.
	for _, r := range []rune{'é', 'É', 'ǅ', 'ʰ', 'ª', '中', 0x0301, 0x0903, 0x20DD, '٣', '۵', 'Ⅻ', '²', '‿', '＿', 0x200C, 0x200D, '𝐀', '𐐨', 'K', 'ſ', 'ı', 'İ', '０'} {
		cs = append(cs, p(fmt.Sprintf("bare-payload-ends-before-u%04x", r), "SR-MENTION-3 SR-MENTION-6", "see "+A+string(r)+" now", "TRAP-RE-WORD"))
	}
	m := func(label, id string) string { return "@[" + label + "](" + enc(id) + ")" }
	for i, label := range []string{"$&", "$1$2", "$$", "$'", "$`", `\\1`, `\\g<0>`, "${0}", "$0", `\\0`, "%1"} {
		cs = append(cs, p(fmt.Sprintf("replacement-syntax-literal-%02d", i), "SR-MENTION-4", "a "+m(label, "s")+" b", "TRAP-RE-REPLACEMENT"))
	}
	cs = append(cs,
		p("replacement-syntax-in-bare-id", "SR-MENTION-4", "x "+enc("$&$1\\1")+" y", "TRAP-RE-REPLACEMENT"),
		p("label-spans-lf", "SR-MENTION-3 SR-MENTION-4", m("one\ntwo", "s"), "TRAP-RE-LINE-BY-LINE"),
		p("label-spans-crlf", "SR-MENTION-3 SR-MENTION-4", m("one\r\ntwo", "s"), "TRAP-RE-LINE-BY-LINE"),
		p("label-spans-line-separator", "SR-MENTION-3 SR-MENTION-4", m("one\u2028two", "s"), "TRAP-RE-LINE-BY-LINE"),
		p("unclosed-label-runs-across-lines", "SR-MENTION-3 SR-MENTION-8", "@[x "+A+" and\n@[B]("+A+")", "TRAP-RE-LINE-BY-LINE"),
		p("two-mentions-two-lines", "SR-MENTION-4", m("a", "s")+"\n"+m("b", "t")+"\r\n"+A, "TRAP-RE-LINE-BY-LINE"),
		p("escaped-astral-in-label", "SR-MENTION-4 SR-STR-1", m(`\😀`, "s"), "TRAP-RE-CODE-UNITS"),
		p("astral-label", "SR-MENTION-4 SR-STR-1", m("😀𐐀", "s"), "TRAP-RE-CODE-UNITS"),
		p("bare-uri-before-astral", "SR-MENTION-6", A+"😀", "TRAP-RE-CODE-UNITS"),
		p("escaped-lone-surrogate-in-label", "SR-MENTION-4 SR-STR-1", m(u(`\\\ud800`), "s"), "TRAP-RE-CODE-UNITS"),
		p("label-high-surrogate-then-low-after", "SR-MENTION-9 SR-STR-1", m(u(`x\ud83d`), "s")+u(`\ude00 y`), "TRAP-RE-CODE-UNITS"),
		// Recursive backtracking engines (Java, libstdc++) overflow their stack on these.
		p("label-of-60000-characters", "SR-MENTION-3 SR-MENTION-4", "x "+m(strings.Repeat("label ", 10000), "s")+" y", "TRAP-RE-BACKTRACKING-DEPTH"),
		p("label-of-30000-escapes", "SR-MENTION-3 SR-MENTION-4", m(strings.Repeat(`\]`, 30000), "s"), "TRAP-RE-BACKTRACKING-DEPTH"),
		p("markdown-payload-of-60000-characters", "SR-MENTION-3 SR-MENTION-4", m("L", strings.Repeat("i", 45000)), "TRAP-RE-BACKTRACKING-DEPTH"),
		p("bare-payload-of-60000-characters", "SR-MENTION-6", "x "+enc(strings.Repeat("i", 45000))+" y", "TRAP-RE-BACKTRACKING-DEPTH"),
		p("unclosed-label-of-60000-characters", "SR-MENTION-8", "@["+strings.Repeat("a", 60000)+" "+A, "TRAP-RE-BACKTRACKING-DEPTH"),
	)
	return gfile{"traps-mention.yaml", protocol.OpMentionParse, cs}
}

func trapsURI() []gfile {
	d := func(name, reqs, s string, traps ...string) gcase { return c(name, reqs, o("uri", s)).trap(traps...) }
	A := enc("a")
	cs := []gcase{
		d("trailing-lf", "SR-URI-4", A+"\n", "TRAP-RE-ANCHOR"),
		d("trailing-crlf", "SR-URI-4", A+"\r\n", "TRAP-RE-ANCHOR"),
		d("leading-lf", "SR-URI-4", "\n"+A, "TRAP-RE-ANCHOR"),
		d("second-line", "SR-URI-4", "x\n"+A, "TRAP-RE-ANCHOR"),
		d("payload-then-lf-then-payload", "SR-URI-4", A+"\nImEi", "TRAP-RE-ANCHOR"),
		d("soft-hyphen-before-scheme", "SR-URI-4", "\u00ad"+A, "TRAP-STR-EQUALITY"),
		d("zero-width-joiner-in-scheme", "SR-URI-4", "dsh-\u200dsession:ImEi", "TRAP-STR-EQUALITY"),
		d("padding-one", "SR-URI-4", enc("ab")+"=", "TRAP-B64-PADDING"),
		d("padding-two", "SR-URI-4", A+"==", "TRAP-B64-PADDING"),
		d("padding-inside", "SR-URI-4", "dsh-session:Im=Ei", "TRAP-B64-PADDING"),
		d("standard-alphabet-plus", "SR-URI-4", strings.ReplaceAll(enc("~~~???>>>"), "-", "+"), "TRAP-B64-ALPHABET"),
		d("standard-alphabet-slash", "SR-URI-4", strings.ReplaceAll(enc("~~~???>>>"), "_", "/"), "TRAP-B64-ALPHABET"),
		d("space-inside-payload", "SR-URI-4", "dsh-session:Im Ei", "TRAP-B64-ALPHABET"),
		d("newline-inside-payload", "SR-URI-4", "dsh-session:Im\nEi", "TRAP-B64-ALPHABET"),
		d("dot-inside-payload", "SR-URI-4", "dsh-session:Im.Ei", "TRAP-B64-ALPHABET"),
		d("trailing-bits-set", "SR-URI-6", "dsh-session:IiJ", "TRAP-B64-TRAILING-BITS"),
		d("trailing-bits-set-two", "SR-URI-6", "dsh-session:ImFiIk", "TRAP-B64-TRAILING-BITS"),
		d("dangling-sixth-bit-char", "SR-URI-5", A+"A", "TRAP-B64-TRAILING-BITS"),
		d("unicode-digit-payload", "SR-URI-4", A+"٣", "TRAP-RE-WORD"),
		d("unicode-letter-payload", "SR-URI-4", A+"é", "TRAP-RE-WORD"),
		// Bytes that are not UTF-8: Node decodes them to U+FFFD and the canonical check fails;
		// a strict decoder throws, and that error must still be INVALID_REFERENCE.
		d("payload-overlong-nul", "SR-URI-5", b64("\"\xc0\x80\""), "TRAP-STR-UTF8-DECODE"),
		d("payload-surrogate-bytes", "SR-URI-5", b64("\"\xed\xa0\x80\""), "TRAP-STR-UTF8-DECODE"),
		d("payload-truncated-sequence", "SR-URI-5", b64("\"\xe2\x82\""), "TRAP-STR-UTF8-DECODE"),
		d("payload-lone-continuation", "SR-URI-5", b64("\"\x80\""), "TRAP-STR-UTF8-DECODE"),
		d("payload-above-u10ffff", "SR-URI-5", b64("\"\xf4\x90\x80\x80\""), "TRAP-STR-UTF8-DECODE"),
		d("payload-bom-before-json", "SR-URI-5 SR-URI-6", b64("\xef\xbb\xbf\"a\""), "TRAP-STR-UTF8-DECODE"),
	}
	e := func(name, reqs, id string, traps ...string) gcase {
		return c(name, reqs, o("sessionId", id)).trap(traps...)
	}
	var ctl []string
	for r := rune(0); r < 0x20; r++ {
		ctl = append(ctl, string(r))
	}
	// uri.encode is JSON.stringify's bytes, base64url'd: a different escape is a different URI.
	encodes := []gcase{
		e("json-every-control", "SR-URI-1 SR-STR-2", strings.Join(ctl, ""), "TRAP-JSON-ESCAPES"),
		e("json-html-characters", "SR-URI-1 SR-STR-2", "<script>&'", "TRAP-JSON-ESCAPES"),
		e("json-slash-not-escaped", "SR-URI-1 SR-STR-2", "a/b", "TRAP-JSON-ESCAPES"),
		e("json-del-and-c1", "SR-URI-1 SR-STR-2", "\u007f\u0080\u0085\u009f", "TRAP-JSON-ESCAPES"),
		e("json-line-separators", "SR-URI-1 SR-STR-2", "\u2028\u2029", "TRAP-JSON-ESCAPES"),
		e("json-non-ascii-not-escaped", "SR-URI-1 SR-STR-2", "é中\ufeff\uffff", "TRAP-JSON-ESCAPES"),
		e("json-astral-not-escaped", "SR-URI-1 SR-STR-2", "😀", "TRAP-JSON-ESCAPES"),
		e("json-lone-high", "SR-URI-1 SR-STR-2", u(`\udbff`), "TRAP-JSON-LONE-SURROGATES"),
		e("json-lone-low-then-high", "SR-URI-1 SR-STR-2", u(`\udc00x\ud800`), "TRAP-JSON-LONE-SURROGATES"),
		e("std-alphabet-plus-slash", "SR-URI-1", "~~~???>>>", "TRAP-B64-ALPHABET"),
		e("padding-one-byte-remainder", "SR-URI-1", "abcd", "TRAP-B64-PADDING"),
		e("padding-two-byte-remainder", "SR-URI-1", "abc", "TRAP-B64-PADDING"),
	}
	return []gfile{{"traps-uri-decode.yaml", protocol.OpURIDecode, cs}, {"traps-uri-encode.yaml", protocol.OpURIEncode, encodes}}
}

func num(text string) wire.Number { return wire.Number(text) }

func trapsNumbers() gfile {
	cfg := func(name, reqs string, v any, traps ...string) gcase {
		return c(name, reqs, o("config", v)).trap(traps...)
	}
	cs := []gcase{
		cfg("max-references-true", "SR-CONF-2", o("maxReferences", true), "TRAP-TYPE-BOOL-AS-INT"),
		cfg("candidate-limit-true", "SR-CONF-2", o("candidateLimit", true), "TRAP-TYPE-BOOL-AS-INT"),
		cfg("max-reference-bytes-true", "SR-CONF-2", o("maxReferenceBytes", true), "TRAP-TYPE-BOOL-AS-INT"),
		cfg("max-references-false", "SR-CONF-2", o("maxReferences", false), "TRAP-TYPE-BOOL-AS-INT"),
		cfg("max-references-2.0", "SR-CONF-2", o("maxReferences", num("2.0")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cfg("max-references-1e0", "SR-CONF-2", o("maxReferences", num("1e0")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cfg("max-references-0.3E1", "SR-CONF-2 SR-CONF-3", o("maxReferences", num("0.3E1")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cfg("candidate-limit-1e2", "SR-CONF-2", o("candidateLimit", num("1e2")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cfg("max-reference-bytes-65536.0", "SR-CONF-2", o("maxReferenceBytes", num("65536.0")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cfg("max-reference-bytes-6.5536e4", "SR-CONF-2", o("maxReferenceBytes", num("6.5536e4")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cfg("max-references-1.5-text", "SR-CONF-2", o("maxReferences", num("1.50")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cfg("max-references-2.0000000000000001", "SR-CONF-2", o("maxReferences", num("2.0000000000000001")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cfg("candidate-limit-2-pow-31", "SR-CONF-5", o("candidateLimit", 2147483648), "TRAP-TYPE-SAFE-INTEGER"),
		cfg("candidate-limit-2-pow-32-plus-1", "SR-CONF-5", o("candidateLimit", 4294967297), "TRAP-TYPE-SAFE-INTEGER"),
		cfg("candidate-limit-2-pow-53-plus-1-text", "SR-CONF-2", o("candidateLimit", num("9007199254740993")), "TRAP-TYPE-SAFE-INTEGER"),
		cfg("candidate-limit-just-below-2-pow-53-fraction", "SR-CONF-5", o("candidateLimit", num("9007199254740991.4")), "TRAP-TYPE-SAFE-INTEGER", "TRAP-TYPE-INTEGRAL-FLOAT"),
		cfg("max-reference-bytes-2-pow-63", "SR-CONF-2", o("maxReferenceBytes", num("9223372036854775808")), "TRAP-TYPE-SAFE-INTEGER"),
		cfg("max-reference-bytes-2-pow-64", "SR-CONF-2", o("maxReferenceBytes", num("18446744073709551616")), "TRAP-TYPE-SAFE-INTEGER"),
		cfg("max-reference-bytes-1e300", "SR-CONF-2", o("maxReferenceBytes", num("1e300")), "TRAP-TYPE-SAFE-INTEGER"),
		cfg("max-references-minus-2-pow-63", "SR-CONF-2", o("maxReferences", num("-9223372036854775808")), "TRAP-TYPE-SAFE-INTEGER"),
		cfg("candidate-limit-numeric-string", "SR-CONF-2", o("candidateLimit", "50"), "TRAP-TYPE-NUMERIC-STRING"),
		cfg("max-reference-bytes-numeric-string", "SR-CONF-2", o("maxReferenceBytes", "1000"), "TRAP-TYPE-NUMERIC-STRING"),
		cfg("max-references-padded-string", "SR-CONF-2", o("maxReferences", " 2"), "TRAP-TYPE-NUMERIC-STRING"),
		cfg("max-references-negative-zero", "SR-CONF-2", o("maxReferences", num("-0")), "TRAP-TYPE-NEGATIVE-ZERO"),
		cfg("max-references-negative-zero-fraction", "SR-CONF-2", o("maxReferences", num("-0.0")), "TRAP-TYPE-NEGATIVE-ZERO"),
		cfg("null-max-references-defaults", "SR-CONF-1", o("maxReferences", nil), "TRAP-TYPE-NULL-ABSENT"),
		cfg("null-config-fails", "SR-CONF-4", nil, "TRAP-TYPE-NULL-ABSENT"),
		cfg("array-config-is-empty-object", "SR-CONF-4", a(5, 6, 7), "TRAP-TYPE-NULL-ABSENT"),
		// Falsy is not absent: `x or default` turns these into the defaults.
		cfg("max-references-0-is-not-absent", "SR-CONF-2", o("maxReferences", 0), "TRAP-TYPE-NULL-ABSENT"),
		cfg("candidate-limit-0-is-not-absent", "SR-CONF-2", o("candidateLimit", 0), "TRAP-TYPE-NULL-ABSENT"),
		cfg("max-reference-bytes-false-is-not-absent", "SR-CONF-2", o("maxReferenceBytes", false), "TRAP-TYPE-NULL-ABSENT"),
		cfg("max-references-empty-string-is-not-absent", "SR-CONF-2", o("maxReferences", ""), "TRAP-TYPE-NULL-ABSENT"),
	}
	return gfile{"traps-config.yaml", protocol.OpConfig, cs}
}

// trapsStrings: lengths, cuts, BOMs, substring units and string equality.
func trapsStrings() []gfile {
	me := agent("me")
	one := func(name, reqs string, budget int, text string, traps ...string) gcase {
		return c(name, reqs, o("world", world(sess("s", events(userMsg(text)))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", budget))).trap(traps...)
	}
	oneFixed := fixedSize("s", "s", "user")
	var cs []gcase
	// Each text's UTF-8 length differs from its UTF-16 length, its code point count and its
	// grapheme count; at exactly its size it fits, one byte less it is truncated.
	for _, t := range []struct{ name, text string }{
		{"two-byte", strings.Repeat("é", 12)},
		{"three-byte", strings.Repeat("€", 12)},
		{"astral", strings.Repeat("😀", 8)},
		{"combining-mark", strings.Repeat("e\u0301", 10)},
		{"crlf", strings.Repeat("ab\r\n", 8)},
		{"zwj-family", "👨\u200d👩\u200d👧 and 🇫🇷"},
	} {
		size := wire.ByteLength(wire.Quote(t.text)) - 2
		cs = append(cs,
			one("length-unit-"+t.name+"-fits", "SR-STR-3 SR-RET-1", oneFixed+size, t.text, "TRAP-STR-LENGTH-UNIT"),
			one("length-unit-"+t.name+"-one-byte-short", "SR-STR-3 SR-RET-4", oneFixed+size-1, t.text, "TRAP-STR-LENGTH-UNIT"),
		)
	}
	lone := strings.Repeat(u(`\ud800`), 10)
	cs = append(cs,
		one("lone-surrogates-fit-at-escaped-size", "SR-STR-3 SR-RET-1", oneFixed+60, lone, "TRAP-STR-LONE-SURROGATE-UTF8"),
		one("lone-surrogates-one-byte-short", "SR-STR-3 SR-RET-4", oneFixed+59, lone, "TRAP-STR-LONE-SURROGATE-UTF8"),
		one("lone-surrogates-cut-counted-three", "SR-STR-3 SR-RET-6", oneFixed+40, strings.Repeat("ab"+u(`\udc00`), 12), "TRAP-STR-LONE-SURROGATE-UTF8"),
	)
	// Cuts: every budget over a window, so the head's and the tail's cut falls inside a
	// character of every UTF-8 width and on every BOM.
	cut := "a" + strings.Repeat("é€😀"+u(`\ud800`), 4) + "z"
	for extra := 30; extra < 46; extra++ {
		cs = append(cs, one(fmt.Sprintf("cut-every-width-budget-plus-%02d", extra), "SR-RET-6 SR-RET-7", oneFixed+extra, cut, "TRAP-STR-CUT-UNIT"))
	}
	boms := "\ufeff\ufeffhead" + strings.Repeat("-", 30) + "\ufefftail\ufeff"
	for extra := 28; extra < 40; extra++ {
		cs = append(cs, one(fmt.Sprintf("bom-cuts-budget-plus-%02d", extra), "SR-RET-8", oneFixed+extra, boms, "TRAP-STR-BOM"))
	}
	cand := func(name, reqs string, w *wire.Object, ag *wire.Object, query string, traps ...string) gcase {
		args := o("world", w, "agent", ag)
		if query != "" {
			args.Set("query", query)
		}
		return c(name, reqs, args).trap(traps...)
	}
	t := func(ts ...string) *wire.Object {
		ss := []*wire.Object{sess("me")}
		for i, x := range ts {
			ss = append(ss, sess(fmt.Sprintf("t%d", i), title(x)))
		}
		return world(ss...)
	}
	cs = append(cs,
		cand("substring-base-letter-of-combining", "SR-STR-5 SR-CAND-8", t("cafe\u0301", "x"), me, "cafe", "TRAP-STR-SUBSTRING-UNIT"),
		cand("substring-precomposed-vs-decomposed", "SR-STR-5 SR-CAND-8", t("café", "x"), me, "cafe\u0301", "TRAP-STR-SUBSTRING-UNIT", "TRAP-STR-EQUALITY"),
		cand("substring-inside-zwj-sequence", "SR-STR-5 SR-CAND-8", t("👨\u200d👩\u200d👧", "x"), me, "👩", "TRAP-STR-SUBSTRING-UNIT"),
		cand("substring-lf-of-crlf", "SR-STR-5 SR-CAND-8", t("a\r\nb", "x"), me, "\n", "TRAP-STR-SUBSTRING-UNIT"),
		cand("substring-half-of-flag", "SR-STR-5 SR-CAND-8", t("🇫🇷", "x"), me, "🇫", "TRAP-STR-SUBSTRING-UNIT"),
		cand("substring-ligature-not-letters", "SR-STR-5 SR-CAND-8", t("ﬁle", "x"), me, "fi", "TRAP-STR-SUBSTRING-UNIT", "TRAP-STR-EQUALITY"),
		cand("substring-soft-hyphen-needle", "SR-STR-5 SR-CAND-8", t("plain", "x"), me, "\u00ad", "TRAP-STR-EQUALITY"),
		cand("substring-zwj-needle", "SR-STR-5 SR-CAND-8", t("plain", "x"), me, "\u200d", "TRAP-STR-EQUALITY"),
		cand("substring-ignorable-inside-title", "SR-STR-5 SR-CAND-8", t("pa\u00adrse", "x"), me, "parse", "TRAP-STR-EQUALITY"),
		cand("cwd-equality-not-canonical", "SR-CAND-2", world(sess("me"), sess("n", cwd("/caf\u00e9")), sess("d", cwd("/cafe\u0301")), sess("none")), agentIn("me", "/cafe\u0301"), "", "TRAP-STR-EQUALITY"),
		cand("self-id-not-canonical", "SR-CAND-1", world(sess("\u00e9"), sess("e\u0301"), sess("x")), agent("e\u0301"), "", "TRAP-STR-EQUALITY"),
	)
	prep := func(name, reqs string, w *wire.Object, ag *wire.Object, rs []any, traps ...string) gcase {
		return c(name, reqs, o("world", w, "agent", ag, "content", "x", "references", rs)).trap(traps...)
	}
	two := world(sess("\u00e9", events(userMsg("precomposed"))), sess("e\u0301", events(userMsg("decomposed"))))
	cs = append(cs,
		prep("self-reference-not-canonical", "SR-PREP-2", two, agent("e\u0301"), refs(ref("\u00e9")), "TRAP-STR-EQUALITY"),
		prep("dedup-not-canonical", "SR-PREP-3", two, agent("me"), refs(ref("\u00e9"), ref("e\u0301")), "TRAP-STR-EQUALITY"),
		prep("json-every-escape-class-in-snapshot", "SR-STR-2 SR-PROMPT-2", world(sess("s", cwd("/a/b"), events(userMsg("\u0000\u0008\u000b\u001f\u007f\u0085 <>&'/\\\" é\u2028\u2029\ufeff😀")))), me, refs(refL("s", "L/\u2028")), "TRAP-JSON-ESCAPES"),
		prep("json-no-spaces-between-tokens", "SR-STR-2 SR-PROMPT-2", world(sess("s", events(userMsg("u"), asstMsg("a"))), sess("t", events(userMsg("v")))), me, refs(ref("s"), ref("t")), "TRAP-JSON-SEPARATORS", "TRAP-JSON-KEY-ORDER"),
		prep("json-lone-surrogates-escaped-lowercase", "SR-STR-2 SR-STR-1", world(sess(u(`\udabc`), cwd(u(`\udfff`)), events(userMsg(u(`x\ud800y\udbffz`))))), me, refs(refL(u(`\udabc`), u(`\udc01`))), "TRAP-JSON-LONE-SURROGATES"),
		prep("json-lone-surrogate-truncated-becomes-replacement", "SR-STR-1 SR-RET-7", world(sess("s", events(userMsg(strings.Repeat(u(`\ud800`)+"ab", 30))))), me, refs(ref("s")), "TRAP-JSON-LONE-SURROGATES").withConfig(o("maxReferenceBytes", oneFixed+50)),
	)
	return []gfile{{"traps-strings-prepare.yaml", protocol.OpPrepare, prepOnly(cs)}, {"traps-strings-candidates.yaml", protocol.OpCandidates, candOnly(cs)}}
}

func (g gcase) withConfig(cfg *wire.Object) gcase { g.args.Set("config", cfg); return g }

// prepOnly and candOnly split a mixed list by the op its arguments are for.
func prepOnly(cs []gcase) []gcase {
	var out []gcase
	for _, g := range cs {
		if g.args.Has("references") {
			out = append(out, g)
		}
	}
	return out
}

func candOnly(cs []gcase) []gcase {
	var out []gcase
	for _, g := range cs {
		if !g.args.Has("references") {
			out = append(out, g)
		}
	}
	return out
}

// trapsOrder: sorting, hash order, array position, numbers in the snapshot, null vs absent,
// reads and cancellation.
func trapsOrder() []gfile {
	me := agentIn("me", "/repo")
	// 40 sessions in a listing order unrelated to rank, id or creation time: a sort by rank
	// alone that is not stable (introsort, pdqsort) reorders each rank's members.
	mixed := func(n int) *wire.Object {
		ss := []*wire.Object{sess("me", cwd("/repo"))}
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("s%02d-%c", (i*37)%n, 'a'+rune(i%26))
			opts := []opt{created((i * 7919) % 101)}
			switch (i * 5) % 3 {
			case 0:
				opts = append(opts, cwd("/repo"))
			case 1:
				opts = append(opts, cwd(fmt.Sprintf("/other/%d", i%4)))
			}
			ss = append(ss, sess(id, opts...))
		}
		return world(ss...)
	}
	cand := func(name, reqs string, args *wire.Object, traps ...string) gcase {
		return c(name, reqs, args).trap(traps...)
	}
	cands := []gcase{
		cand("rank-keeps-listing-order-17", "SR-CAND-2", o("world", mixed(17), "agent", me), "TRAP-ORDER-UNSTABLE-SORT"),
		cand("rank-keeps-listing-order-40", "SR-CAND-2", o("world", mixed(40), "agent", me), "TRAP-ORDER-UNSTABLE-SORT"),
		cand("rank-keeps-listing-order-120", "SR-CAND-2 SR-CAND-3", o("world", mixed(120), "agent", me, "limit", 100), "TRAP-ORDER-UNSTABLE-SORT"),
		cand("query-rank-keeps-listing-order-40", "SR-CAND-2 SR-CAND-12", o("world", mixed(40), "agent", me, "query", "-"), "TRAP-ORDER-UNSTABLE-SORT"),
		cand("limit-true", "SR-CAND-4", o("world", mixed(3), "agent", me, "limit", true), "TRAP-TYPE-BOOL-AS-INT"),
		cand("limit-false", "SR-CAND-4", o("world", mixed(3), "agent", me, "limit", false), "TRAP-TYPE-BOOL-AS-INT"),
		cand("limit-2.0", "SR-CAND-3 SR-CAND-4", o("world", mixed(5), "agent", me, "limit", num("2.0")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cand("limit-1e0", "SR-CAND-3 SR-CAND-4", o("world", mixed(5), "agent", me, "limit", num("1e0")), "TRAP-TYPE-INTEGRAL-FLOAT"),
		cand("limit-2-pow-31", "SR-CAND-3", o("world", mixed(5), "agent", me, "limit", 2147483648), "TRAP-TYPE-SAFE-INTEGER"),
		cand("limit-2-pow-53-plus-1-text", "SR-CAND-4", o("world", mixed(5), "agent", me, "limit", num("9007199254740993")), "TRAP-TYPE-SAFE-INTEGER"),
		cand("limit-numeric-string", "SR-CAND-4", o("world", mixed(5), "agent", me, "limit", "3"), "TRAP-TYPE-NUMERIC-STRING"),
		cand("limit-negative-zero", "SR-CAND-4", o("world", mixed(5), "agent", me, "limit", num("-0")), "TRAP-TYPE-NEGATIVE-ZERO"),
		cand("limit-null-is-not-absent", "SR-CAND-4", o("world", mixed(5), "agent", me, "limit", nil), "TRAP-TYPE-NULL-ABSENT"),
		cand("query-null-is-not-absent", "SR-CAND-11", o("world", mixed(5), "agent", me, "query", nil), "TRAP-TYPE-NULL-ABSENT"),
		cand("title-null-falls-back-to-id", "SR-CAND-5", o("world", world(sess("me"), nullTitle(sess("n")), sess("t", title("T"))), "agent", me), "TRAP-TYPE-NULL-ABSENT"),
		cand("title-empty-is-not-absent", "SR-CAND-5", o("world", world(sess("me"), sess("e", title("")), sess("t", title("T"))), "agent", me), "TRAP-TYPE-NULL-ABSENT"),
		cand("limit-0-is-not-absent", "SR-CAND-4", o("world", mixed(5), "agent", me, "limit", 0), "TRAP-TYPE-NULL-ABSENT"),
		cand("query-empty-string-matches-all", "SR-CAND-11", o("world", mixed(5), "agent", me, "query", ""), "TRAP-TYPE-NULL-ABSENT"),
		// An empty cwd is a cwd: not falsy, not absent (Python's `if cwd:`, a TypeScript `||`).
		cand("cwd-empty-is-a-cwd", "SR-CAND-2 SR-CAND-9", o("world", world(sess("me", cwd("/repo")), sess("e", cwd("")), sess("n"), sess("r", cwd("/repo"))), "agent", me), "TRAP-TYPE-NULL-ABSENT"),
		cand("agent-cwd-empty-ranks-empty-first", "SR-CAND-2", o("world", world(sess("r", cwd("/repo")), sess("n"), sess("e", cwd(""))), "agent", agentIn("me", "")), "TRAP-TYPE-NULL-ABSENT"),
	}
	w := world(sess("a", events(userMsg("from a"))), sess("b", events(userMsg("from b"))), sess("c", events(userMsg("from c"))),
		sess("zz", events(userMsg("from zz"))), sess("broken", readErr("gone")))
	prep := func(name, reqs string, rs []any, kv ...any) gcase {
		args := o("world", w, "agent", agent("me"), "content", "x", "references", rs)
		for i := 0; i+1 < len(kv); i += 2 {
			args.Set(kv[i].(string), norm(kv[i+1]))
		}
		return c(name, reqs, args)
	}
	var cs []gcase
	for i, perm := range [][]string{{"c", "a", "b"}, {"b", "c", "a"}, {"zz", "a", "c"}, {"c", "b", "a"}, {"a", "zz", "b"}, {"b", "a", "zz"}} {
		var rs []*wire.Object
		for _, id := range perm {
			rs = append(rs, ref(id))
		}
		rs = append(rs, ref(perm[1]), ref(perm[0]))
		cs = append(cs, prep(fmt.Sprintf("first-mention-order-%d", i), "SR-PREP-3 SR-PROMPT-5", refs(rs...)).trap("TRAP-ORDER-HASH-ITERATION"))
	}
	seqs := world(sess("s", surf(o("capturedThroughSeq", 3, "events", a(
		o("type", "user/message", "seq", 9, "data", must(userMsg("ninth").Get("data"))),
		o("type", "assistant/message", "seq", 2, "data", must(asstMsg("second").Get("data"))),
		o("type", "user/message", "seq", 2, "data", must(userMsg("also second").Get("data"))),
		o("type", "user/message", "seq", -1, "data", must(userMsg("minus one").Get("data"))),
	)))))
	cs = append(cs,
		c("events-in-array-order-not-seq", "SR-PROJ-1 SR-PROJ-2", o("world", seqs, "agent", agent("me"), "content", "x", "references", refs(ref("s")))).trap("TRAP-ORDER-SEQ"),
		prep("reads-all-despite-first-failure", "SR-PREP-7", refs(ref("broken"), ref("a"), ref("b"))).trap("TRAP-ASYNC-SEQUENTIAL-READS"),
		prep("reads-all-despite-middle-failure", "SR-PREP-7", refs(ref("a"), ref("broken"), ref("zz"))).trap("TRAP-ASYNC-SEQUENTIAL-READS"),
		prep("no-references-ignores-abort", "SR-PREP-5 SR-CANCEL-2", refs(), "cancel", "before").trap("TRAP-ASYNC-CANCEL-POINTS"),
		prep("duplicates-of-self-fail-before-abort", "SR-CANCEL-3", refs(ref("a"), ref("me")), "cancel", "before").trap("TRAP-ASYNC-CANCEL-POINTS"),
		prep("invalid-reference-before-abort", "SR-CANCEL-3 SR-ERR-3", refs(ref("a"), o("sessionId", "b", "label", 5)), "cancel", "before").trap("TRAP-ASYNC-CANCEL-POINTS"),
		prep("abort-during-failing-read", "SR-CANCEL-4", refs(ref("broken")), "cancel", "during-read").trap("TRAP-ASYNC-CANCEL-POINTS"),
		prep("label-null-is-not-absent", "SR-PREP-1", refs(o("sessionId", "a", "label", nil))).trap("TRAP-TYPE-NULL-ABSENT"),
		prep("label-absent-is-id", "SR-PREP-3", refs(o("sessionId", "a"))).trap("TRAP-TYPE-NULL-ABSENT"),
		prep("label-empty-is-not-absent", "SR-PREP-3", refs(o("sessionId", "a", "label", ""))).trap("TRAP-TYPE-NULL-ABSENT"),
		c("cwd-empty-is-not-null", "SR-PROJ-7", o("world", world(sess("e", cwd(""), events(userMsg("in e")))), "agent", agent("me"), "content", "x", "references", refs(ref("e")))).trap("TRAP-TYPE-NULL-ABSENT"),
		prep("label-false-is-invalid", "SR-PREP-1", refs(o("sessionId", "a", "label", false))).trap("TRAP-TYPE-NULL-ABSENT"),
		prep("limit-0-in-config-is-invalid", "SR-CONF-2", refs(ref("a")), "config", o("maxReferences", 0)).trap("TRAP-TYPE-NULL-ABSENT"),
	)
	for i, seq := range []any{1e16, 1e20, 1e-6, 1.0 / 3, 100, num("100.0"), num("1e2"), num("-0"), num("-0.0"), num("1E21"), 9007199254740993.0, 2.5e-8} {
		cs = append(cs, c(fmt.Sprintf("snapshot-number-text-%02d", i), "SR-STR-6 SR-PROJ-7",
			o("world", world(sess("s", surf(o("capturedThroughSeq", seq, "events", a(userMsg("u")))))), "agent", agent("me"), "content", "x", "references", refs(ref("s")))).trap("TRAP-JSON-NUMBERS"))
	}
	return []gfile{{"traps-order-candidates.yaml", protocol.OpCandidates, cands}, {"traps-order-prepare.yaml", protocol.OpPrepare, cs}}
}

func nullTitle(s *wire.Object) *wire.Object { return s.Set("title", nil) }
