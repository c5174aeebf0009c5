package mutants

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
)

// Trap mutants: ports whose one mistake is a language's default (spec/porting-traps.md).
// Each replaces one primitive of the correct port with what the named language's standard
// library does, measured where the language is on this machine (the case tables in
// testdata/case were probed from Python 3.11, Java 17 and Rust 1.95 over every code point)
// and otherwise written from its documentation. The kit must fail every one, on every seed.

// trapKnobs are the primitives a trap mutant replaces; the zero value is JavaScript's.
type trapKnobs struct {
	lower            func(string) string                     // toLocaleLowerCase
	contains         func(h, n string) bool                  // String.prototype.includes
	canonicalEqual   bool                                    // === as canonical equivalence (Swift ==)
	unstableSort     bool                                    // Array.prototype.sort with the seed's tie-break dropped
	space            func(rune) bool                         // the regex's \s
	lineTerminator   func(rune) bool                         // what the regex's `.` does not match
	payload          func(rune) bool                         // extra characters the bare payload class takes
	replace          func(string, [4]string) (string, error) // a replacement template instead of a function
	json             func(string) string                     // JSON.stringify of a string (the URI's id)
	jsonValue        func(any) ([]byte, error)               // JSON.stringify of the snapshot
	number           func(float64) string                    // Number-to-String in the snapshot
	byteLen          func(string) int                        // Buffer.byteLength
	surrogatePass    bool                                    // lone surrogates encoded as themselves
	cutReplace       bool                                    // a split character decoded as U+FFFD
	stripAllBOMs     bool                                    // every leading BOM stripped, not one
	stripAllTailBOMs bool                                    // every leading BOM of the tail stripped, not one
	utf8Unmapped     bool                                    // a strict UTF-8 decoder's error left unmapped
	jsonLimit        func(text string) (string, bool)        // a JSON parser's own limit error, left unmapped
	hashOrder        bool                                    // references in a hash set's order
	falsyCWD         bool                                    // a cwd tested for truthiness: "" as none
	foldIDs          bool                                    // ids compared ignoring case (self checks, dedup)
	lossyEqual       bool                                    // ids and cwds compared as well-formed text: lone surrogates as U+FFFD
	pathCWD          func(string) string                     // cwds compared as normalized paths
	narrowLimit      bool                                    // the configured candidateLimit narrowed to int32 where used
	narrowBudget     bool                                    // the configured maxReferenceBytes narrowed to int32 where used
	foldScheme       bool                                    // the mention pattern's "dsh-session:" matched ignoring case
	ignorableScan    bool                                    // the scheme found by a culture-sensitive search (ICU ignorables skipped)
	newestByValue    bool                                    // "not the newest" decided by value equality, not position
	int32Budget      bool                                    // maxReferenceBytes narrowed to 32 bits where the budget is compared
	int32Limit       bool                                    // the candidate limit narrowed to 32 bits where the listing is cut
	longCreatedAt    bool                                    // a header's createdAt read into a long: truncated, saturated
	trimTitle        func(string) string                     // a title "sanitized" before it becomes a label
	trimLabel        func(string) string                     // a Markdown label "sanitized" once unescaped
	narrowUnit       bool                                    // a label's code units compared with `]` and `\` by their low byte
	narrowFormat     bool                                    // the formatter's escape tests a unit's low byte for `]` and `\`
}

// javaTrim is Java's String.trim(): every code unit up to U+0020 off both ends.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// javaStrip is Java's String.strip(): Character.isWhitespace off both ends (space
// separators but the no-break ones, U+2028, U+2029, and \t \n \v \f \r U+001C–U+001F).
func javaStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch {
		case r >= '\t' && r <= '\r', r >= 0x1c && r <= 0x1f, r == 0x2028, r == 0x2029:
			return true
		case r == 0xa0 || r == 0x2007 || r == 0x202f:
			return false
		}
		return unicode.Is(unicode.Zs, r)
	})
}

// javaLong is Java's (long) of a double: toward zero, NaN 0, saturated at the int64 bounds.
func javaLong(f float64) float64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return float64(int64(f))
}

// cwd is the header's cwd as the port sees it.
func (t trapKnobs) cwd(c *string) *string {
	if t.falsyCWD && c != nil && *c == "" {
		return nil // MUTANT: Python's `if cwd:`, a TypeScript `cwd || undefined`
	}
	return c
}

func (t trapKnobs) equal(a, b string) bool {
	if t.lossyEqual {
		return jsstring.ToWellFormed(a) == jsstring.ToWellFormed(b) // MUTANT: Rust's to_string_lossy() == to_string_lossy()
	}
	if t.canonicalEqual {
		return nfc(a) == nfc(b)
	}
	return a == b
}

// idEqual is the agent's id against a session's or a reference's (===).
func (t trapKnobs) idEqual(a, b string) bool {
	if t.foldIDs {
		return foldKey(a) == foldKey(b) // MUTANT: StringComparer.OrdinalIgnoreCase
	}
	return t.equal(a, b)
}

// cwdEqual is a session's cwd against the agent's (===).
func (t trapKnobs) cwdEqual(a, b string) bool {
	if t.pathCWD != nil {
		return t.pathCWD(a) == t.pathCWD(b) // MUTANT: cwds compared as paths
	}
	return t.equal(a, b)
}

// foldKey is .NET's OrdinalIgnoreCase key: the simple uppercase mapping of each code unit
// (Go's per-rune mapping stands in; the cases differ in ASCII).
func foldKey(s string) string { return strings.ToUpper(s) }

