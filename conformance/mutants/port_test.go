package mutants

import (
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// knobs are the porting mistakes; a mutant sets exactly one. The zero value is a correct port.
type knobs struct {
	// URI
	encodingJSON      bool // encoding/json in EncodeURI
	upperSurrogateHex bool // \uD800 for a lone surrogate
	paddedStdBase64   bool // standard base64 with padding
	noCanonicalCheck  bool // DecodeURI without the canonical re-encode check
	canonicalJSON     bool // canonical check on the JSON text, not the URI
	trimSpaceJSON     bool // JSON text trimmed of whitespace before the check

	// mentions
	asciiSpace       bool // \s as ASCII whitespace
	dotAll           bool // `.` in a label escape matches a line terminator
	noUnescape       bool // Markdown labels not unescaped
	noEscapeBracket  bool // Format escapes `\` only
	bareWordBoundary bool // bare URIs must start at a word boundary

	// strings
	simpleLower    bool // strings.ToLower in the candidate filter
	byteContains   bool // substring test on bytes, not code units
	runeCountBytes bool // byte length as utf8.RuneCountInString
	surrogateOne   bool // a lone surrogate counted as 1 byte
	goNumbers      bool // numbers in the snapshot JSON as Go's strconv 'g' (1e+06), not JavaScript's
	utf16Length    bool // byte length as JavaScript's .length (UTF-16 code units)
	// the candidate filter's id and cwd, apart from the label (ids taken as opaque or ASCII)
	idLower           func(string) string // the id lowercased by this, not the contract's
	cwdLower          func(string) string // the cwd lowercased by this, not the contract's
	fieldCodePointsIn bool                // id and cwd searched on code points, not code units

	// retention
	dropNewest          bool // the newest message may be dropped
	dropCheckpoints     bool // checkpoints may be dropped
	truncateFromCurrent bool // truncation from the current (truncated) text
	bestFit             bool // the largest fitting n, not the seed's bisection
	keepBOM             bool // no BOM stripping in the head and tail
	asciiEllipsis       bool // "..." in the omission notice
	rawTextBudget       bool // the budget compared with the texts' bytes, not the JSON object
	noLtEscape          bool // `<` not escaped in the prompt
	projectToolResults  bool // tool/result events projected as user messages
	skipChunks          bool // assistant/chunk events skipped as tool results are
	bisectHighBelow     bool // the truncation bisection's upper bound one byte below the target

	// service
	dedupLast           bool // dedup keeps the last label
	cancelFirst         bool // cancellation checked before the references
	selfAfterCount      bool // self-reference checked after dedup and the count
	limitAfterCancel    bool // the limit validated after the cancellation check
	limitAfterList      bool // the limit validated once the sessions are listed
	titlesForAll        bool // titles read for every session with an empty query
	cwdlessLast         bool // sessions without a cwd ranked last
	newestFirst         bool // within a rank group, the newest createdAt first
	emptyTitleFallback  bool // an empty title falls back to the id
	maxRefs4            bool // maxReferences 4 accepted
	sequentialReads     bool // surfaces read one after the other, stopping at a failure
	readFailureAtRender bool // every read awaited, a failure reported when its source's turn to render comes
	projectAllFirst     bool // every source projected before any budget is checked
	limitBeforeFilter   bool // with a query, the limit applied before filtering
	agentCwdZero        bool // an agent without a cwd compared as the cwd "" (Go's zero value)

	// found by certifying variants of a Go port written from the spec (gen_goport_test.go)
	blankSkipped   bool // messages whose text is blank (strings.TrimSpace) skipped
	longestByRunes bool // the longest message chosen by utf8.RuneCountInString, not bytes

	// found by certifying a TypeScript port written from the spec (gen_noticecount_test.go)
	groupedCount bool // the omission notice's count written with digit grouping ("4,900")

	// found by certifying variants of a PHP port written from the spec (gen_php_test.go)
	stripslashes bool // Markdown labels unescaped with PHP's stripslashes: "\\0" becomes NUL
	// found by certifying a Perl port written from the spec (gen_perl_test.go): Encode's strict
	// UTF-8 decode makes every noncharacter U+FFFD
	strictNoncharURI    bool // the URI payload decoded so: an id holding one never decodes
	strictNoncharRetain bool // the kept head and tail decoded so

	// language defaults (traps_test.go): each replaces one primitive with what a language's
	// standard library does by default
	trap trapKnobs
}

// port is a Go port of the seed, a goport.Port certified through conformancetest's bridge
// as any Go port is. With zero knobs it is conformant (TestUnmutatedPortIsConformant); each
// mutant flips one knob. Its logic is written in the reference's types (its methods in
// lower case); port_goport_test.go converts them at the Go API, as the reference port
// (conformance/internal/refport) does.
type port struct {
	k knobs
}

// newService builds the port's service. In cfg a zero field means the default and a
// negative one stands for any value JavaScript rejects (0, a fraction, too large …).
func (p port) newService(q sessionquery.Querier, cfg service.Config) (*portService, error) {
	maxRefs := service.MaxReferences
	if p.k.maxRefs4 {
		maxRefs = 4 // MUTANT: "at most 4"
	}
	if cfg.MaxReferences == 0 {
		cfg.MaxReferences = service.MaxReferences
	}
	if cfg.CandidateLimit == 0 {
		cfg.CandidateLimit = service.DefaultCandidateLimit
	}
	if cfg.MaxReferenceBytes == 0 {
		cfg.MaxReferenceBytes = service.DefaultMaxReferenceBytes
	}
	for _, v := range []int{cfg.MaxReferences, cfg.CandidateLimit, cfg.MaxReferenceBytes} {
		if v <= 0 || v > service.MaxSafeInteger {
			return nil, invalidConfig()
		}
	}
	if cfg.MaxReferences > maxRefs {
		return nil, invalidConfig()
	}
	return &portService{p: p, q: q, cfg: cfg}, nil
}

type portService struct {
	p   port
	q   sessionquery.Querier
	cfg service.Config
}
