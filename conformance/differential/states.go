package differential

import (
	"encoding/base64"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Named states: the places in the contract where ports go wrong, each one a branch of the
// seed's code or a combination of inputs its code handles in a particular order. Classify
// finds the states one request reaches from the request itself and the trusted side's answer,
// re-running the contract's building blocks (Semantics: lowercasing, projection, truncation)
// where the answer alone does not tell; the reference carries no instrumentation for it.
//
// States lists, per op, the states a run is expected to reach; a default run against the
// reference reaches every one (TestDefaultRunReachesEveryState).
var States = map[string][]string{
	protocol.OpMentionParse: {
		"no reference", "markdown mention", "bare URI", "markdown and bare URIs in one text",
		"bare URI touching a mention", "bare URI inside a word", "same session twice",
		"label escape", "escaped bracket in label", "escaped backslash in label",
		"escaped line terminator (no match)", "label across lines", "empty label",
		"trap character in label", "unclosed bracket", "bare URI ended by JavaScript whitespace",
		"URI followed by a space only other languages know", "invalid URI in a mention",
		"non-canonical bare URI", "stray bits in a payload", "scheme lookalike that is no reference", "error after a valid reference",
	},
	protocol.OpCandidates: {
		"listing fails", "self excluded", "duplicate ids listed", "ids differing only in case",
		"titles differing only in case", "title read fails", "empty title", "no title: id as label",
		"header without cwd", "header with extra fields", "agent without cwd", "agent cwd equals a session's",
		"all three rank groups", "no query", "empty query", "query matches a title only",
		"query matches a cwd only", "query needs full case mapping", "query matches nothing",
		"query is half of a surrogate pair", "case mapping decides a match",
		"limit below the matches", "limit equals the matches", "limit above the matches",
		"invalid limit", "cancel before listing", "cancel during listing", "cancel with an invalid limit",
	},
	protocol.OpPrepare: append([]string{
		"no references", "duplicate reference: first label kept", "invalid duplicate",
		"references not an array", "three sources rendered", "cancel before, no references",
		"cancelled before reads", "cancelled during reads", "read fails", "budget exceeded", "context rendered",
	}, append(precedencePairs(), retentionStates...)...),
}

// retentionStates are the retention states, reached through prepare.
var retentionStates = []string{
	"retention: fits untouched", "retention: budget exactly fits", "retention: one byte over",
	"retention: message dropped", "retention: many messages dropped",
	"retention: drops ran out (only checkpoints and the newest left)", "retention: only checkpoints kept",
	"retention: checkpoint is the newest message", "retention: message truncated",
	"retention: message truncated twice", "retention: two messages truncated",
	"retention: dropped then truncated", "retention: huge message truncated",
	"retention: escape-heavy text truncated", "retention: bisection found no fit",
	"retention: truncation target 0", "retention: nothing fits",
	"retention: head cut inside a 2-byte character", "retention: head cut inside a 3-byte character",
	"retention: head cut inside a 4-byte character", "retention: tail cut inside a 2-byte character",
	"retention: tail cut inside a 3-byte character", "retention: tail cut inside a 4-byte character",
	"retention: BOM stripped from the head", "retention: BOM stripped from the tail",
	"retention: bisection is not the best fit",
}

// Semantics are the contract's building blocks Classify re-runs where a request and the
// trusted side's answer alone do not name a state: which sessions a query matches, which
// messages retention drops and how it truncates. The kit does not define them a second time;
// conformance/refadapter.Semantics is the reference's, and the wiring (cmd/conformance-runner
// diff, tests) passes it in Options.Semantics.
type Semantics interface {
	// Lower is the contract's lowercasing (SR-STR-4).
	Lower(s string) string
	// Project calls each, in order, for every message of the conversation the events
	// project to (SR-PROJ-*): its role, its text and whether it is a compact checkpoint. It
	// returns false when the events break the session-query contract.
	Project(events []any, each func(role, text string, checkpoint bool)) bool
	// Truncate is truncateWithNotice (SR-RET-6..9): text fitted into maxBytes UTF-8 bytes
	// with the omission notice, "" when nothing fits.
	Truncate(text string, maxBytes int) string
}

// errNames are the short names of the prepare errors in the order the seed checks them.
var errNames = map[string]string{
	contract.InvalidConfig: "invalid-config", contract.InvalidReference: "invalid", contract.SelfReference: "self",
	contract.TooMany: "too-many", contract.Cancelled: "cancelled", contract.ReadFailed: "read-failed",
	contract.BudgetExceeded: "budget",
}

// precedencePairs are the "X over Y" states: X and Y both present in one request and X wins.
// The seed checks the config, then each element in order (invalid or self, whichever comes
// first), then the count, then cancellation, then the reads, then the budget.
func precedencePairs() []string {
	var out []string
	pair := func(x string, ys ...string) {
		for _, y := range ys {
			out = append(out, "precedence: "+x+" over "+y)
		}
	}
	pair("invalid-config", "invalid", "self", "too-many", "cancelled", "read-failed", "budget")
	pair("invalid", "self", "too-many", "cancelled", "read-failed", "budget")
	pair("self", "invalid", "too-many", "cancelled", "read-failed", "budget")
	pair("too-many", "cancelled", "read-failed", "budget")
	pair("cancelled", "read-failed", "budget")
	pair("read-failed", "budget")
	// Cancelled during the reads, a read that fails before the abort settles the reads
	// first (the seed's Promise.all rejects before its abort listener runs).
	pair("read-failed", "cancelled")
	return out
}

// Classify returns the named states req reaches, given b, the trusted side's answer, and sem,
// the contract's building blocks. Ops without named states give none; so do candidates and
// prepare when sem is nil (mention.parse needs none). It never panics on a malformed
// request: what it cannot read it does not classify.
func Classify(req protocol.Request, b protocol.Response, sem Semantics) (states []string) {
	defer func() {
		if recover() != nil {
			states = nil
		}
	}()
	req = req.Plain() // a number written as wire text ("2.0") is the double it reads as
	s := stateSet{}
	switch req.Op {
	case protocol.OpMentionParse:
		if text, ok := argValue(req, "text").(string); ok {
			classifyMention(s, text)
		}
	case protocol.OpCandidates:
		if sem != nil {
			classifyCandidates(sem, s, req, b)
		}
	case protocol.OpPrepare:
		if sem != nil {
			classifyPrepare(sem, s, req, b)
		}
	}
	return s.list()
}

// stateSet collects state names; a nil set names none (a replay run for its result only).
type stateSet map[string]bool

func (s stateSet) add(name string) {
	if s != nil {
		s[name] = true
	}
}
func (s stateSet) list() []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func argValue(req protocol.Request, key string) any {
	v, _ := req.Arg(key)
	return v
}

func errCode(r protocol.Response) string {
	if r.OK || r.Err == nil {
		return ""
	}
	return r.Err.Code
}

// jsSpace is JavaScript's \s; otherSpace are characters other languages' whitespace classes
// hold and JavaScript's does not.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

var (
	mentionRe  = regexp.MustCompile(`@\[((?:\\[^\n\r\x{2028}\x{2029}]|[^\\\]])*)\]\((dsh-session:[^` + jsSpace + `)]*)\)|(dsh-session:[A-Za-z0-9_-]+)`)
	jsSpaceRe  = regexp.MustCompile(`^[` + jsSpace + `]`)
	otherSpace = []rune{0x85, 0x1c, 0x1d, 0x1e, 0x1f, 0x180e, 0x200b, 0x2060}
	trapRunes  = trapRuneSet()
)

func trapRuneSet() map[rune]bool {
	m := map[rune]bool{}
	for _, tr := range gen.Traps() {
		for _, r := range tr.S {
			if r > 0x7f && r != utf8.RuneError {
				m[r] = true
			}
		}
	}
	return m
}

const base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// classifyMention matches text as the seed's regex does (leftmost-first, as a backtracking
// engine) and names what each match and the text around it hold.
func classifyMention(s stateSet, text string) {
	ms := mentionRe.FindAllStringSubmatchIndex(text, -1)
	if len(ms) == 0 {
		s.add("no reference")
	}
	var markdown, bare, validRefs int
	seen := map[string]bool{}
	covered := make([]bool, len(text)+1)
	for i, m := range ms {
		for j := m[0]; j < m[1]; j++ {
			covered[j] = true
		}
		var u string
		if m[2] >= 0 {
			markdown++
			u = text[m[4]:m[5]]
			label := text[m[2]:m[3]]
			if label == "" {
				s.add("empty label")
			}
			if strings.Contains(label, `\`) {
				s.add("label escape")
			}
			if strings.Contains(label, `\]`) {
				s.add("escaped bracket in label")
			}
			if strings.Contains(label, `\\`) {
				s.add("escaped backslash in label")
			}
			if strings.ContainsAny(label, "\n\r\u2028\u2029") {
				s.add("label across lines")
			}
			for _, r := range label {
				if trapRunes[r] {
					s.add("trap character in label")
					break
				}
			}
		} else {
			bare++
			u = text[m[6]:m[7]]
			if i > 0 && ms[i-1][1] == m[0] || i+1 < len(ms) && ms[i+1][0] == m[1] {
				s.add("bare URI touching a mention")
			}
			before, _ := utf8.DecodeLastRuneInString(text[:m[0]])
			after, _ := utf8.DecodeRuneInString(text[m[1]:])
			if isWord(before) && isWord(after) {
				s.add("bare URI inside a word")
			}
		}
		rest := text[m[1]:]
		if jsSpaceRe.MatchString(rest) {
			if m[2] < 0 {
				s.add("bare URI ended by JavaScript whitespace")
			}
		}
		if r, _ := utf8.DecodeRuneInString(rest); slices.Contains(otherSpace, r) {
			s.add("URI followed by a space only other languages know")
		}
		id, valid := sessionIDOf(u)
		if p := u[len(contract.Scheme):]; len(p)%4 >= 2 && strings.IndexByte(base64URL, p[len(p)-1])&(1<<(2*(4-len(p)%4))-1) != 0 {
			s.add("stray bits in a payload")
		}
		if !valid {
			if m[2] >= 0 {
				s.add("invalid URI in a mention")
			} else {
				s.add("non-canonical bare URI")
			}
			if validRefs > 0 {
				s.add("error after a valid reference")
			}
			break // the seed's replace throws at the first invalid URI
		}
		validRefs++
		if seen[id] {
			s.add("same session twice")
		}
		seen[id] = true
	}
	if markdown > 0 {
		s.add("markdown mention")
	}
	if bare > 0 {
		s.add("bare URI")
	}
	if markdown > 0 && bare > 0 {
		s.add("markdown and bare URIs in one text")
	}
	for i := 0; i+1 < len(text); i++ {
		if covered[i] {
			continue
		}
		switch {
		case strings.HasPrefix(text[i:], "@["):
			s.add("unclosed bracket")
			// A backslash before a line terminator inside the label: \. does not match it.
			label := text[i:]
			if j := strings.IndexByte(label, ']'); j > 0 {
				label = label[:j]
			}
			for _, lt := range []string{"\\\n", "\\\r", "\\\u2028", "\\\u2029"} {
				if strings.Contains(label, lt) {
					s.add("escaped line terminator (no match)")
				}
			}
		case lowerHasPrefix(text[i:], "dsh-session:") || strings.HasPrefix(text[i:], "dsh_session:"):
			s.add("scheme lookalike that is no reference")
		}
	}
}

// lowerHasPrefix reports whether strings.ToLower(s) starts with the ASCII prefix, lowering
// only as many runes as the prefix has: ToLower maps rune by rune (an invalid byte becomes
// U+FFFD), and lowering the whole rest of the text at every byte made Classify quadratic.
func lowerHasPrefix(s, prefix string) bool {
	for k := 0; k < len(prefix); k++ {
		r, w := utf8.DecodeRuneInString(s)
		if w == 0 || unicode.ToLower(r) != rune(prefix[k]) {
			return false
		}
		s = s[w:]
	}
	return true
}

func isWord(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// sessionIDOf returns the session id whose canonical URI is u, or ok=false when u is no
// session's (SR-URI-2). Decoding is stated as the encoder's inverse: the payload must be the
// base64url form of UTF-8 JSON text holding one string, and re-encoding that string
// (contract.URI) must give u back, which rejects padding, stray bits, other JSON spellings
// and values that are not strings.
func sessionIDOf(u string) (id string, ok bool) {
	payload, hasScheme := strings.CutPrefix(u, contract.Scheme)
	if !hasScheme || payload == "" {
		return "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil || !utf8.Valid(raw) {
		return "", false
	}
	v, err := wire.Parse(string(raw))
	if err != nil {
		return "", false
	}
	id, isString := v.(string)
	if !isString || contract.URI(id) != u {
		return "", false
	}
	return id, true
}

// safeInteger reports whether v is a number for which JavaScript's Number.isSafeInteger
// holds, and its value.
func safeInteger(v any) (int, bool) {
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > contract.MaxSafeInteger {
		return 0, false
	}
	return int(f), true
}

// prepareConfig reads a prepare's config argument as SR-CONF-1..4 state it: null fails; a
// value that is not an object has no keys; a key absent or null takes its default; any other
// value must be a positive safe integer, maxReferences at most MaxReferences. It returns the
// limits prepare runs under and whether the config is valid; when it is not, the limits are
// those of the keys valid on their own (the others at their defaults), under which the
// request's other errors are judged.
func prepareConfig(set bool, v any) (maxReferences, maxReferenceBytes int, valid bool) {
	maxReferences, maxReferenceBytes = contract.MaxReferences, contract.DefaultMaxReferenceBytes
	if set && v == nil {
		return maxReferences, maxReferenceBytes, false
	}
	o, _ := v.(*wire.Object)
	valid = true
	for _, k := range []struct {
		name string
		dst  *int
		max  int
	}{
		{"maxReferences", &maxReferences, contract.MaxReferences},
		{"candidateLimit", nil, contract.MaxSafeInteger},
		{"maxReferenceBytes", &maxReferenceBytes, contract.MaxSafeInteger},
	} {
		var x any
		if o != nil {
			x, _ = o.Get(k.name)
		}
		if x == nil {
			continue
		}
		if n, isInt := safeInteger(x); isInt && n > 0 && n <= k.max {
			if k.dst != nil {
				*k.dst = n
			}
			continue
		}
		valid = false
	}
	return maxReferences, maxReferenceBytes, valid
}

// worldOf reads the request's world and agent, or returns ok=false.
func worldOf(req protocol.Request) (w *protocol.World, agentID string, agentCWD *string, ok bool) {
	w, err := protocol.WorldFromValue(argValue(req, "world"))
	if err != nil {
		return nil, "", nil, false
	}
	a, isObj := argValue(req, "agent").(*wire.Object)
	if !isObj {
		return nil, "", nil, false
	}
	idv, _ := a.Get("id")
	agentID, _ = idv.(string)
	if c, has := a.Get("cwd"); has {
		if cs, isStr := c.(string); isStr {
			agentCWD = &cs
		}
	}
	return w, agentID, agentCWD, true
}

func classifyCandidates(sem Semantics, s stateSet, req protocol.Request, b protocol.Response) {
	w, agentID, agentCWD, ok := worldOf(req)
	if !ok {
		return
	}
	cancel := argValue(req, "cancel")
	limV, limSet := req.Arg("limit")
	lim, limOK := safeInteger(limV)
	limOK = limOK && lim > 0
	if limSet && !limOK {
		s.add("invalid limit")
		if cancel != nil {
			s.add("cancel with an invalid limit")
		}
	}
	switch cancel {
	case protocol.CancelBefore:
		s.add("cancel before listing")
	case protocol.CancelDuringRead:
		s.add("cancel during listing")
	}
	if w.ListError != nil {
		s.add("listing fails")
	}
	if agentCWD == nil {
		s.add("agent without cwd")
	}
	qv, qSet := req.Arg("query")
	q, qStr := qv.(string)
	switch {
	case !qSet:
		s.add("no query")
	case qStr && q == "":
		s.add("empty query")
	}
	if qStr && len(wire.UTF16(q)) == 1 && wire.IsSurrogate(rune(wire.UTF16(q)[0])) {
		s.add("query is half of a surrogate pair")
	}
	needle := sem.Lower(q)
	if qStr && q != "" && needle != simpleLower(q) {
		s.add("query needs full case mapping")
	}
	ids, titles := map[string]bool{}, map[string]string{}
	groups := map[int]bool{}
	matches := 0
	for _, ws := range w.Sessions {
		h := ws.Header
		if h.ID == agentID {
			s.add("self excluded")
			continue
		}
		if ids[h.ID] {
			s.add("duplicate ids listed")
		}
		for other := range ids {
			if other != h.ID && sem.Lower(other) == sem.Lower(h.ID) {
				s.add("ids differing only in case")
			}
		}
		ids[h.ID] = true
		if h.CWD == nil {
			s.add("header without cwd")
		}
		if h.Extra != nil {
			s.add("header with extra fields")
		}
		switch {
		case h.CWD != nil && agentCWD != nil && *h.CWD == *agentCWD:
			s.add("agent cwd equals a session's")
			groups[0] = true
		case h.CWD == nil:
			groups[1] = true
		default:
			groups[2] = true
		}
		label := h.ID
		switch {
		case ws.TitleError != nil:
			s.add("title read fails")
		case ws.Title == nil:
			s.add("no title: id as label")
		case *ws.Title == "":
			s.add("empty title")
			label = ""
		default:
			label = *ws.Title
			for id, t := range titles {
				if id != h.ID && t != label && sem.Lower(t) == sem.Lower(label) {
					s.add("titles differing only in case")
				}
			}
			titles[h.ID] = label
		}
		if needle == "" {
			matches++
			continue
		}
		inID := strings.Contains(sem.Lower(h.ID), needle)
		inCWD := h.CWD != nil && strings.Contains(sem.Lower(*h.CWD), needle)
		inLabel := strings.Contains(sem.Lower(label), needle)
		if inLabel && !inID && !inCWD && label != h.ID {
			s.add("query matches a title only")
		}
		if inCWD && !inID && !inLabel {
			s.add("query matches a cwd only")
		}
		if inID || inCWD || inLabel {
			matches++
		}
		// Matched under the engine's full, contextual, current case mapping and not under
		// a per-code-point mapping of older tables (Go's unicode.ToLower), or the reverse.
		sn := simpleLower(q)
		simple := strings.Contains(simpleLower(h.ID), sn) || h.CWD != nil && strings.Contains(simpleLower(*h.CWD), sn) || strings.Contains(simpleLower(label), sn)
		if simple != (inID || inCWD || inLabel) {
			s.add("case mapping decides a match")
		}
	}
	if len(groups) == 3 {
		s.add("all three rank groups")
	}
	if needle != "" && matches == 0 && w.ListError == nil {
		s.add("query matches nothing")
	}
	if limSet && limOK && w.ListError == nil && cancel == nil && b.OK {
		switch {
		case lim < matches:
			s.add("limit below the matches")
		case lim == matches:
			s.add("limit equals the matches")
		default:
			s.add("limit above the matches")
		}
	}
}

// simpleLower is a language default: per-rune simple lowercase mapping.
func simpleLower(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func classifyPrepare(sem Semantics, s stateSet, req protocol.Request, b protocol.Response) {
	w, agentID, _, ok := worldOf(req)
	if !ok {
		return
	}
	code := errCode(b)
	cancel := argValue(req, "cancel")
	cfgV, cfgSet := req.Arg("config")
	// An invalid config's other errors are judged under the keys that are valid on their own.
	maxReferences, maxReferenceBytes, cfgValid := prepareConfig(cfgSet, cfgV)
	present := map[string]bool{}
	if !cfgValid {
		present["invalid-config"] = true
	}
	refsV := argValue(req, "references")
	elems, isList := refsV.([]any)
	if !isList {
		s.add("references not an array")
	}
	seen := map[string]string{}
	var order []string
	for _, e := range elems {
		o, isObj := e.(*wire.Object)
		if !isObj {
			present["invalid"] = true
			continue
		}
		idv, _ := o.Get("sessionId")
		lv, hasLabel := o.Get("label")
		id, idOK := idv.(string)
		label, labelOK := lv.(string)
		if !idOK || hasLabel && !labelOK {
			present["invalid"] = true
			if idOK {
				if _, dup := seen[id]; dup {
					s.add("invalid duplicate")
				}
			}
			continue
		}
		if id == agentID {
			present["self"] = true
			continue
		}
		if !hasLabel {
			label = id
		}
		if first, dup := seen[id]; dup {
			if first != label {
				s.add("duplicate reference: first label kept")
			}
			continue
		}
		seen[id] = label
		order = append(order, id)
	}
	if isList && len(elems) == 0 {
		s.add("no references")
	}
	if len(order) > maxReferences {
		present["too-many"] = true
	}
	if cancel != nil && len(order) > 0 {
		present["cancelled"] = true
	}
	if cancel == protocol.CancelBefore && isList && len(order) == 0 && code == "" {
		s.add("cancel before, no references")
	}
	var rendered []func()
	for _, id := range order {
		ws := w.Find(id)
		if ws == nil || ws.ReadError != nil {
			present["read-failed"] = true
			continue
		}
		surf := protocol.Surface{} // an absent surface reads as empty, capturedThroughSeq null
		if ws.Surface != nil {
			surf = *ws.Surface
		}
		h, label := ws.Header, seen[id]
		rendered = append(rendered, func() { traceRetention(sem, s, h, surf, label, maxReferenceBytes) })
		if fits, projected := traceRetention(sem, nil, h, surf, label, maxReferenceBytes); projected && !fits {
			present["budget"] = true
		}
	}
	if winner, known := errNames[code]; known {
		for y := range present {
			if y != winner {
				s.add("precedence: " + winner + " over " + y)
			}
		}
	}
	switch code {
	case contract.Cancelled:
		if cancel == protocol.CancelDuringRead {
			s.add("cancelled during reads")
		} else {
			s.add("cancelled before reads")
		}
	case contract.ReadFailed:
		s.add("read fails")
	case contract.BudgetExceeded:
		s.add("budget exceeded")
	case "":
		if b.OK && len(order) > 0 {
			s.add("context rendered")
			if len(order) == 3 {
				s.add("three sources rendered")
			}
		}
	}
	// Retention runs when every read succeeded: on a rendered context or a budget failure.
	if code == "" && b.OK || code == contract.BudgetExceeded {
		for _, f := range rendered {
			f()
		}
	}
}

// traceRetention runs the seed's retainReferencedSession (SR-RET-*) step by step on the
// contract's projection and truncation (sem), naming the branches it takes in s (none when s
// is nil). It returns whether the source fits maxBytes, and projected=false when the surface
// does not project (the source then fails otherwise).
func traceRetention(sem Semantics, s stateSet, h protocol.Header, surf protocol.Surface, label string, maxBytes int) (fits, projected bool) {
	type item struct {
		role, text string
		checkpoint bool
	}
	var items []item
	if !sem.Project(surf.Events, func(role, text string, checkpoint bool) { items = append(items, item{role, text, checkpoint}) }) {
		return false, false
	}
	fixed := gen.FixedSize(h.ID, label, h.CWD, surf.CapturedThroughSeq)
	type msg struct {
		it        item
		text      string
		size      int
		truncated int
	}
	var ms []*msg
	for _, it := range items {
		if !utf8.ValidString(it.text) {
			it.text = wire.Normalize(it.text)
		}
		ms = append(ms, &msg{it: it, text: it.text, size: gen.MessageSize(it.role, it.text)})
	}
	size := func() int {
		n := fixed
		for i, m := range ms {
			if i > 0 {
				n++
			}
			n += m.size
		}
		return n
	}
	start := size()
	switch {
	case start == maxBytes:
		s.add("retention: budget exactly fits")
	case start == maxBytes+1:
		s.add("retention: one byte over")
	}
	if start <= maxBytes {
		s.add("retention: fits untouched")
		return true, true
	}
	if len(ms) > 0 && ms[len(ms)-1].it.checkpoint {
		s.add("retention: checkpoint is the newest message")
	}
	dropped := 0
	for size() > maxBytes {
		i := slices.IndexFunc(ms, func(m *msg) bool { return !m.it.checkpoint && m != ms[len(ms)-1] })
		if i < 0 {
			if len(ms) > 1 {
				s.add("retention: drops ran out (only checkpoints and the newest left)")
			}
			break
		}
		ms = slices.Delete(ms, i, i+1)
		dropped++
	}
	if dropped > 0 {
		s.add("retention: message dropped")
	}
	if dropped >= 10 {
		s.add("retention: many messages dropped")
	}
	if len(ms) > 0 && !slices.ContainsFunc(ms, func(m *msg) bool { return !m.it.checkpoint }) {
		s.add("retention: only checkpoints kept")
	}
	truncatedMsgs := 0
	for size() > maxBytes {
		longest, longestBytes := -1, 0
		for i, m := range ms {
			if len(m.text) > longestBytes {
				longest, longestBytes = i, len(m.text)
			}
		}
		if longest < 0 {
			s.add("retention: nothing fits")
			return false, true
		}
		m := ms[longest]
		target := max(0, longestBytes-(size()-maxBytes))
		if target == 0 {
			s.add("retention: truncation target 0")
		}
		if s != nil {
			traceCuts(s, m.it.text, target)
		}
		t := sem.Truncate(m.it.text, target)
		if t == "" {
			s.add("retention: bisection found no fit")
		}
		if t == m.text {
			s.add("retention: nothing fits")
			return false, true
		}
		if m.truncated == 0 {
			truncatedMsgs++
		}
		m.truncated++
		s.add("retention: message truncated")
		if m.truncated == 2 {
			s.add("retention: message truncated twice")
		}
		if dropped > 0 {
			s.add("retention: dropped then truncated")
		}
		if len(m.it.text) >= 1000 {
			s.add("retention: huge message truncated")
		}
		if contract.TagSafeSize(m.it.text) >= len(m.it.text)+len(m.it.text)/4+2 {
			s.add("retention: escape-heavy text truncated")
		}
		m.text, m.size = t, gen.MessageSize(m.it.role, t)
	}
	if truncatedMsgs >= 2 {
		s.add("retention: two messages truncated")
	}
	return true, true
}

// traceCuts replays truncateWithNotice's bisection over the retained byte count and names
// where its head and tail cuts fell: inside a character of some width, or before a BOM.
func traceCuts(s stateSet, text string, maxBytes int) {
	enc := []byte(wire.ToWellFormed(wire.Normalize(text)))
	total := len(enc)
	if total <= maxBytes {
		return
	}
	width := func(i int) int { // width of the character whose continuation byte is at i
		j := i
		for j > 0 && enc[j]&0xC0 == 0x80 {
			j--
		}
		_, n := utf8.DecodeRune(enc[j:])
		return n
	}
	low, high := 0, maxBytes
	for low <= high {
		n := low + (high-low)/2
		head, tail := (n+1)/2, n/2
		prefixEnd := min(head, total)
		suffixStart := total - min(total-prefixEnd, tail)
		if prefixEnd < suffixStart {
			if prefixEnd < total && enc[prefixEnd]&0xC0 == 0x80 {
				s.add("retention: head cut inside a " + string(rune('0'+width(prefixEnd))) + "-byte character")
			}
			if suffixStart < total && enc[suffixStart]&0xC0 == 0x80 {
				s.add("retention: tail cut inside a " + string(rune('0'+width(suffixStart))) + "-byte character")
			}
		}
		// Whether this candidate fits decides the bisection's next step
		// (the replay mirrors the contract's truncation; it only names states, it decides
		// nothing: Semantics.Truncate does).
		fits := fitsAt(enc, head, tail, maxBytes)
		if fits.bomHead {
			s.add("retention: BOM stripped from the head")
		}
		if fits.bomTail {
			s.add("retention: BOM stripped from the tail")
		}
		if fits.ok {
			low = n + 1
		} else {
			high = n - 1
		}
	}
	if gen.BisectionNotBestFit(text, maxBytes) {
		s.add("retention: bisection is not the best fit")
	}
}

func noticeLen(omitted int) int { return len(contract.Notice(omitted)) }

type fit struct {
	ok, bomHead, bomTail bool
	omitted              int
}

// fitsAt is dsh-retention's headTail retainer on enc followed by the notice, measured
// against maxBytes: what one step of truncateWithNotice's bisection decides.
func fitsAt(enc []byte, head, tail, maxBytes int) fit {
	total := len(enc)
	prefixEnd := min(head, total)
	suffixLen := min(total-prefixEnd, tail)
	suffixStart := total - suffixLen
	if prefixEnd+suffixLen < total {
		// Cut the head back to a whole character, the tail forward.
		for prefixEnd > 0 && prefixEnd < total && enc[prefixEnd]&0xC0 == 0x80 {
			prefixEnd--
		}
		for suffixStart < total && enc[suffixStart]&0xC0 == 0x80 {
			suffixStart++
		}
	}
	bom := func(b []byte) bool { return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF }
	f := fit{bomHead: bom(enc[:prefixEnd]), bomTail: bom(enc[suffixStart:])}
	n := prefixEnd + total - suffixStart
	if f.bomHead {
		n -= 3
	}
	if f.bomTail {
		n -= 3
	}
	f.omitted = suffixStart - prefixEnd
	f.ok = n+noticeLen(f.omitted) <= maxBytes
	return f
}

// Coverage returns the op's named states (States) with the number of compared requests that
// reached each, in States order, and the ones no request reached. An op without named states,
// or a run that measured no coverage (Options.Semantics nil), returns nil, nil.
func (o OpResult) Coverage() (reached []StateCount, never []string) {
	if o.States == nil {
		return nil, nil
	}
	for _, name := range States[o.Op] {
		if n := o.States[name]; n > 0 {
			reached = append(reached, StateCount{name, n})
		} else {
			never = append(never, name)
		}
	}
	return reached, never
}

// StateCount is a named state and the number of requests that reached it.
type StateCount struct {
	State    string
	Requests int
}