// wrapInt32 is C#'s unchecked (int) of a long, or Java's (int) of a long: the low 32 bits.
func wrapInt32(n int) int { return int(int32(n)) }

// windowsPath is a Windows host's comparison of two directories: Path.GetFullPath (". and
// ".." resolved, "/" as "\", a trailing separator trimmed), then OrdinalIgnoreCase.
func windowsPath(s string) string {
	s = strings.ReplaceAll(s, "\\", "/")
	if c := path.Clean(s); c != "." {
		s = c
	}
	return strings.ToUpper(strings.TrimRight(s, " "))
}

func nfc(s string) string {
	if !jsstring.WellFormed(s) {
		return s
	}
	return norm.NFC.String(s)
}

// hashOrder puts refs in the order of their ids' FNV-1a hashes: a deterministic stand-in for
// the iteration order of Python's set, Go's map or Java's HashSet.
func hashOrder(refs []service.Normalized) {
	h := func(s string) uint64 { f := fnv.New64a(); f.Write([]byte(s)); return f.Sum64() }
	slices.SortStableFunc(refs, func(a, b service.Normalized) int {
		ha, hb := h(a.SessionID), h(b.SessionID)
		switch {
		case ha < hb:
			return -1
		case ha > hb:
			return 1
		}
		return 0
	})
}

func trap(name, mistake string, t trapKnobs) mutant {
	return mutant{name: name, mistake: mistake, impl: port{k: knobs{trap: t}}}
}

