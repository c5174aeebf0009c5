package service

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// Service is the session-reference service over one session-query service.
type Service struct {
	q   sessionquery.Querier
	cfg Config
	// NewID returns the id of a prepared context message; nil means a random UUID v4
	// (crypto.randomUUID), the one nondeterministic field of the contract.
	NewID func() string
}

// New returns a service over q with cfg (zero fields take their defaults), or an
// SESSION_REFERENCE_INVALID_CONFIG error.
func New(q sessionquery.Querier, cfg Config) (*Service, error) {
	eff, err := cfg.Effective()
	if err != nil {
		return nil, err
	}
	return &Service{q: q, cfg: eff}, nil
}

// NewFromValue returns a service configured by a JavaScript constructor argument; see
// ConfigFromValue.
func NewFromValue(q sessionquery.Querier, cfg jsjson.Arg) (*Service, error) {
	eff, err := ConfigFromValue(cfg)
	if err != nil {
		return nil, err
	}
	return &Service{q: q, cfg: eff}, nil
}

// Config returns the effective configuration.
func (s *Service) Config() Config { return s.cfg }

// Agent is the target agent: the session a message is sent to.
type Agent struct {
	ID  string
	CWD *string // the agent session's working directory, nil when it has none
}

// Candidate is one session offered for a mention (SessionReferenceCandidate).
type Candidate struct {
	SessionID string
	Label     string
	CWD       *string
	CreatedAt float64
}

// Value returns the candidate as the seed returns it: sessionId, label, cwd (only when
// recorded), createdAt.
func (c Candidate) Value() *jsjson.Object {
	o := jsjson.NewObject().Set("sessionId", c.SessionID).Set("label", c.Label)
	if c.CWD != nil {
		o.Set("cwd", *c.CWD)
	}
	return o.Set("createdAt", c.CreatedAt)
}

// ListCandidates lists sessions the agent may mention (SR-CAND-*): every listed session but
// the agent's own, filtered by a case-insensitive substring of id, cwd or label when query is
// not empty, ranked same-cwd first, then cwd-less, then other-cwd, listing order kept within
// a rank, at most limit of them. Each label is the session's title, or its id when the title
// is absent or unreadable. Limit 0 means the configured candidateLimit; a negative limit, or
// one above MaxSafeInteger, fails with SESSION_REFERENCE_INVALID_REFERENCE.
func (s *Service) ListCandidates(ctx context.Context, agent Agent, query string, limit int) ([]Candidate, error) {
	lim := s.cfg.CandidateLimit
	if limit != 0 {
		if limit < 0 || limit > MaxSafeInteger {
			return nil, badLimit()
		}
		lim = limit
	}
	return s.listCandidates(ctx, agent, jsstring.ToLower(query), lim)
}

// ListCandidatesValue is ListCandidates with JavaScript arguments: an unset query is "", an
// unset limit is the configured one, and a set value of the wrong type fails as the seed does
// (a limit that is not a positive safe integer: SESSION_REFERENCE_INVALID_REFERENCE; a query
// that is not a string: a TypeError).
func (s *Service) ListCandidatesValue(ctx context.Context, agent Agent, query, limit jsjson.Arg) ([]Candidate, error) {
	lim := s.cfg.CandidateLimit
	if limit.Set {
		n, ok := SafeInteger(limit.Value)
		if !ok || n <= 0 {
			return nil, badLimit()
		}
		lim = n
	}
	needle := ""
	if query.Set {
		q, ok := query.Value.(string)
		if !ok {
			return nil, typeError("query.toLocaleLowerCase is not a function")
		}
		needle = jsstring.ToLower(q)
	}
	return s.listCandidates(ctx, agent, needle, lim)
}

func badLimit() error {
	return errcode.New(errcode.InvalidReference, "candidate limit must be a positive safe integer")
}

