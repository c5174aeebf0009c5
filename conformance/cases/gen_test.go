package cases_test

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// The fixture generator's source: every case of fixtures/*.yaml, without its expected
// outcome, which `go test ./conformance/cases -run TestFixturesUpToDate -update` computes with
// the embedded reference and writes. Each case is named after the one thing it checks.

type gcase struct {
	name     string
	reqs     []string
	args     *wire.Object
	profiles []string
	traps    []string // spec/porting-traps.md ids the case is built to catch
}

type gfile struct {
	file, op string
	cases    []gcase
}

func c(name string, reqs string, args *wire.Object) gcase {
	return gcase{name: name, reqs: strings.Fields(reqs), args: args}
}

func (g gcase) only(profiles ...string) gcase { g.profiles = profiles; return g }

func generated() []gfile {
	files := []gfile{uriEncode(), uriDecode(), mentionFormat(), mentionParse(), configFile(), candidatesFile(), prepareFile(), retentionFile(), hostFile()}
	files = append(files, strykerFiles()...)
	files = append(files, cancelFiles()...)
	files = append(files, unionFiles()...)
	files = append(files, parserLimitFiles()...)
	files = append(files, caseFieldFiles()...)
	files = append(files, identityFiles()...)
	files = append(files, widthFiles()...)
	files = append(files, trimFiles()...)
	files = append(files, depthFiles()...)
	files = append(files, strIndexFiles()...)
	files = append(files, cwdNilFiles()...)
	files = append(files, trimFormatFiles()...)
	files = append(files, goportFiles()...)
	files = append(files, jsObjectFiles()...)
	files = append(files, blankTextFiles()...)
	files = append(files, queryPatternFiles()...)
	files = append(files, lossyFiles()...)
	files = append(files, bomRunFiles()...)
	files = append(files, noticeCountFiles()...)
	files = append(files, keyOrderFiles()...)
	files = append(files, narrowUnitFiles()...)
	files = append(files, infinityFiles()...)
	files = append(files, phpFiles()...)
	files = append(files, perlFiles()...)
	return append(files, trapFiles()...)
}

func enc(id string) string { return contract.URI(id) }

func uriEncode() gfile {
	id := func(name, reqs, s string) gcase { return c(name, reqs, o("sessionId", s)) }
	return gfile{"uri-encode.yaml", protocol.OpURIEncode, []gcase{
		id("ascii-id", "SR-URI-1", "a"),
		id("empty-id", "SR-URI-1 SR-URI-2", ""),
		id("two-byte-json-no-padding", "SR-URI-1", "ab"),
		id("three-byte-remainder-no-padding", "SR-URI-1", "abc"),
		id("url-safe-alphabet", "SR-URI-1", "~~~???>>>"),
		id("quote-and-backslash", "SR-URI-1 SR-STR-2", `a"b\c`),
		id("control-characters", "SR-URI-1 SR-STR-2", u(`\u0000\u0001\b\t\n\u000b\f\r\u001f\u007f`)),
		id("html-and-line-separators-unescaped", "SR-URI-1 SR-STR-2", u(`<a>&\u2028\u2029`)),
		id("non-ascii", "SR-URI-1", "ΣΊΣΥΦΟΣ"),
		id("astral", "SR-URI-1", "😀"),
		id("lone-high-surrogate", "SR-URI-1 SR-STR-1 SR-STR-2", u(`a\ud800b`)),
		id("lone-low-surrogate", "SR-URI-1 SR-STR-1 SR-STR-2", u(`\udc00`)),
		id("reversed-pair", "SR-URI-1 SR-STR-1", u(`\ude00\ud83d`)),
		id("json-hostile-id", "SR-URI-1 SR-URI-2", `{"sessionId":"x"}`),
	}}
}

func b64(raw string) string { return contract.URIOf(raw) }

func uriDecode() gfile {
	d := func(name, reqs, s string) gcase { return c(name, reqs, o("uri", s)) }
	return gfile{"uri-decode.yaml", protocol.OpURIDecode, []gcase{
		d("canonical-ascii", "SR-URI-2 SR-URI-3", enc("a")),
		d("canonical-empty-id", "SR-URI-2 SR-URI-3", enc("")),
		d("canonical-astral", "SR-URI-2", enc("😀")),
		d("canonical-lone-surrogate", "SR-URI-2 SR-STR-1", enc(u(`a\ud800b`))),
		d("canonical-json-hostile", "SR-URI-2", enc(u(`\"\\\u0000<\u2028`))),
		d("empty-string", "SR-URI-4", ""),
		d("scheme-only", "SR-URI-4", "dsh-session:"),
		d("uppercase-scheme", "SR-URI-4", "DSH-SESSION:ImEi"),
		d("other-scheme", "SR-URI-4", "session:ImEi"),
		d("missing-colon", "SR-URI-4", "dsh-sessionImEi"),
		d("leading-space", "SR-URI-4", " dsh-session:ImEi"),
		d("padding", "SR-URI-4", "dsh-session:ImFiIg=="),
		d("standard-base64-plus", "SR-URI-4", "dsh-session:Ij4+Ig"),
		d("trailing-paren", "SR-URI-4", "dsh-session:ImEi)"),
		d("inner-space", "SR-URI-4", "dsh-session:Im Ei"),
		d("stray-bits", "SR-URI-3 SR-URI-6", "dsh-session:ImFiIh"),
		d("number-json", "SR-URI-5", b64("42")),
		d("null-json", "SR-URI-5", b64("null")),
		d("object-json", "SR-URI-5", b64(`{"a":"b"}`)),
		d("array-json", "SR-URI-5", b64(`["a"]`)),
		d("not-json", "SR-URI-5", b64("abc")),
		d("invalid-utf8", "SR-URI-5", b64("\"\xff\"")),
		d("non-minimal-escape", "SR-URI-6", b64(`"\u0061"`)),
		d("uppercase-surrogate-escape", "SR-URI-6 SR-STR-2", b64(`"\uD800"`)),
		d("escaped-slash", "SR-URI-6", b64(`"a\/b"`)),
		d("whitespace-around-json", "SR-URI-6", b64(` "a" `)),
		d("raw-control-character-escaped-differently", "SR-URI-6", b64(`"\u000a"`)),
		// The payload alphabet's two non-alphanumerics (a decoder without the URL-safe
		// alphabet drops or rejects them), and an id that is U+FFFD itself (valid UTF-8: a
		// port that detects bad bytes by looking for U+FFFD in its decoded text rejects it).
		d("payload-with-dash-and-underscore", "SR-URI-1 SR-URI-2", enc("~~~???>>>")),
		d("replacement-character-id", "SR-URI-2", enc("\ufffd")),
		// Escapes the re-encode check rejects beyond the listed ones: an uppercase-hex control
		// escape, and an astral character written as its escaped surrogate pair.
		d("uppercase-control-escape", "SR-URI-6", b64(`"\u001F"`)),
		d("escaped-astral-pair", "SR-URI-6", b64(`"\ud83d\ude00"`)),
	}}
}