func trapMutants() []mutant {
	upper := cases.Upper(language.Und)
	fold := cases.Fold()
	xlower := cases.Lower(language.Und)
	return append([]mutant{
		// case mapping
		trap("trap/python-str-lower-3.11", "Python 3.11 str.lower(): Unicode 14.0 mappings and Cased/Case_Ignorable", trapKnobs{lower: caseTable("python-3.11.txt").Lower}),
		trap("trap/java-tolowercase-root-17", "Java 17 String.toLowerCase(Locale.ROOT): Unicode 13.0, its own final-sigma test", trapKnobs{lower: caseTable("java-17.txt").Lower}),
		// Rust 1.95's str::to_lowercase is no trap: its tables (testdata/case/rust-1.95.txt)
		// agree with the contract on every code point and every final-sigma context probed.
		trap("trap/rust-chars-flat-map-to-lowercase", "Rust s.chars().flat_map(char::to_lowercase): no final sigma", trapKnobs{lower: perCodePoint}),
		trap("trap/go-x-text-cases-lower", "Go golang.org/x/text/cases.Lower(language.Und): Unicode 15.0 tables", trapKnobs{lower: xlower.String}),
		trap("trap/java-tolowercase-turkish-locale", "Java String.toLowerCase() under a tr default locale: I to ı, İ to i", trapKnobs{lower: turkishLower}),
		trap("trap/java-tolowercase-lithuanian-locale", "Java String.toLowerCase() under an lt default locale: dot above kept on i", trapKnobs{lower: lithuanianLower}),
		trap("trap/csharp-char-tolowerinvariant", "C# char.ToLowerInvariant per UTF-16 code unit: simple mapping, no final sigma, astral letters unmapped", trapKnobs{lower: perCodeUnit(unicode.ToLower)}),
		trap("trap/cpp-std-tolower", "C++ std::tolower per byte in the \"C\" locale: ASCII only", trapKnobs{lower: asciiLower}),
		trap("trap/python-str-casefold", "Python str.casefold() (x/text's full case folding stands in): ß is ss, ς is σ", trapKnobs{lower: fold.String}),
		trap("trap/java-touppercase-both-sides", "Java toUpperCase() on title and query: ß is SS, ı is I", trapKnobs{lower: upper.String}),
		trap("trap/csharp-ordinal-ignore-case", "C# IndexOf(q, StringComparison.OrdinalIgnoreCase): simple uppercase per code unit", trapKnobs{lower: perCodeUnit(unicode.ToUpper)}),
		trap("trap/ruby-downcase-fold", "Ruby String#downcase(:fold): case folding", trapKnobs{lower: func(s string) string { return fold.String(jsstring.ToLower(s)) }}),
		// regular expressions
		trap("trap/python-re-whitespace", `Python re \s: str.isspace (U+001C–U+001F and U+0085 in, U+FEFF out)`, trapKnobs{space: pythonSpace}),
		trap("trap/java-pattern-whitespace", `Java Pattern \s: [ \t\n\x0B\f\r] only`, trapKnobs{space: javaSpace}),
		trap("trap/csharp-regex-whitespace", `.NET Regex \s: [\f\n\r\t\v\x85\p{Z}] (U+0085 in, U+FEFF out)`, trapKnobs{space: whiteSpace}),
		trap("trap/rust-regex-whitespace", `Rust regex \s: Unicode White_Space (U+0085 in, U+FEFF out)`, trapKnobs{space: whiteSpace}),
		trap("trap/python-re-dot", "Python re `.`: every character but \\n", trapKnobs{lineTerminator: func(r rune) bool { return r == '\n' }}),
		trap("trap/java-pattern-dot", "Java Pattern `.`: not \\n \\r U+0085 U+2028 U+2029", trapKnobs{lineTerminator: func(r rune) bool { return jsstring.IsLineTerminator(r) || r == 0x85 }}),
		trap("trap/python-re-word-payload", `Python re [\w-] for the payload: Unicode letters and digits`, trapKnobs{payload: func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }}),
		trap("trap/csharp-regex-word-payload", `.NET Regex [\w-] for the payload: L, Mn, Nd, Pc`, trapKnobs{payload: func(r rune) bool { return unicode.In(r, unicode.L, unicode.Mn, unicode.Nd, unicode.Pc) }}),
		trap("trap/rust-regex-word-payload", `Rust regex [\w-] for the payload: Alphabetic, M, Nd, Pc, Join_Control`, trapKnobs{payload: func(r rune) bool {
			return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_Alphabetic, unicode.M, unicode.Nd, unicode.Pc, unicode.Join_Control)
		}}),
		trap("trap/java-matcher-replaceall", "Java Matcher.replaceAll(\"@\" + label): $n and \\x read as template syntax", trapKnobs{replace: javaReplacement}),
		trap("trap/python-re-sub-template", `Python re.sub with a string: \1, \g<0> and escapes read as template syntax`, trapKnobs{replace: pythonReplacement}),
		trap("trap/csharp-regex-replace-template", ".NET Regex.Replace with a string: $&, $1, $$ read as substitutions", trapKnobs{replace: dotnetReplacement}),
		// JSON
		trap("trap/python-json-dumps", "Python json.dumps defaults: ensure_ascii escapes, \", \" and \": \" separators", trapKnobs{json: pythonDumps, jsonValue: pythonDumpsValue}),
		trap("trap/java-gson-html-safe", "Java Gson defaults: < > & = ' and U+2028/U+2029 escaped", jsonTrap(escaper(func(r rune) bool { return strings.ContainsRune("<>&='\u2028\u2029", r) }, false))),
		trap("trap/csharp-system-text-json", "C# System.Text.Json default encoder: non-ASCII and HTML characters escaped in uppercase hex", jsonTrap(dotnetJSON)),
		trap("trap/swift-jsonencoder-slash", "Swift JSONEncoder default: / written \\/", jsonTrap(escaper(func(r rune) bool { return r == '/' }, false))),
		trap("trap/java-jackson-uppercase-hex", "Java Jackson: control characters escaped with uppercase hex (\\u001F)", jsonTrap(escaper(func(r rune) bool { return r < 0x20 && !strings.ContainsRune("\b\f\n\r\t", r) }, true))),
		trap("trap/ruby-activesupport-to-json", "Ruby on Rails to_json: < > & and U+2028/U+2029 escaped", jsonTrap(escaper(func(r rune) bool { return strings.ContainsRune("<>&\u2028\u2029", r) }, false))),
		trap("trap/go-encoding-json-map", "Go encoding/json of map[string]any: keys sorted, HTML escapes", trapKnobs{jsonValue: goMapJSON, json: func(s string) string { b, _ := json.Marshal(s); return string(b) }}),
		// numbers
		trap("trap/python-float-repr", "Python json.dumps of a float: 1e+16, 1e-06, 2.5e-08", trapKnobs{number: pythonFloat}),
		trap("trap/java-double-tostring", "Java Double.toString: 100.0, 1.0E21, 1.0E-7", trapKnobs{number: javaDouble}),
		trap("trap/csharp-double-tostring", "C# double.ToString(): 1E+21, 1E-07", trapKnobs{number: dotnetDouble}),
		trap("trap/rust-serde-json-f64", "Rust serde_json f64 (ryu): 100.0, 1e21, 1e-7", trapKnobs{number: rustF64}),
		// strings
		trap("trap/swift-string-count", "Swift String.count for the byte length: grapheme clusters", trapKnobs{byteLen: graphemeCount}),
		trap("trap/python-encode-ignore", "Python s.encode('utf-8', 'ignore'): a lone surrogate counts 0 bytes", trapKnobs{byteLen: func(s string) int { return len(strings.ToValidUTF8(s, "")) }}),
		trap("trap/python-encode-surrogatepass", "Python encode/decode with 'surrogatepass': a cut text keeps its lone surrogates", trapKnobs{surrogatePass: true}),
		trap("trap/java-new-string-utf8-cut", "Java new String(bytes, 0, n, UTF_8) at a cut: the split character becomes U+FFFD", trapKnobs{cutReplace: true}),
		trap("trap/rust-trim-start-matches-bom-tail", "Rust from_utf8_lossy(tail).trim_start_matches('\\u{FEFF}'): every leading BOM of the tail dropped, not one", trapKnobs{stripAllTailBOMs: true}),
		trap("trap/csharp-trimstart-bom", "C# TrimStart('\\uFEFF') on each decoded piece: every leading BOM dropped", trapKnobs{stripAllBOMs: true}),
		trap("trap/python-bytes-decode-unmapped", "Python payload.decode('utf-8') with its UnicodeDecodeError not mapped to INVALID_REFERENCE", trapKnobs{utf8Unmapped: true}),
		trap("trap/python-json-loads-recursion", "Python json.loads under except ValueError: a payload nested beyond the recursion limit raises RecursionError, unmapped", trapKnobs{jsonLimit: pythonRecursion}),
		trap("trap/python-json-loads-int-digits", "Python json.loads under except json.JSONDecodeError: an integer of over 4,300 digits raises ValueError, unmapped", trapKnobs{jsonLimit: pythonJSONDecodeErrorOnly}),
		trap("trap/swift-string-contains", "Swift String.contains: matches whole grapheme clusters under canonical equivalence", trapKnobs{contains: graphemeContains}),
		trap("trap/swift-string-equality", "Swift ==: canonically equivalent ids and cwds are equal", trapKnobs{canonicalEqual: true}),
		trap("trap/csharp-culture-indexof", "C# title.IndexOf(query) (culture-sensitive): ignorable characters skipped", trapKnobs{contains: cultureContains}),
		// order
		trap("trap/rust-sort-unstable-by-rank", "Rust sort_unstable_by_key(rank) (Go's pdqsort stands in): equal ranks reordered", trapKnobs{unstableSort: true}),
		trap("trap/python-set-dedup", "Python list(set(ids)) for dedup (FNV order stands in for the hash order)", trapKnobs{hashOrder: true}),
		// types and null, on the wire
		wireTrap("trap/python-isinstance-int-bool", "Python isinstance(v, int): True and False are integers", boolAsInt),
		wireTrap("trap/python-isinstance-int-float", "Python isinstance(v, int) after json.loads: 2.0 and 1e2 are floats, rejected", integralFloatRejected),
		wireTrap("trap/java-jackson-asint", "Java Jackson asInt(): 2^31 and above wrap to int32", int32Wrap),
		wireTrap("trap/go-int64-bound", "Go int64 / Rust i64 bound: integers up to 2^63 accepted", int64Bound),
		wireTrap("trap/python-int-of-string", "Python int(v): numeric strings accepted", numericString),
		wireTrap("trap/python-none-as-absent", "Python v or default / v is None: null limit, query and label taken as absent", nullAsAbsent),
		trap("trap/rust-lossy-string-equality", "Rust ids and cwds compared and deduplicated as String::from_utf16_lossy: every lone surrogate is U+FFFD, so \\ud800, \\udc00 and \\ufffd are one id", trapKnobs{lossyEqual: true}),
		trap("trap/csharp-ids-ordinal-ignore-case", "C# HashSet<string>(StringComparer.OrdinalIgnoreCase) and OrdinalIgnoreCase self checks: ids that differ in case are one", trapKnobs{foldIDs: true}),
		trap("trap/csharp-cwd-ordinal-ignore-case", "C# string.Equals(cwd, agentCwd, StringComparison.OrdinalIgnoreCase): directories that differ in case are one", trapKnobs{pathCWD: strings.ToUpper}),
		trap("trap/csharp-cwd-trim-ending-separator", "C# Path.TrimEndingDirectorySeparator on both cwds: \"/repo/\" is \"/repo\"", trapKnobs{pathCWD: func(s string) string {
			if len(s) > 1 {
				return strings.TrimRight(s, "/\\")
			}
			return s
		}}),
		trap("trap/csharp-cwd-windows-full-path", "C# Path.GetFullPath and OrdinalIgnoreCase on a Windows host: \".\", \"..\", separators and case normalized", trapKnobs{pathCWD: windowsPath}),
		trap("trap/csharp-int32-configured-limit", "C# Take((int)config.CandidateLimit): the configured limit wrapped to int32 (2^31 negative, 2^32+1 one)", trapKnobs{narrowLimit: true}),
		trap("trap/csharp-int32-configured-budget", "C# an int budget from (int)config.MaxReferenceBytes: 2^31 negative, 2^32+k as k", trapKnobs{narrowBudget: true}),
		trap("trap/csharp-regex-ignorecase", "C# new Regex(mentionPattern, RegexOptions.IgnoreCase) (Mono 6.8, invariant culture): the scheme in any case", trapKnobs{foldScheme: true}),
		trap("trap/python-re-ignorecase", "Python re.compile(mentionPattern, re.I): the scheme in any case, K (U+212A), ſ, İ and ı payload letters", trapKnobs{foldScheme: true, payload: func(r rune) bool { return r == 0x212a || r == 0x17f || r == 0x130 || r == 0x131 }}),
		trap("trap/go-regexp-fold", "Go regexp (?i) on the mention pattern: the scheme in any case, K (U+212A) and ſ payload letters", trapKnobs{foldScheme: true, payload: func(r rune) bool { return r == 0x212a || r == 0x17f }}),
		trap("trap/csharp-culture-indexof-scheme", "C# text.IndexOf(\"dsh-session:\", i) (culture-sensitive, ICU) in a hand-written scanner: soft hyphens and ZWJs inside the scheme ignored", trapKnobs{ignorableScan: true}),
		trap("trap/csharp-record-equality-newest", "C# retained.Where(m => m != retained.Last()) over records: a message equal in role and text to the newest is never dropped", trapKnobs{newestByValue: true}),
		trap("trap/python-falsy-cwd", `Python "if cwd:" / TypeScript "cwd || undefined": an empty cwd taken as none`, trapKnobs{falsyCWD: true}),
		trap("trap/java-long-to-int-budget", "Java (int) of the long maxReferenceBytes where it is compared: 2^32+150 is a budget of 150, 2^53-1 one of -1", trapKnobs{int32Budget: true}),
		trap("trap/java-string-trim-title", "Java title.trim() before it becomes the label: code units up to U+0020 dropped at both ends", trapKnobs{trimTitle: javaTrim}),
		trap("trap/java-string-strip-mention-label", "Java label.strip() once a Markdown label is unescaped: Character.isWhitespace dropped at both ends", trapKnobs{trimLabel: javaStrip}),
		trap("trap/java-createdat-long", "Java createdAt read as long epoch milliseconds ((long) of the double): 1.5 is 1, 1e21 is 2^63-1", trapKnobs{longCreatedAt: true}),
		trap("trap/java-long-to-int-limit", "Java (int) of the long candidate limit where the listing is cut: 2^32+2 keeps 2, 2^53-1 none", trapKnobs{int32Limit: true}),
		trap("trap/rust-u8-cast-format-escape", "Rust formatter escaping over u16 units written `if u as u8 == b']'`: そ (U+305D) and ぜ (U+305C) get a `\\` before them", trapKnobs{narrowFormat: true}),
		trap("trap/rust-u8-cast-label-scan", "Rust label scan over u16 units written `units[j] as u8 != b']'`: U+305D そ, U+015D ŝ (low byte `]`) and U+305C ぜ (`\\`) end the label", trapKnobs{narrowUnit: true}),
		wireTrap("trap/python-sorted-by-seq", "Python sorted(events, key=seq): events ordered by seq, not array position", sortedBySeq),
	}, numberMutants()...)
}