// listCandidates is ListCandidates once its arguments are checked: needle is the lowercased
// query, lim a positive limit.
func (s *Service) listCandidates(ctx context.Context, agent Agent, needle string, lim int) ([]Candidate, error) {
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	listed, err := await(ctx, func(ctx context.Context) ([]sessionquery.Record, error) { return s.q.ListSessions(ctx) })
	if err != nil {
		return nil, err
	}
	// Records are referred to, not copied: a listing of 100k sessions is sorted and
	// filtered twice.
	type ranked struct {
		rec   *sessionquery.Record
		index int
		rank  int
		label string
	}
	records := make([]ranked, 0, len(listed))
	for i := range listed {
		r := &listed[i]
		if r.Header.ID == agent.ID {
			continue
		}
		records = append(records, ranked{rec: r, index: len(records), rank: rank(r.Header.CWD, agent.CWD)})
	}
	byRank := func(a, b ranked) int { return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.index, b.index)) }
	inspected := records
	if needle == "" {
		slices.SortStableFunc(inspected, byRank)
		inspected = inspected[:min(lim, len(inspected))]
	}
	ids := make([]string, len(inspected))
	for i, r := range inspected {
		ids[i] = r.rec.Header.ID
	}
	obs, err := await(ctx, func(ctx context.Context) ([]sessionquery.TitleSettlement, error) {
		return s.q.ReadTitleSnapshots(ctx, ids)
	})
	if err != nil {
		return nil, err
	}
	out := make([]ranked, 0, len(inspected))
	var m matcher
	if jsstring.WellFormed(needle) {
		m.needle = []byte(needle)
	}
	for i, r := range inspected {
		// The seed indexes settlements by position; with duplicate ids there are fewer
		// settlements than records and it reads a property of undefined.
		if i >= len(obs) {
			return nil, typeError("cannot read properties of undefined (reading 'status')")
		}
		r.label = r.rec.Header.ID
		if o := obs[i]; o.Err == nil && o.Title != nil {
			r.label = *o.Title
		}
		if needle != "" && !m.matches(r.rec.Header, r.label, needle) {
			continue
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, byRank)
	out = out[:min(lim, len(out))]
	cands := make([]Candidate, len(out))
	for i, r := range out {
		cands[i] = Candidate{SessionID: r.rec.Header.ID, Label: r.label, CWD: r.rec.Header.CWD, CreatedAt: r.rec.Header.CreatedAt}
	}
	return cands, nil
}

// matcher tests candidates against a lowercased needle, lowering each field into one
// reused buffer: the filter only compares, so it need not allocate a string per field.
type matcher struct {
	buf    []byte
	needle []byte // the needle's bytes, when it is well-formed (see contains)
}

func (m *matcher) matches(h sessionquery.Header, label, needle string) bool {
	return m.lowerContains(h.ID, needle) ||
		(h.CWD != nil && m.lowerContains(*h.CWD, needle)) ||
		m.lowerContains(label, needle)
}

// lowerContains is s.toLocaleLowerCase().includes(needle).
func (m *matcher) lowerContains(s, needle string) bool {
	m.buf = jsstring.AppendLower(m.buf[:0], s)
	if m.needle != nil {
		return bytes.Contains(m.buf, m.needle)
	}
	return contains(string(m.buf), needle)
}

// contains is String.prototype.includes over code units. Byte search on WTF-8 agrees with it
// unless the needle begins or ends with a lone surrogate, which can match half of a pair.
func contains(haystack, needle string) bool {
	if jsstring.WellFormed(needle) {
		return strings.Contains(haystack, needle)
	}
	h, n := jsstring.UTF16(haystack), jsstring.UTF16(needle)
	for i := 0; i+len(n) <= len(h); i++ {
		if slices.Equal(h[i:i+len(n)], n) {
			return true
		}
	}
	return false
}

// rank is the seed's candidateRank: 0 same cwd, 1 no cwd, 2 another cwd (or the agent has none).
func rank(candidate, target *string) int {
	switch {
	case candidate != nil && target != nil && *candidate == *target:
		return 0
	case candidate == nil:
		return 1
	}
	return 2
}

// await runs one session-query call and waits for it or for ctx (the seed's
// settleWithCancellation): the call is made even when ctx is already done, as the seed makes it
// before racing it against the signal.
func await[T any](ctx context.Context, call func(context.Context) (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := call(ctx)
		ch <- result{v, err}
	}()
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, cancelled(err)
	}
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		return zero, cancelled(ctx.Err())
	}
}

func cancelled(cause error) error {
	return errcode.Wrap(errcode.Cancelled, "session reference preparation was cancelled", cause)
}

// newUUID returns a random RFC 9562 version 4 UUID, as crypto.randomUUID does.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0F | 0x40
	b[8] = b[8]&0x3F | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