func mentionFormat() gfile {
	f := func(name, reqs string, args *wire.Object) gcase { return c(name, reqs, args) }
	return gfile{"mention-format.yaml", protocol.OpMentionFormat, []gcase{
		f("plain-label", "SR-MENTION-1", o("sessionId", "s-1", "label", "Parser work")),
		f("label-absent-uses-id", "SR-MENTION-2", o("sessionId", "s-1")),
		f("label-null-uses-id", "SR-MENTION-2", o("sessionId", "s-1", "label", nil)),
		f("empty-label-kept", "SR-MENTION-2", o("sessionId", "s-1", "label", "")),
		f("bracket-escaped", "SR-MENTION-1", o("sessionId", "s-1", "label", "a]b")),
		f("backslash-escaped", "SR-MENTION-1", o("sessionId", "s-1", "label", `a\b`)),
		f("opening-bracket-and-paren-not-escaped", "SR-MENTION-1", o("sessionId", "s-1", "label", "[x](y)")),
		f("id-label-escaped", "SR-MENTION-2", o("sessionId", `a]\`)),
		f("newline-label", "SR-MENTION-1", o("sessionId", "s-1", "label", "two\nlines")),
		f("lone-surrogate-label", "SR-MENTION-1 SR-STR-1", o("sessionId", "s-1", "label", u(`x\udc00`))),
		f("json-hostile-id", "SR-MENTION-1 SR-URI-1", o("sessionId", `"}<`, "label", "q")),
	}}
}

func mentionParse() gfile {
	p := func(name, reqs, text string) gcase { return c(name, reqs, o("text", text)) }
	m := func(label, id string) string { return "@[" + label + "](" + enc(id) + ")" }
	A := enc("a")
	return gfile{"mention-parse.yaml", protocol.OpMentionParse, []gcase{
		p("no-mention", "SR-MENTION-9", "just text @[x](y)"),
		p("empty-text", "SR-MENTION-9", ""),
		p("scheme-alone", "SR-MENTION-7", "about dsh-session: links"),
		p("scheme-punctuation-only", "SR-MENTION-7", "dsh-session:!? and dsh-session:."),
		p("one-markdown-mention", "SR-MENTION-3 SR-MENTION-4", "see "+m("Parser", "s-1")+" now"),
		p("escaped-bracket-label", "SR-MENTION-3 SR-MENTION-4", "see "+m(`a\]b`, "s-1")),
		p("escaped-backslash-label", "SR-MENTION-4", m(`a\\`, "s-1")),
		p("other-escape-unescaped", "SR-MENTION-4", m(`\x\[`, "s-1")),
		p("empty-label", "SR-MENTION-4", m("", "s-1")),
		p("newline-inside-label", "SR-MENTION-3", m("two\nlines", "s-1")),
		p("duplicates-kept", "SR-MENTION-4", m("A", "s-1")+" and "+m("B", "s-1")),
		p("bare-uri", "SR-MENTION-3 SR-MENTION-4", "see "+A+" now"),
		p("bare-uri-inside-word", "SR-MENTION-6", "x"+A+".y"),
		p("bare-uri-run-noncanonical", "SR-MENTION-6", "see "+A+"y"),
		p("bare-and-markdown-in-order", "SR-MENTION-4", A+" then "+m("B", "b")),
		p("markdown-noncanonical", "SR-MENTION-5", "@[x](dsh-session:ImFiIh)"),
		p("markdown-empty-payload", "SR-MENTION-5", "@[x](dsh-session:)"),
		p("markdown-punctuation-payload", "SR-MENTION-5", "@[x](dsh-session:!!)"),
		p("markdown-padding", "SR-MENTION-5", "@[x](dsh-session:ImFiIg==)"),
		p("second-mention-invalid-fails-all", "SR-MENTION-5", m("ok", "a")+" @[x](dsh-session:ImFiIh)"),
		p("unclosed-paren-falls-back-to-bare", "SR-MENTION-8", "@[x]("+A),
		p("space-in-uri-falls-back-to-bare", "SR-MENTION-8", "@[x]("+A+" y)"),
		p("nbsp-in-uri-falls-back-to-bare", "SR-MENTION-8 SR-STR-1", "@[x]("+A+"\u00a0)"),
		p("unclosed-label-falls-back-to-bare", "SR-MENTION-8", "@[x("+A+")"),
		p("escaped-newline-not-a-label", "SR-MENTION-8", "@[x\\\n]("+A+")"),
		p("other-scheme-markdown-unchanged", "SR-MENTION-9", "@[x](http://example.com)"),
		p("lone-surrogate-label", "SR-MENTION-4 SR-STR-1", m(u(`\ud800`), "s-1")),
		p("label-high-surrogate-joins-following-low", "SR-MENTION-9 SR-STR-1", m(u(`a\ud83d`), "a")+u(`\ude00`)),
		p("lone-surrogate-id-bare", "SR-MENTION-4 SR-STR-1", enc(u(`\udfff`))),
		p("bare-payload-with-dash-and-underscore", "SR-MENTION-6 SR-URI-1", "see "+enc("~~~???>>>")+" now"),
		// A bare run takes `-` and `_` too: a lone one is a payload that does not decode, and
		// so is a run that swallows the next scheme's letters (no scanning for the next URI).
		p("bare-dash-payload-fails", "SR-MENTION-6", "x dsh-session:- y"),
		p("bare-underscore-payload-fails", "SR-MENTION-6", "x dsh-session:_ y"),
		p("bare-run-takes-trailing-dash", "SR-MENTION-6", "see "+A+"-"),
		p("bare-run-swallows-next-scheme", "SR-MENTION-6", A+A),
		// The Markdown URI runs to the first `)`: a `(` or `]` inside it is part of the URI,
		// which then does not decode (no fall back to the bare form).
		p("paren-inside-markdown-uri", "SR-MENTION-5", "@[x]("+A+"(y)"),
		p("nested-parens-inside-markdown-uri", "SR-MENTION-5", "@[x]("+A+",see(y))"),
		p("bracket-inside-markdown-uri", "SR-MENTION-5", "@[x]("+A+"](y)"),
		// A `]` not followed by `(dsh-session:` ends the label all the same: no lazy label that
		// runs on to a later mention's `](`, no bracket balancing.
		p("bracket-without-uri-before-a-mention", "SR-MENTION-8 SR-MENTION-3", "@[a](b) and "+m("c", "a")),
		p("stray-bracket-then-uri", "SR-MENTION-8", "@[a](b) c]("+A+")"),
		p("nested-brackets-not-balanced", "SR-MENTION-8 SR-MENTION-3", "@[[x]]("+A+")"),
		// Text that ends inside the form: every scan stops at the end, no reference, no error.
		p("ends-after-at-bracket", "SR-MENTION-8 SR-MENTION-9", "@["),
		p("ends-after-backslash", "SR-MENTION-8 SR-MENTION-9", `@[x\`),
		p("ends-after-bracket", "SR-MENTION-8 SR-MENTION-9", "@[x]"),
		p("ends-after-paren", "SR-MENTION-8 SR-MENTION-9", "@[x]("),
		p("ends-after-markdown-scheme", "SR-MENTION-7 SR-MENTION-8", "@[x](dsh-session:"),
		p("ends-after-bare-scheme", "SR-MENTION-7", "see dsh-session:"),
	}}
}

func configFile() gfile {
	cfg := func(name, reqs string, v any) gcase { return c(name, reqs, o("config", v)) }
	return gfile{"config.yaml", protocol.OpConfig, []gcase{
		c("absent-config-defaults", "SR-CONF-1", o()),
		cfg("empty-config-defaults", "SR-CONF-1", o()),
		cfg("null-keys-default", "SR-CONF-1", o("maxReferences", nil, "candidateLimit", nil, "maxReferenceBytes", nil)),
		cfg("explicit-values", "SR-CONF-1 SR-CONF-5", o("maxReferences", 1, "candidateLimit", 7, "maxReferenceBytes", 1)),
		cfg("max-safe-integers", "SR-CONF-5", o("candidateLimit", 9007199254740991, "maxReferenceBytes", 9007199254740991)),
		cfg("max-references-3", "SR-CONF-3", o("maxReferences", 3)),
		cfg("max-references-4", "SR-CONF-3", o("maxReferences", 4)),
		cfg("max-references-huge", "SR-CONF-3", o("maxReferences", 9007199254740991)),
		cfg("max-references-0", "SR-CONF-2", o("maxReferences", 0)),
		cfg("max-references-negative", "SR-CONF-2", o("maxReferences", -1)),
		cfg("max-references-fraction", "SR-CONF-2", o("maxReferences", 1.5)),
		cfg("max-references-string", "SR-CONF-2", o("maxReferences", "3")),
		cfg("max-references-boolean", "SR-CONF-2", o("maxReferences", true)),
		cfg("candidate-limit-0", "SR-CONF-2", o("candidateLimit", 0)),
		cfg("candidate-limit-unsafe", "SR-CONF-2", o("candidateLimit", 9007199254740992.0)),
		cfg("max-reference-bytes-0", "SR-CONF-2", o("maxReferenceBytes", 0)),
		cfg("max-reference-bytes-fraction", "SR-CONF-2", o("maxReferenceBytes", 100.5)),
		cfg("max-reference-bytes-object", "SR-CONF-2", o("maxReferenceBytes", o())),
		cfg("null-config", "SR-CONF-4 SR-ERR-2", nil),
		cfg("number-config-defaults", "SR-CONF-4", 5),
		cfg("string-config-defaults", "SR-CONF-4", "maxReferences"),
		cfg("array-config-defaults", "SR-CONF-4", a(1, 2)),
		cfg("unknown-key-ignored", "SR-CONF-4", o("maxReference", 9)),
	}}
}

// candWorld lists its sessions neither by creation time nor by rank.
func candWorld() *wire.Object {
	return world(
		sess("n1", cwd("/other"), created(5), title("Other")),
		sess("n2", created(9), titleErr("title log unreadable")),
		sess("me", cwd("/repo"), created(3)),
		sess("n3", cwd("/repo"), created(2), title("")),
		sess("n4", cwd("/repo"), created(7), title("ΣΊΣΥΦΟΣ")),
		sess("n5", created(1), events(userMsg("needle in a body"))),
	)
}

func candidatesFile() gfile {
	w := candWorld()
	me := agentIn("me", "/repo")
	// spaced has one title with a space in it, one without, and a session with no title.
	spaced := world(sess("a", cwd("/x"), title("my notes"), created(1)), sess("b", cwd("/repo"), title("plain"), created(2)), sess("c", created(3)))
	cand := func(name, reqs string, kv ...any) gcase {
		args := o("world", w, "agent", me)
		for i := 0; i+1 < len(kv); i += 2 {
			args.Set(kv[i].(string), norm(kv[i+1]))
		}
		return c(name, reqs, args)
	}
	greek := world(
		sess("g1", title("ΟΔΟΣ")),
		sess("g2", title("İZMİR")),
		sess("g3", title("Straße")),
		sess("g4", title(u(`\ud83d\ude00 smile`))),
		sess("g5", title(u(`lone \udc00`))),
	)
	return gfile{"candidates.yaml", protocol.OpCandidates, []gcase{
		cand("empty-query-ranked", "SR-CAND-1 SR-CAND-2 SR-CAND-5 SR-CAND-9 SR-QUERY-1"),
		cand("query-absent-equals-empty", "SR-CAND-11", "query", ""),
		cand("limit-reads-titles-of-limited-set-only", "SR-CAND-3 SR-CAND-6", "limit", 2),
		cand("limit-1", "SR-CAND-3", "limit", 1),
		cand("config-candidate-limit", "SR-CAND-3 SR-CONF-1", "config", o("candidateLimit", 2)),
		cand("agent-without-cwd", "SR-CAND-2", "agent", agent("me")),
		cand("agent-in-unknown-cwd", "SR-CAND-2", "agent", agentIn("me", "/elsewhere")),
		cand("query-title-case-insensitive", "SR-CAND-7 SR-CAND-8", "query", "OTHER"),
		cand("query-reads-every-title", "SR-CAND-7", "query", "n"),
		cand("query-id", "SR-CAND-8", "query", "N2"),
		cand("query-cwd", "SR-CAND-8", "query", "/REPO"),
		cand("query-fallback-label-is-id", "SR-CAND-8 SR-CAND-5", "query", "n2"),
		cand("query-final-sigma", "SR-CAND-8 SR-STR-4", "query", "σίσυφος"),
		cand("query-matches-nothing", "SR-CAND-8", "query", "zzz"),
		cand("bodies-not-searched", "SR-CAND-8", "query", "needle"),
		cand("query-then-limit", "SR-CAND-3 SR-CAND-12", "query", "n", "limit", 2),
		cand("self-excluded-even-when-matching", "SR-CAND-1", "query", "me"),
		cand("limit-0", "SR-CAND-4", "limit", 0),
		cand("limit-negative", "SR-CAND-4", "limit", -3),
		cand("limit-fraction", "SR-CAND-4", "limit", 2.5),
		cand("limit-string", "SR-CAND-4", "limit", "2"),
		cand("limit-null", "SR-CAND-4", "limit", nil),
		cand("limit-unsafe", "SR-CAND-4", "limit", 9007199254740992.0),
		cand("limit-max-safe", "SR-CAND-3", "limit", 9007199254740991),
		cand("non-string-query", "SR-CAND-11 SR-ERR-2", "query", 42),
		cand("invalid-limit-before-query-type", "SR-ERR-4", "query", 42, "limit", 0),
		cand("query-type-before-cancel", "SR-CAND-11 SR-ERR-4", "cancel", "before", "query", 42),
		cand("invalid-config-before-limit-and-query", "SR-ERR-4 SR-ERR-5", "config", o("maxReferences", 4), "limit", 0, "query", 42),
		cand("aborted", "SR-CANCEL-5", "cancel", "before"),
		cand("invalid-limit-before-cancel", "SR-CANCEL-7 SR-ERR-4", "cancel", "before", "limit", 0),
		cand("aborted-while-listing", "SR-CANCEL-6", "cancel", "during-read"),
		c("list-failure-unwrapped", "SR-CAND-10 SR-ERR-2", o("world", o("sessions", a(), "listError", "index broken"), "agent", me)),
		c("list-failure-after-cancel-check", "SR-CANCEL-5 SR-ERR-4", o("world", o("sessions", a(), "listError", "index broken"), "agent", me, "cancel", "before")),
		c("empty-world", "SR-CAND-1", o("world", world(), "agent", me)),
		c("only-self", "SR-CAND-1", o("world", world(sess("me")), "agent", me)),
		c("all-title-reads-fail", "SR-CAND-5", o("world", world(sess("x", titleErr("e")), sess("y", titleErr("e"))), "agent", me)),
		c("listing-order-not-creation-order", "SR-CAND-2", o("world", world(sess("old", created(1)), sess("new", created(9)), sess("mid", created(5))), "agent", me)),
		c("final-sigma-query-matches", "SR-STR-4", o("world", greek, "agent", me, "query", "οδος")),
		c("non-final-sigma-query-misses", "SR-STR-4", o("world", greek, "agent", me, "query", "οδοσ")),
		c("dotted-capital-i-full-lowercase", "SR-STR-4", o("world", greek, "agent", me, "query", "i̇zmi̇r")),
		c("dotted-capital-i-not-turkish", "SR-STR-4", o("world", greek, "agent", me, "query", "izmir")),
		c("sharp-s-not-folded", "SR-STR-4", o("world", greek, "agent", me, "query", "strasse")),
		c("lone-high-needle-matches-half-pair", "SR-STR-5 SR-STR-1", o("world", greek, "agent", me, "query", u(`\ud83d`))),
		c("lone-low-needle", "SR-STR-5 SR-STR-1", o("world", greek, "agent", me, "query", u(`\udc00`))),
		// A session listed twice: the title read answers once per unique id (SR-CAND-13).
		c("duplicate-id-fails-title-pairing", "SR-CAND-13 SR-ERR-2", o("world", world(sess("a"), sess("b"), sess("a")), "agent", me)),
		c("duplicate-id-with-query-fails", "SR-CAND-13", o("world", world(sess("a"), sess("b"), sess("a")), "agent", me, "query", "b")),
		c("duplicate-id-beyond-limit-harmless", "SR-CAND-13", o("world", world(sess("a"), sess("b"), sess("a")), "agent", me, "limit", 2)),
		c("duplicate-self-id-harmless", "SR-CAND-13", o("world", world(sess("a"), sess("me"), sess("me")), "agent", me)),
		// A query of blanks is a query, not "" (no trim, no IsNullOrWhiteSpace): every title
		// is read and the filter keeps what contains a space.
		c("blank-query-is-a-query", "SR-CAND-7 SR-CAND-8", o("world", spaced, "agent", me, "query", " ")),
		c("blank-query-is-a-query-limited", "SR-CAND-7 SR-CAND-12", o("world", spaced, "agent", me, "query", " ", "limit", 1)),
		// A failed title read labels with the id, and the query matches that label, not the
		// title the failed read carried.
		c("failed-title-read-matches-by-id", "SR-CAND-5 SR-CAND-8", o("world", world(sess("f", title("Tango"), titleErr("boom"), created(1)), sess("g", title("tango"), created(2))), "agent", me, "query", "TANGO")),
		// createdAt is copied as the number it is, and a header's other keys go nowhere.
		c("header-copied-not-spread", "SR-CAND-9", o("world", world(o("header", o("id", "a", "createdAt", 1.5, "title", "H", "label", "L", "live", true))), "agent", me)),
		// A live signal changes no failure (SR-CANCEL-8).
		c("live-signal-listing-failure", "SR-CANCEL-8 SR-CAND-10", o("world", o("sessions", a(), "listError", "index broken"), "agent", me, "cancel", "never")),
		c("live-signal-duplicate-id", "SR-CANCEL-8 SR-CAND-13", o("world", world(sess("a"), sess("b"), sess("a")), "agent", me, "cancel", "never")),
	}}
}

// Prepare sources.
func fullSource() *wire.Object {
	return sess("src-1", cwd("/repo"), created(100), events(
		userMsg("old question"),
		checkpointMsg("Summary: <b>fixed</b> the parser"),
		sourcedMsg("plugin noise", o("kind", "plugin", "plugin", "memory")),
		asstBlocks(o("type", "reasoning", "text", "hidden"), textBlock("Done."), o("type", "tool-call", "id", "c1", "name", "read", "arguments", "{}")),
		toolResult("file body"),
		userBlocks(textBlock("thanks"), o("type", "image", "data", "x"), textBlock("bye")),
	))
}

func prepWorld() *wire.Object {
	return world(
		fullSource(),
		sess("a", cwd("/a"), events(userMsg("hello from a"), asstMsg("hi a"))),
		sess("b", events(userMsg("hello from b"))),
		sess("c", cwd("/c"), events(asstMsg("c says"))),
		sess("d", events(userMsg("d"))),
		sess("broken", readErr("disk on fire")),
		sess("empty"),
		sess("me", cwd("/repo")),
	)
}

func prepareFile() gfile {
	w := prepWorld()
	me := agentIn("me", "/repo")
	content := a(textBlock("look at @Parser"))
	prep := func(name, reqs string, rs []any, kv ...any) gcase {
		args := o("world", only(w, rs), "agent", me, "content", content, "references", rs)
		for i := 0; i+1 < len(kv); i += 2 {
			args.Set(kv[i].(string), norm(kv[i+1]))
		}
		return c(name, reqs, args)
	}
	// in is a prepare of content "x" for me over the world w, with the other arguments kv.
	in := func(name, reqs string, w *wire.Object, kv ...any) gcase {
		args := o("world", w, "agent", me, "content", "x")
		for i := 0; i+1 < len(kv); i += 2 {
			args.Set(kv[i].(string), norm(kv[i+1]))
		}
		return c(name, reqs, args)
	}
	// notAnEvent is a prepare of one source whose surface holds bad, then a valid message.
	notAnEvent := func(name, reqs string, bad any) gcase {
		return in(name, reqs, world(sess("s", surf(o("capturedThroughSeq", 2, "events", a(bad, userMsg("u")))))), "references", refs(ref("s")))
	}
	proj := func(name, reqs string, ev ...*wire.Object) gcase {
		return c(name, reqs, o("world", world(sess("s", events(ev...))), "agent", me, "content", "x", "references", refs(ref("s"))))
	}
	return gfile{"prepare.yaml", protocol.OpPrepare, []gcase{
		prep("one-source-full-surface", "SR-PREP-6 SR-PREP-10 SR-PROJ-1 SR-PROJ-2 SR-PROJ-3 SR-PROJ-4 SR-PROJ-5 SR-PROJ-7 SR-PROMPT-1 SR-PROMPT-2 SR-PROMPT-3 SR-PROMPT-4 SR-PROMPT-6 SR-RET-10 SR-QUERY-2", refs(refL("src-1", "Parser"))),
		prep("label-defaults-to-id", "SR-PREP-3", refs(ref("a"))),
		prep("empty-label-kept", "SR-PREP-3", refs(refL("a", ""))),
		prep("duplicates-keep-first-label", "SR-PREP-3 SR-PREP-6", refs(refL("a", "A1"), ref("b"), refL("a", "A2"))),
		prep("first-mention-order", "SR-PREP-3 SR-PROMPT-4 SR-PROMPT-5", refs(ref("b"), ref("a"), ref("c"))),
		prep("three-sources-max", "SR-PREP-4 SR-PROMPT-5", refs(ref("a"), ref("b"), ref("c"))),
		prep("four-mentions-three-distinct", "SR-PREP-4", refs(ref("a"), ref("b"), ref("a"), ref("c"))),
		prep("four-distinct-too-many", "SR-PREP-4", refs(ref("a"), ref("b"), ref("c"), ref("d"))),
		prep("configured-max-1", "SR-PREP-4 SR-CONF-1", refs(ref("a"), ref("b")), "config", o("maxReferences", 1)),
		prep("self-reference", "SR-PREP-2", refs(ref("me"))),
		prep("self-reference-after-valid", "SR-PREP-2 SR-PREP-6", refs(ref("a"), ref("me"))),
		prep("invalid-element-before-self", "SR-PREP-2 SR-ERR-3", refs(o("sessionId", 5), ref("me"))),
		prep("self-before-invalid-element", "SR-PREP-2 SR-ERR-3", refs(ref("me"), o("sessionId", 5))),
		prep("invalid-element-after-too-many", "SR-PREP-4 SR-ERR-3", refs(ref("a"), ref("b"), ref("c"), ref("d"), o("label", "x"))),
		prep("self-after-too-many", "SR-PREP-4 SR-ERR-3", refs(ref("a"), ref("b"), ref("c"), ref("d"), ref("me"))),
		in("null-element", "SR-PREP-1", w, "references", a(nil)),
		in("string-element", "SR-PREP-1", w, "references", a("a")),
		in("number-element", "SR-PREP-1", w, "references", a(7)),
		in("array-element", "SR-PREP-1", w, "references", a(a("a"))),
		prep("missing-session-id", "SR-PREP-1", refs(o("label", "x"))),
		prep("numeric-session-id", "SR-PREP-1", refs(o("sessionId", 1))),
		prep("null-label", "SR-PREP-1", refs(o("sessionId", "a", "label", nil))),
		prep("numeric-label", "SR-PREP-1", refs(o("sessionId", "a", "label", 1))),
		prep("extra-keys-ignored", "SR-PREP-1", refs(o("sessionId", "a", "label", "A", "uri", "x"))),
		prep("unknown-empty-id", "SR-PREP-7", refs(ref(""))),
		in("empty-id-source", "SR-PREP-6 SR-URI-2", world(sess("", events(userMsg("from the empty id")))), "references", refs(ref(""))),
		prep("zero-references", "SR-PREP-5", refs()),
		prep("zero-references-aborted", "SR-PREP-5 SR-CANCEL-2", refs(), "cancel", "before"),
		prep("aborted-before-reading", "SR-CANCEL-1", refs(ref("a")), "cancel", "before"),
		prep("aborted-with-too-many", "SR-CANCEL-3 SR-ERR-3", refs(ref("a"), ref("b"), ref("c"), ref("d")), "cancel", "before"),
		prep("aborted-with-self-reference", "SR-CANCEL-3", refs(ref("me")), "cancel", "before"),
		prep("aborted-while-reading", "SR-CANCEL-4", refs(ref("a")), "cancel", "during-read"),
		prep("aborted-while-reading-two", "SR-CANCEL-4", refs(ref("a"), ref("b")), "cancel", "during-read"),
		prep("read-fails-before-abort", "SR-CANCEL-4 SR-PREP-7", refs(ref("a"), ref("broken")), "cancel", "during-read"),
		prep("read-failure", "SR-PREP-7", refs(ref("broken"))),
		prep("unknown-session", "SR-PREP-7", refs(ref("nobody"))),
		prep("second-read-fails", "SR-PREP-7 SR-PREP-6", refs(ref("a"), ref("broken"), ref("b"))),
		// Every read settles before any source is rendered (SR-ERR-3): a port that reads all,
		// then renders source by source, checking each read's outcome as it comes to it,
		// reports the first source's budget instead of the second's failed read.
		prep("read-failure-before-budget", "SR-PREP-7 SR-PREP-9 SR-ERR-3", refs(ref("a"), ref("broken")), "config", o("maxReferenceBytes", 10)),
		// Sources are rendered one by one in normalized order, each checked whole (SR-ERR-3):
		// the first source's budget decides before a later surface that breaks the query
		// contract, and that surface before a later source's budget.
		// (a's label alone is over the 250 bytes; s's fixed part is well under them.)
		in("budget-before-later-broken-surface", "SR-PREP-9 SR-QUERY-3 SR-ERR-3", world(sess("a", events(userMsg("hi"))), brokenSurface("s")), "references", refs(refL("a", strings.Repeat("L", 400)), ref("s")), "config", o("maxReferenceBytes", 250)),
		in("broken-surface-before-later-budget", "SR-PREP-9 SR-QUERY-3 SR-ERR-3", world(brokenSurface("s"), sess("a", events(userMsg("hi")))), "references", refs(ref("s"), refL("a", strings.Repeat("L", 400))), "config", o("maxReferenceBytes", 250)),
		// References that are not iterable fail with no code before anything is read (a
		// `references or []`, a nil slice read as empty, or one object taken as one reference
		// each succeeds).
		in("references-absent-fails", "SR-ERR-2 SR-ERR-3", world(sess("a"))),
		in("references-null-fails", "SR-ERR-2 SR-ERR-3", world(sess("a")), "references", nil),
		in("references-object-fails", "SR-ERR-2 SR-ERR-3", world(sess("a")), "references", ref("a")),
		in("references-number-fails", "SR-ERR-2 SR-ERR-3", world(sess("a")), "references", 5),
		in("references-true-fails", "SR-ERR-2 SR-ERR-3", world(sess("a")), "references", true),
		in("references-null-fails-before-abort", "SR-ERR-2 SR-ERR-3 SR-CANCEL-3", world(sess("a")), "references", nil, "cancel", "before"),
		// Nothing is rendered before every read settled: an abort while reading decides over a
		// source that would not fit or whose surface breaks the query contract (a port that
		// renders each source as its read arrives answers those instead), and a failed read
		// decides over an earlier broken surface (a port that validates events inside its read).
		in("abort-while-reading-before-budget", "SR-CANCEL-4 SR-ERR-3", world(sess("a"), sess("b")), "references", refs(ref("a"), refL("b", strings.Repeat("L", 90))), "config", o("maxReferenceBytes", 100), "cancel", "during-read"),
		in("abort-while-reading-before-broken-surface", "SR-CANCEL-4 SR-ERR-3 SR-QUERY-3", world(sess("a"), brokenSurface("b")), "references", refs(ref("a"), ref("b")), "cancel", "during-read"),
		in("read-failure-before-earlier-broken-surface", "SR-PREP-7 SR-ERR-3 SR-QUERY-3", world(brokenSurface("a"), sess("b", readErr("gone"))), "references", refs(ref("a"), ref("b"))),
		// A live signal changes no failure either (SR-CANCEL-8): not `signal != null` for
		// aborted, no wrapper that answers every failure cancelled.
		in("live-signal-read-failure", "SR-CANCEL-8 SR-PREP-7", world(sess("b", readErr("gone"))), "references", refs(ref("b")), "cancel", "never"),
		in("live-signal-budget", "SR-CANCEL-8 SR-PREP-9", world(sess("a", events(userMsg("hi")))), "references", refs(ref("a")), "config", o("maxReferenceBytes", 10), "cancel", "never"),
		// Preparation never lists sessions or reads titles (SR-QUERY-2): its answer carries no
		// count of them, but a world whose listing and title reads fail fails a port that makes
		// either call and passes the failure on.
		in("never-lists-or-reads-titles", "SR-QUERY-2", o("sessions", a(sess("a", titleErr("title log unreadable"), events(userMsg("in a")))), "listError", "index broken"), "references", refs(ref("a"))),
		// An absent content stays absent in the answer (not null), with or without a source.
		c("content-absent-left-out", "SR-PREP-8 SR-PREP-5", o("world", world(sess("a")), "agent", me, "references", a())),
		c("content-absent-left-out-with-source", "SR-PREP-8", o("world", world(sess("a", events(userMsg("in a")))), "agent", me, "references", refs(ref("a")))),
		// References are iterated as JavaScript iterates them: "" is an empty list, and each
		// code unit of "ab" is an element that is not an object (an isinstance(list) check
		// fails both with no code).
		in("references-empty-string-is-empty", "SR-PREP-5 SR-ERR-3", world(sess("a")), "references", ""),
		in("references-string-elements-invalid", "SR-PREP-1 SR-ERR-3", world(sess("a")), "references", "ab"),
		prep("session-without-surface", "SR-PROJ-7", refs(ref("empty"))),
		prep("content-string-detached", "SR-PREP-8", refs(ref("a")), "content", "hello\u2028<world>"),
		prep("content-object-detached", "SR-PREP-8", refs(ref("a")), "content", o("nested", a(1, "two", o("three", nil)))),
		prep("content-null", "SR-PREP-8", refs(), "content", nil),
		prep("invalid-config-first", "SR-ERR-5 SR-CONF-2", refs(ref("me"), nil), "config", o("maxReferenceBytes", 0)),
		proj("plugin-and-context-messages-excluded", "SR-PROJ-1 SR-PROJ-3",
			sourcedMsg("memory", o("kind", "plugin", "plugin", "memory")),
			sourcedMsg("earlier snapshot", o("kind", "session-reference", "form", "recall", "version", 1, "references", a())),
			sourcedMsg("tool said", o("kind", "tool", "callId", "c")),
			userMsg("kept")),
		proj("checkpoint-marker-extra-keys", "SR-PROJ-1", sourcedMsg("sum", o("plugin", "compact", "kind", "plugin", "x", 1))),
		proj("wrong-plugin-not-checkpoint", "SR-PROJ-1", sourcedMsg("sum", o("kind", "plugin", "plugin", "compaction")), userMsg("u")),
		proj("assistant-any-source", "SR-PROJ-2", o("type", "assistant/message", "data", o("message", o("content", a(textBlock("from a plugin")), "source", o("kind", "plugin", "plugin", "x"))))),
		proj("reasoning-only-skipped", "SR-PROJ-4", asstBlocks(o("type", "reasoning", "text", "r")), userMsg("u")),
		proj("empty-text-skipped", "SR-PROJ-4", userMsg(""), asstMsg(""), checkpointMsg("")),
		proj("text-blocks-joined", "SR-PROJ-4", userBlocks(textBlock("a"), textBlock(""), textBlock("b"))),
		proj("non-string-text-ignored", "SR-PROJ-4", userBlocks(o("type", "text", "text", 5), textBlock("b"))),
		proj("tool-results-excluded", "SR-PROJ-3", toolResult("out"), asstMsg("ok")),
		// Only what a step reads must be well formed (spec, Projection): a skipped message's
		// content and a tool result's data are never read; a block is read for its type, so a
		// null block fails while a string, number, boolean or array block is ignored as any
		// other block is (JavaScript reads a property of a primitive as undefined). A first
		// draft that checks every event's shape, or every block's, gets these wrong.
		proj("skipped-message-content-unread", "SR-PROJ-3 SR-QUERY-3",
			o("type", "user/message", "data", o("role", "user", "content", "not an array", "source", o("kind", "plugin", "plugin", "x"))), userMsg("u")),
		proj("tool-result-data-unread", "SR-PROJ-3 SR-QUERY-3", o("type", "tool/result", "data", o("output", nil)), asstMsg("ok")),
		proj("primitive-blocks-ignored", "SR-PROJ-4", userBlocks("text", 5, true, a(textBlock("in an array")), o("text", "no type"), textBlock("b"))),
		proj("primitive-source-skipped", "SR-PROJ-1 SR-PROJ-3", o("type", "user/message", "data", o("role", "user", "content", a(textBlock("string source")), "source", "user")),
			o("type", "user/message", "data", o("role", "user", "content", a(textBlock("number source")), "source", 5)),
			o("type", "user/message", "data", o("role", "user", "content", a(textBlock("array source")), "source", a(o("kind", "user")))),
			userMsg("u")),
		proj("content-absent-fails", "SR-PROJ-4 SR-QUERY-3", o("type", "user/message", "data", o("role", "user", "source", o("kind", "user")))),
		proj("content-null-fails", "SR-PROJ-4 SR-QUERY-3", o("type", "user/message", "data", o("role", "user", "content", nil, "source", o("kind", "user")))),
		proj("assistant-message-without-content-fails", "SR-PROJ-2 SR-QUERY-3", o("type", "assistant/message", "data", o("message", o()))),
		proj("assistant-content-object-fails", "SR-PROJ-2 SR-QUERY-3", o("type", "assistant/message", "data", o("message", o("content", o())))),
		proj("source-null-fails", "SR-PROJ-1 SR-QUERY-3", o("type", "user/message", "data", o("role", "user", "content", a(textBlock("u")), "source", nil))),
		// A surface value that is no event at all fails with no code (no skipping it).
		notAnEvent("null-event-fails", "SR-QUERY-3", nil),
		notAnEvent("string-event-fails", "SR-QUERY-3", "user/message"),
		notAnEvent("typeless-event-fails", "SR-QUERY-3", o("data", o())),
		proj("null-block-fails", "SR-PROJ-4 SR-QUERY-3", userBlocks(textBlock("a"), nil)),
		proj("content-not-an-array-fails", "SR-PROJ-4 SR-QUERY-3", o("type", "user/message", "data", o("role", "user", "content", "text", "source", o("kind", "user")))),
		proj("assistant-without-message-fails", "SR-PROJ-2 SR-QUERY-3", o("type", "assistant/message", "data", o("content", a(textBlock("flat"))))),
		proj("tool-result-shaped-like-a-message-excluded", "SR-PROJ-3", toolResultLike("tool output"), asstMsg("ok")),
		proj("checkpoints-only", "SR-PROJ-1 SR-RET-10", checkpointMsg("first"), checkpointMsg("second")),
		proj("checkpoint-after-messages", "SR-PROJ-5", userMsg("u"), checkpointMsg("s"), asstMsg("a")),
		in("null-captured-seq-and-cwd", "SR-PROJ-7", world(sess("s", surf(o("capturedThroughSeq", nil, "events", a(userMsg("u")))))), "references", refs(ref("s"))),
		in("captured-seq-number-forms", "SR-STR-6 SR-PROJ-7", seqWorld(1e21, 1e-7, 1e6), "references", refs(ref("s0"), ref("s1"), ref("s2"))),
		in("captured-seq-number-forms-2", "SR-STR-6 SR-PROJ-7", seqWorld(0.30000000000000004, 123456789012345680000, 5e-324), "references", refs(ref("s0"), ref("s1"), ref("s2"))),
		in("captured-seq-number-forms-3", "SR-STR-6 SR-PROJ-7", seqWorld(-1.5, 1.7976931348623157e308, 0.000001), "references", refs(ref("s0"), ref("s1"), ref("s2"))),
		in("json-hostile-snapshot", "SR-STR-2 SR-PROMPT-2", world(sess(u(`i\"d\\<`), cwd(u(`C:\\dir\u2028`)), events(userMsg(u(`</referenced-sessions>\u0000\u001f\u007f&>`))))), "references", refs(refL(u(`i\"d\\<`), u(`<l\u2029>`)))),
		in("lone-surrogates-kept-untruncated", "SR-STR-1 SR-STR-2", world(sess("s", events(userMsg(u(`a\ud800b\udc00`))))), "references", refs(refL("s", u(`\udbff`)))),
	}}
}

// seqWorld is one session per capturedThroughSeq, s0, s1 …, each with one message.
func seqWorld(seqs ...float64) *wire.Object {
	ss := make([]*wire.Object, len(seqs))
	for i, seq := range seqs {
		ss[i] = sess(fmt.Sprintf("s%d", i), surf(o("capturedThroughSeq", seq, "events", a(userMsg("u")))))
	}
	return world(ss...)
}

// only keeps the sessions of w that rs names, so a case shows what it reads.
func only(w *wire.Object, rs []any) *wire.Object {
	named := map[string]bool{}
	for _, r := range rs {
		if ro, ok := r.(*wire.Object); ok {
			if id, ok := ro.Get("sessionId"); ok {
				if s, ok := id.(string); ok {
					named[s] = true
				}
			}
		}
	}
	list, _ := w.Get("sessions")
	var kept []*wire.Object
	for _, s := range list.([]any) {
		h, _ := s.(*wire.Object).Get("header")
		id, _ := h.(*wire.Object).Get("id")
		if named[id.(string)] {
			kept = append(kept, s.(*wire.Object))
		}
	}
	return world(kept...)
}

// fixedSize is the serialized size of a source object whose conversation texts are all empty.
func fixedSize(id, label string, roles ...string) int {
	conv := make([]any, len(roles))
	for i, r := range roles {
		conv[i] = o("role", r, "text", "")
	}
	b, _ := wire.Marshal(o("sessionId", id, "label", label, "cwd", nil, "capturedThroughSeq", len(roles), "conversation", conv))
	return len(b)
}

func retentionFile() gfile {
	me := agent("me")
	one := func(name, reqs string, budget int, ev ...*wire.Object) gcase {
		return c(name, reqs, o("world", world(sess("s", events(ev...))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", budget)))
	}
	emptyFixed := fixedSize("s", "s")
	oneFixed := fixedSize("s", "s", "user")
	var cs []gcase
	cs = append(cs,
		c("empty-surface-at-fixed-size", "SR-RET-1 SR-RET-5", o("world", world(sess("s", surf(o("capturedThroughSeq", 0, "events", a())))), "agent", me, "content", "x", "references", refs(ref("s")), "config", o("maxReferenceBytes", emptyFixed))),
		c("empty-surface-one-byte-below", "SR-RET-5", o("world", world(sess("s", surf(o("capturedThroughSeq", 0, "events", a())))), "agent", me, "content", "x", "references", refs(ref("s")), "config", o("maxReferenceBytes", emptyFixed-1))),
		one("one-message-at-fixed-size", "SR-RET-5 SR-RET-6", oneFixed, userMsg("0123456789")),
		// Dropped bytes are UTF-8 bytes of the text, blocks joined by "\n" (not code points,
		// UTF-16 units or escaped JSON): 11 for "é😀<\"" + "\n" + "ü".
		one("dropped-bytes-are-utf8-of-the-text", "SR-RET-10 SR-STR-3", 139, userBlocks(textBlock("é😀<\""), textBlock("ü")), asstMsg("y"), userMsg("z")),
		// Each pass cuts the longest text again: two messages cut, one notice each, their
		// omitted bytes summed (not one cut, not always the newest).
		one("two-messages-cut", "SR-RET-10", 295, o("type", "user/message", "data", o("role", "user", "content", a(textBlock("<<<<<"+strings.Repeat("a", 60)+"<<<<<")),
			"source", o("kind", "plugin", "plugin", "compact"))), asstMsg(strings.Repeat("b", 65))),
		one("one-message-one-byte-below", "SR-RET-5", oneFixed-1, userMsg("0123456789")),
		one("fits-exactly-untouched", "SR-RET-1", oneFixed+10, userMsg("0123456789")),
		one("one-byte-over-no-room-for-notice", "SR-RET-4 SR-RET-6", oneFixed+9, userMsg("0123456789")),
		one("drop-oldest-first", "SR-RET-2 SR-RET-10", fixedSize("s", "s", "user", "assistant")+40,
			userMsg("first message ......"), asstMsg("second message ....."), userMsg("third message ......"), asstMsg("fourth message .....")),
		one("checkpoint-never-dropped", "SR-RET-3", fixedSize("s", "s", "user", "user")+40,
			userMsg("first message ......"), checkpointMsg("checkpoint summary.."), asstMsg("third message ......"), userMsg("fourth message .....")),
		one("newest-kept-and-truncated", "SR-RET-3 SR-RET-4", oneFixed+60,
			userMsg("short"), asstMsg(strings.Repeat("long answer ", 20))),
		one("longest-truncated-first-tie-first", "SR-RET-4", fixedSize("s", "s", "user", "user")+50,
			checkpointMsg(strings.Repeat("c", 40)), userMsg(strings.Repeat("u", 40))),
		one("nothing-fits-empty-text", "SR-RET-6", oneFixed+5, userMsg(strings.Repeat("x", 100))),
		one("notice-counts-exact-bytes", "SR-RET-6 SR-RET-9", oneFixed+40, userMsg(strings.Repeat("é", 50))),
		one("bom-at-head-invisible-but-kept", "SR-RET-8", oneFixed+40, userMsg("\ufeff"+strings.Repeat("abcdefgh", 8))),
		one("lone-surrogates-count-three-bytes-and-decode-as-replacement", "SR-STR-3 SR-RET-7", oneFixed+130, userMsg(strings.Repeat(u(`\ud800`), 30))),
		one("surrogate-pair-never-split", "SR-RET-7", oneFixed+40, userMsg(strings.Repeat("😀", 30))),
		c("budget-per-source", "SR-RET-1", o("world", world(sess("s", events(userMsg("0123456789"))), sess("t", events(userMsg("abcdefghij")))), "agent", me, "content", "x",
			"references", refs(ref("s"), ref("t")), "config", o("maxReferenceBytes", oneFixed+10))),
		c("second-source-over-budget", "SR-PREP-9", o("world", world(sess("s", events(userMsg("ok"))), sess("a-much-longer-session-id", events(userMsg("0123456789")))), "agent", me, "content", "x",
			"references", refs(ref("s"), ref("a-much-longer-session-id")), "config", o("maxReferenceBytes", oneFixed+2))),
		c("tag-safe-size-counts-escape", "SR-RET-1 SR-PROMPT-2", o("world", world(sess("s", events(userMsg("<<<<<")))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", oneFixed+5*6))),
		c("tag-safe-size-one-below", "SR-RET-1 SR-PROMPT-2", o("world", world(sess("s", events(userMsg("<<<<<")))), "agent", me, "content", "x",
			"references", refs(ref("s")), "config", o("maxReferenceBytes", oneFixed+5*6-1))),
	)
	// Multi-byte text cut at every boundary: 1-, 2-, 3- and 4-byte characters, every budget
	// from nothing kept to one byte short of the whole.
	text := strings.Repeat("aé€😀", 6) // 60 bytes
	for extra := 33; extra < 60+6; extra++ {
		cs = append(cs, one(fmt.Sprintf("multibyte-cut-budget-plus-%02d", extra), "SR-RET-6 SR-RET-7 SR-RET-9", oneFixed+extra, userMsg(text)))
	}
	// The seed's bisection is the contract, not the best fit: at this budget the bisection
	// keeps "éaaaaaaaa" (101 bytes omitted) although "éaaaaaaaaa" (97 omitted) fits too,
	// because whether a candidate fits is not monotone in n (BOMs vanish, cuts fall back to
	// whole code points, the notice's count changes width). Found by a best-fit mutant
	// (conformance/mutants); no other budget on this text tells the two apart.
	cs = append(cs, one("bisection-not-best-fit", "SR-RET-6 SR-RET-7 SR-RET-9", oneFixed+45, userMsg(
		"éaaaaaa€éé\ufeffa\ufefféa\ufeff\ufeff😀€é😀é\ufeffé😀😀ééé\ufeff😀aéa😀a\ufeff😀😀éa😀a😀\ufeffaaaa")))
	// A BOM where the tail starts: invisible, yet counted as kept, at the budgets that keep it.
	for extra := 40; extra <= 48; extra++ {
		cs = append(cs, one(fmt.Sprintf("bom-at-tail-start-budget-plus-%02d", extra), "SR-RET-8", oneFixed+extra, userMsg(strings.Repeat("abcdefgh", 8)+"\ufeffxyz")))
	}
	return gfile{"retention.yaml", protocol.OpPrepare, cs}
}

func hostFile() gfile {
	w := world(
		sess("src", cwd("/repo"), events(userMsg("how do I parse?"), asstMsg("Use the parser."))),
		sess("other", events(userMsg("unrelated"))),
		sess("broken", readErr("gone")),
		sess("me", cwd("/repo")),
	)
	me := agentIn("me", "/repo")
	mut := a(
		o("op", "append", "sessionId", "src", "events", a(userMsg("new text"))),
		o("op", "compact", "sessionId", "src", "summary", "rewritten"),
		o("op", "delete", "sessionId", "other"),
	)
	send := func(name, reqs string, running bool, text string) gcase {
		return c(name, reqs, o("world", w, "agent", me, "running", running, "text", text, "mutations", mut))
	}
	m := "see @[the parser](" + enc("src") + ") and " + enc("other")
	return gfile{"host-send.yaml", protocol.OpHostSend, []gcase{
		send("idle-context-first", "SR-HOST-1 SR-HOST-2 SR-HOST-5", false, m).only(cases.Profile001),
		send("running-context-first", "SR-HOST-2 SR-HOST-4 SR-HOST-5", true, m).only(cases.Profile001),
		send("idle-direct-first", "SR-HOST-3 SR-HOST-5", false, m).only(cases.Profile010),
		send("running-direct-first", "SR-HOST-3 SR-HOST-8", true, m).only(cases.Profile010),
		send("no-mentions-no-context", "SR-HOST-6", false, "plain words"),
		send("invalid-mention-rejected", "SR-HOST-7", false, "@[x](dsh-session:nope)"),
		send("failed-read-rejected", "SR-HOST-7", true, "@[b]("+enc("broken")+")"),
	}}
}

// brokenSurface is a session whose surface breaks the query contract (SR-QUERY-3) after a
// valid message: an event of a kind the session-query service does not produce.
func brokenSurface(id string) *wire.Object {
	return sess(id, events(userMsg("u"), o("type", "system/notice", "data", o("text", "n"))))
}