func jsonTrap(str func(string) string) trapKnobs {
	return trapKnobs{json: str, jsonValue: func(v any) ([]byte, error) { return writeJSON(v, str, ",", ":"), nil }}
}

// --- case mapping

type probedCase struct {
	lower map[rune][]rune
	sigma map[rune]uint8
}

//go:embed testdata/case/*.txt
var caseFS embed.FS

var caseTables sync.Map

// caseTable loads a probed table (testdata/case/NAME).
func caseTable(name string) *probedCase {
	if t, ok := caseTables.Load(name); ok {
		return t.(*probedCase)
	}
	data, err := caseFS.ReadFile("testdata/case/" + name)
	if err != nil {
		panic(err)
	}
	t := &probedCase{lower: map[rune][]rune{}, sigma: map[rune]uint8{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	hex := func(s string) rune { v, err := strconv.ParseUint(s, 16, 32); check(err); return rune(v) }
	for sc.Scan() {
		kind, rest, _ := strings.Cut(sc.Text(), " ")
		k, v, _ := strings.Cut(rest, "=")
		switch kind {
		case "lower":
			for _, x := range strings.Split(v, ",") {
				t.lower[hex(k)] = append(t.lower[hex(k)], hex(x))
			}
		case "sigma":
			a, b, _ := strings.Cut(k, "-")
			f, err := strconv.Atoi(v)
			check(err)
			for r := hex(a); r <= hex(b); r++ {
				t.sigma[r] = uint8(f)
			}
		}
	}
	caseTables.Store(name, t)
	return t
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}

func runes(s string) []rune {
	var out []rune
	for len(s) > 0 {
		r, n := jsstring.DecodeRune(s)
		out = append(out, r)
		s = s[n:]
	}
	return out
}

// Lower lowercases with the table, deciding Σ from the probed contexts: a code point is
// skipped when "AcΣ" is final but "cΣ" is not (case-ignorable), counts as cased before a
// sigma when "cΣ" is final, and after one when "AΣc" keeps σ.
func (t *probedCase) Lower(s string) string {
	rs := runes(s)
	var b []byte
	skip := func(r rune) bool { f := t.sigma[r]; return f&2 != 0 && f&1 == 0 }
	for i, r := range rs {
		if r == 'Σ' {
			final := false
			j := i - 1
			for j >= 0 && skip(rs[j]) {
				j--
			}
			if j >= 0 && t.sigma[rs[j]]&1 != 0 {
				final = true
				k := i + 1
				for k < len(rs) && skip(rs[k]) {
					k++
				}
				if k < len(rs) && t.sigma[rs[k]]&4 != 0 {
					final = false
				}
			}
			if final {
				b = utf8Append(b, 'ς')
			} else {
				b = utf8Append(b, 'σ')
			}
			continue
		}
		if l, ok := t.lower[r]; ok {
			for _, x := range l {
				b = utf8Append(b, x)
			}
			continue
		}
		b = jsstring.AppendRune(b, r)
	}
	return string(b)
}

func utf8Append(b []byte, r rune) []byte { return jsstring.AppendRune(b, r) }

func turkishLower(s string) string {
	s = strings.ReplaceAll(s, "I\u0307", "i")
	s = strings.ReplaceAll(s, "İ", "i")
	s = strings.ReplaceAll(s, "I", "ı")
	return jsstring.ToLower(s)
}

func lithuanianLower(s string) string {
	rs := runes(s)
	var b []byte
	for i, r := range rs {
		accent := i+1 < len(rs) && unicode.In(rs[i+1], unicode.Mn) && rs[i+1] >= 0x300 && rs[i+1] <= 0x36F
		switch {
		case r == 0xCC:
			b = append(b, "i\u0307\u0300"...)
		case r == 0xCD:
			b = append(b, "i\u0307\u0301"...)
		case r == 0x128:
			b = append(b, "i\u0307\u0303"...)
		case (r == 'I' || r == 'J' || r == 0x12E) && accent:
			b = append(b, jsstring.ToLower(string(r))...)
			b = append(b, "\u0307"...)
		default:
			b = append(b, jsstring.ToLower(string(r))...)
		}
	}
	return string(b)
}

func perCodeUnit(f func(rune) rune) func(string) string {
	return func(s string) string {
		u := jsstring.UTF16(s)
		for i, c := range u {
			if !utf16.IsSurrogate(rune(c)) {
				if m := f(rune(c)); m <= 0xFFFF {
					u[i] = uint16(m)
				}
			}
		}
		return jsstring.FromUTF16(u)
	}
}

// perCodePoint lowercases each code point on its own, as char::to_lowercase does: Σ is
// always σ.
func perCodePoint(s string) string {
	var b []byte
	for _, r := range runes(s) {
		b = append(b, jsstring.ToLower(string(jsstring.AppendRune(nil, r)))...)
	}
	return string(b)
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// --- regular expressions

func pythonSpace(r rune) bool {
	return r >= 0x9 && r <= 0xD || r >= 0x1C && r <= 0x20 || r == 0x85 || r == 0xA0 || r == 0x1680 ||
		r >= 0x2000 && r <= 0x200A || r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000
}

func javaSpace(r rune) bool { return r == ' ' || r >= 0x9 && r <= 0xD }

func whiteSpace(r rune) bool { return unicode.Is(unicode.White_Space, r) }

// javaReplacement reads tmpl as Matcher.appendReplacement does: $n is group n, \x is x, and
// any other $ throws (a failure with no contract code).
func javaReplacement(tmpl string, g [4]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		switch c := tmpl[i]; {
		case c == '\\' && i+1 < len(tmpl):
			i++
			b.WriteByte(tmpl[i])
		case c == '$':
			if i+1 >= len(tmpl) || tmpl[i+1] < '0' || tmpl[i+1] > '9' {
				return "", &errcode.TypeError{Msg: "IllegalArgumentException: Illegal group reference"}
			}
			i++
			n := int(tmpl[i] - '0')
			if n > 3 {
				return "", &errcode.TypeError{Msg: "IndexOutOfBoundsException: No group " + strconv.Itoa(n)}
			}
			b.WriteString(g[n])
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// pythonReplacement reads tmpl as re.sub's template: \1 to \9 and \g<n> are groups, \\ is a
// backslash, \n \t \r are controls, another ASCII letter escape is an error.
func pythonReplacement(tmpl string, g [4]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c != '\\' || i+1 >= len(tmpl) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := tmpl[i]; {
		case e >= '0' && e <= '9':
			n := int(e - '0')
			if n > 3 {
				return "", &errcode.TypeError{Msg: "re.error: invalid group reference"}
			}
			b.WriteString(g[n])
		case e == 'g':
			end := strings.IndexByte(tmpl[i:], '>')
			if i+1 >= len(tmpl) || tmpl[i+1] != '<' || end < 0 {
				return "", &errcode.TypeError{Msg: "re.error: missing group name"}
			}
			n, err := strconv.Atoi(tmpl[i+2 : i+end])
			if err != nil || n > 3 {
				return "", &errcode.TypeError{Msg: "re.error: bad group name"}
			}
			b.WriteString(g[n])
			i += end
		case e == '\\':
			b.WriteByte('\\')
		case e == 'n':
			b.WriteByte('\n')
		case e == 't':
			b.WriteByte('\t')
		case e == 'r':
			b.WriteByte('\r')
		case e >= 'a' && e <= 'z' || e >= 'A' && e <= 'Z':
			return "", &errcode.TypeError{Msg: "re.error: bad escape"}
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

// dotnetReplacement reads tmpl as Regex.Replace's substitutions: $n, ${n}, $& (the match),
// $$ (a dollar); anything else stays as written.
func dotnetReplacement(tmpl string, g [4]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c != '$' || i+1 >= len(tmpl) {
			b.WriteByte(c)
			continue
		}
		switch e := tmpl[i+1]; {
		case e == '$':
			b.WriteByte('$')
			i++
		case e == '&':
			b.WriteString(g[0])
			i++
		case e >= '0' && e <= '3':
			b.WriteString(g[e-'0'])
			i++
		case e == '{' && i+3 < len(tmpl) && tmpl[i+2] >= '0' && tmpl[i+2] <= '3' && tmpl[i+3] == '}':
			b.WriteString(g[tmpl[i+2]-'0'])
			i += 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// --- JSON writers

// escaper is JSON.stringify of a string with extra characters escaped as \uXXXX (upper
// hex when upper is set, for those extra characters only).
func escaper(extra func(rune) bool, upper bool) func(string) string {
	return func(s string) string {
		var b strings.Builder
		rest := string(jsjson.AppendString(nil, s))
		for _, r := range rest {
			if extra(r) {
				f := `\u%04x`
				if upper {
					f = `\u%04X`
				}
				fmt.Fprintf(&b, f, r)
				continue
			}
			b.WriteRune(r)
		}
		out := b.String()
		if upper {
			// JSON.stringify already wrote the controls as \u00xx: uppercase their hex
			out = upperControlEscapes(out)
		}
		return out
	}
}

func upperControlEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] == 'u' && i+5 < len(s) && s[i+2:i+4] == "00" && (s[i+4] == '0' || s[i+4] == '1') {
				b.WriteString(`\u00` + strings.ToUpper(s[i+4:i+6]))
				i += 5
				continue
			}
			b.WriteString(s[i : i+2])
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// pythonDumps is json.dumps(s) with ensure_ascii: every code unit above U+007E escaped
// (\uXXXX, lowercase), controls as JSON.stringify writes them.
func pythonDumps(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range jsstring.UTF16(s) {
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20 || c > 0x7E:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(byte(c))
		}
	}
	b.WriteByte('"')
	return b.String()
}

// dotnetJSON is System.Text.Json's default encoder: only printable ASCII other than
// " \ < > & ' + ` is written as itself, the rest \uXXXX in uppercase; a lone surrogate is
// U+FFFD.
func dotnetJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range jsstring.UTF16(jsstring.ToWellFormed(s)) {
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20 || c > 0x7E || strings.ContainsRune("\"<>&'+`", rune(c)):
			fmt.Fprintf(&b, `\u%04X`, c)
		default:
			b.WriteByte(byte(c))
		}
	}
	b.WriteByte('"')
	return b.String()
}

// writeJSON writes a JSON value with str for strings and the given separators.
func writeJSON(v any, str func(string) string, comma, colon string) []byte {
	var b []byte
	var w func(any)
	w = func(v any) {
		switch x := v.(type) {
		case string:
			b = append(b, str(x)...)
		case []any:
			b = append(b, '[')
			for i, e := range x {
				if i > 0 {
					b = append(b, comma...)
				}
				w(e)
			}
			b = append(b, ']')
		case *jsjson.Object:
			b = append(b, '{')
			for i, k := range x.Keys() {
				if i > 0 {
					b = append(b, comma...)
				}
				b = append(b, str(k)...)
				b = append(b, colon...)
				e, _ := x.Get(k)
				w(e)
			}
			b = append(b, '}')
		default:
			j, _ := jsjson.Marshal(x)
			b = append(b, j...)
		}
	}
	w(v)
	return b
}

func pythonDumpsValue(v any) ([]byte, error) { return writeJSON(v, pythonDumps, ", ", ": "), nil }

// goMapJSON is encoding/json of the snapshot decoded into map[string]any: keys sorted,
// <>& and U+2028/U+2029 escaped, invalid UTF-8 (lone surrogates) as U+FFFD.
func goMapJSON(v any) ([]byte, error) {
	var conv func(any) any
	conv = func(v any) any {
		switch x := v.(type) {
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = conv(e)
			}
			return out
		case *jsjson.Object:
			m := map[string]any{}
			for _, k := range x.Keys() {
				e, _ := x.Get(k)
				m[k] = conv(e)
			}
			return m
		}
		return v
	}
	return json.Marshal(conv(v))
}

// --- numbers

func splitExp(f float64) (digits string, exp int) {
	s := strconv.FormatFloat(math.Abs(f), 'e', -1, 64) // d.ddde±XX
	m, e, _ := strings.Cut(s, "e")
	exp, _ = strconv.Atoi(e)
	return strings.Replace(m, ".", "", 1), exp
}

// fixed writes digits (d1 d2 …, the value d1.d2… × 10^exp) without an exponent.
func fixed(digits string, exp int) string {
	if exp < 0 {
		return "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return digits + strings.Repeat("0", exp+1-len(digits))
	}
	return digits[:exp+1] + "." + digits[exp+1:]
}

func mantissa(digits string) string {
	if len(digits) == 1 {
		return digits
	}
	return digits[:1] + "." + digits[1:]
}

func sign(f float64) string {
	if f < 0 {
		return "-"
	}
	return ""
}

// pythonFloat: json.loads reads an integral number written without fraction as an int (its
// text is the runner's, JavaScript's, up to 1e21), everything else as a float, written by
// repr: exponent from 1e16 and below 1e-4, "e+16", "e-05".
func pythonFloat(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		if math.Abs(f) < 1e16 {
			return strconv.FormatFloat(f+0, 'f', -1, 64) // f+0: -0 as 0, as an int
		}
	}
	if f == 0 {
		return "0.0"
	}
	d, e := splitExp(f)
	if e >= 16 || e < -4 {
		es := fmt.Sprintf("%+03d", e)
		return sign(f) + mantissa(d) + "e" + es
	}
	s := fixed(d, e)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return sign(f) + s
}

// javaDouble is Double.toString: fixed from 1e-3 to below 1e7 (always with a fraction),
// otherwise d.dddE±n.
func javaDouble(f float64) string {
	if f == 0 {
		return "0.0"
	}
	d, e := splitExp(f)
	if e >= -3 && e < 7 {
		s := fixed(d, e)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return sign(f) + s
	}
	m := mantissa(d)
	if !strings.Contains(m, ".") {
		m += ".0"
	}
	return sign(f) + m + "E" + strconv.Itoa(e)
}

// dotnetDouble is double.ToString() in .NET Core 3.0 and later: shortest digits, exponent
// from 1e15 and below 1e-5, written E+XX.
func dotnetDouble(f float64) string {
	if f == 0 {
		return "0"
	}
	d, e := splitExp(f)
	if e >= 15 || e < -5 {
		return sign(f) + mantissa(d) + "E" + fmt.Sprintf("%+03d", e)
	}
	return sign(f) + fixed(d, e)
}

// rustF64 is serde_json's f64 (ryu): fixed from 1e-5 to below 1e16 with ".0" on integers,
// otherwise d.ddde±n without a plus sign.
func rustF64(f float64) string {
	if f == 0 {
		return "0.0"
	}
	d, e := splitExp(f)
	if e >= -5 && e < 16 {
		s := fixed(d, e)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return sign(f) + s
	}
	return sign(f) + mantissa(d) + "e" + strconv.Itoa(e)
}

// --- strings

// graphemes splits s into approximate extended grapheme clusters: a base followed by marks,
// ZWJ-joined sequences, variation selectors, CR LF, and regional indicator pairs.
func graphemes(s string) []string {
	rs := runes(s)
	var out []string
	for i := 0; i < len(rs); {
		j := i + 1
		if rs[i] == '\r' && j < len(rs) && rs[j] == '\n' {
			j++
		} else if rs[i] >= 0x1F1E6 && rs[i] <= 0x1F1FF && j < len(rs) && rs[j] >= 0x1F1E6 && rs[j] <= 0x1F1FF {
			j++
		} else {
			for j < len(rs) {
				r := rs[j]
				if unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc) || r == 0x200D || r >= 0xFE00 && r <= 0xFE0F || r >= 0x1F3FB && r <= 0x1F3FF {
					j++
					continue
				}
				if rs[j-1] == 0x200D {
					j++
					continue
				}
				break
			}
		}
		var b []byte
		for _, r := range rs[i:j] {
			b = jsstring.AppendRune(b, r)
		}
		out = append(out, string(b))
		i = j
	}
	return out
}

func graphemeCount(s string) int { return len(graphemes(s)) }

// graphemeContains matches n only as a run of whole grapheme clusters of h, comparing them
// under canonical equivalence.
func graphemeContains(h, n string) bool {
	if n == "" {
		return true
	}
	hg, ng := graphemes(h), graphemes(n)
	for i := 0; i+len(ng) <= len(hg); i++ {
		ok := true
		for k := range ng {
			if nfc(hg[i+k]) != nfc(ng[k]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// cultureContains is a culture-sensitive IndexOf: default-ignorable characters (soft hyphen,
// zero-width joiners) are skipped on both sides, and a needle of only those matches anywhere.
func cultureContains(h, n string) bool {
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == 0xAD || r >= 0x200B && r <= 0x200F || r == 0x2060 || r == 0xFEFF {
				return -1
			}
			return r
		}, s)
	}
	return strings.Contains(strip(h), strip(n))
}

// --- protocol-level mutants: what a port reads from the request line

// wireMutant rewrites each request as the port's own reading of it, then answers as the
// reference does; it sees numbers as the text they were sent with (adapter.WireNumbers).
type wireMutant struct {
	refadapter.Reference
	read func(req protocol.Request) protocol.Request
}

func (w *wireMutant) WireNumbers() {}

func (w *wireMutant) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	return w.Reference.Handle(ctx, w.read(req).Plain())
}

func wireTrap(name, mistake string, read func(protocol.Request) protocol.Request) mutant {
	return mutant{name: name, mistake: mistake, handler: &wireMutant{read: read}}
}

// numbers applies f to every configuration value and to the limit of a request.
func numbers(req protocol.Request, f func(v any) any) protocol.Request {
	args := wire.Clone(req.Args).(*wire.Object)
	if c, ok := args.Get("config"); ok {
		if co, ok := c.(*wire.Object); ok {
			for _, k := range co.Keys() {
				v, _ := co.Get(k)
				co.Set(k, f(v))
			}
		}
	}
	if l, ok := args.Get("limit"); ok {
		args.Set("limit", f(l))
	}
	req.Args = args
	return req
}

func boolAsInt(req protocol.Request) protocol.Request {
	return numbers(req, func(v any) any {
		if b, ok := v.(bool); ok {
			if b {
				return 1.0
			}
			return 0.0
		}
		return v
	})
}

func integralFloatRejected(req protocol.Request) protocol.Request {
	return numbers(req, func(v any) any {
		if n, ok := v.(wire.Number); ok && strings.ContainsAny(string(n), ".eE") {
			return 0.5 // not an int: rejected as the port's isinstance check does
		}
		return v
	})
}

func int32Wrap(req protocol.Request) protocol.Request {
	return numbers(req, func(v any) any {
		f, ok := plainNumber(v)
		if ok && f == math.Trunc(f) && math.Abs(f) < 1e300 {
			return float64(int32(int64(math.Mod(f, 1<<32))))
		}
		return v
	})
}

func int64Bound(req protocol.Request) protocol.Request {
	return numbers(req, func(v any) any {
		f, ok := plainNumber(v)
		if ok && f == math.Trunc(f) && f > service.MaxSafeInteger && f <= math.MaxInt64 {
			return float64(service.MaxSafeInteger) // accepted: the port's int64 holds it
		}
		return v
	})
}

func numericString(req protocol.Request) protocol.Request {
	return numbers(req, func(v any) any {
		if s, ok := v.(string); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
				return float64(n)
			}
		}
		return v
	})
}

func plainNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case wire.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func nullAsAbsent(req protocol.Request) protocol.Request {
	args := wire.Clone(req.Args).(*wire.Object)
	drop := func(o *wire.Object, key string) *wire.Object {
		if v, ok := o.Get(key); !ok || v != nil {
			return o
		}
		out := wire.NewObject()
		for _, k := range o.Keys() {
			if k != key {
				e, _ := o.Get(k)
				out.Set(k, e)
			}
		}
		return out
	}
	if req.Op == protocol.OpCandidates {
		args = drop(drop(args, "limit"), "query")
	}
	if rs, ok := args.Get("references"); ok {
		if list, ok := rs.([]any); ok {
			for i, r := range list {
				if ro, ok := r.(*wire.Object); ok {
					list[i] = drop(ro, "label")
				}
			}
		}
	}
	req.Args = args
	return req
}

func sortedBySeq(req protocol.Request) protocol.Request {
	args := wire.Clone(req.Args).(*wire.Object)
	w, _ := args.Get("world")
	wo, ok := w.(*wire.Object)
	if !ok {
		return req
	}
	ss, _ := wo.Get("sessions")
	list, _ := ss.([]any)
	for _, s := range list {
		so, _ := s.(*wire.Object)
		surf, _ := so.Get("surface")
		sf, ok := surf.(*wire.Object)
		if !ok {
			continue
		}
		ev, _ := sf.Get("events")
		evs, ok := ev.([]any)
		if !ok {
			continue
		}
		slices.SortStableFunc(evs, func(a, b any) int {
			seq := func(e any) float64 {
				if eo, ok := e.(*wire.Object); ok {
					if v, ok := eo.Get("seq"); ok {
						if f, ok := v.(float64); ok {
							return f
						}
					}
				}
				return 0
			}
			sa, sb := seq(a), seq(b)
			switch {
			case sa < sb:
				return -1
			case sa > sb:
				return 1
			}
			return 0
		})
	}
	req.Args = args
	return req
}
