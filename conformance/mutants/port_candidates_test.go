package mutants

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

func invalidConfig() error {
	return errcode.New(errcode.InvalidConfig, "session-reference: invalid configuration")
}

func cancelled(cause error) error {
	return errcode.Wrap(errcode.Cancelled, "session reference preparation was cancelled", cause)
}

// await is the seed's settleWithCancellation.
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

func (s *portService) lower(x string) string {
	if f := s.p.k.trap.lower; f != nil {
		return f(x) // MUTANT: a language's lowercasing
	}
	if s.p.k.simpleLower {
		return strings.ToLower(x) // MUTANT: Go's simple case mapping
	}
	return jsstring.ToLower(x)
}

// fieldLower lowercases an id or a cwd for the filter: with f, as a port that treats
// ids and paths apart from titles does.
func (s *portService) fieldLower(f func(string) string, x string) string {
	if f != nil {
		return f(x) // MUTANT: the id's or cwd's own lowercasing
	}
	return s.lower(x)
}

// fieldContains is the substring test on an id or a cwd.
func (s *portService) fieldContains(h, n string) bool {
	if s.p.k.fieldCodePointsIn {
		return strings.Contains(h, n) // MUTANT: code points (Python's `in`), so half a pair is never found
	}
	return s.contains(h, n)
}

func (s *portService) contains(h, n string) bool {
	if f := s.p.k.trap.contains; f != nil {
		return f(h, n) // MUTANT: a language's substring test
	}
	if s.p.k.byteContains || (jsstring.WellFormed(n) && utf8.ValidString(h)) {
		return strings.Contains(h, n) // MUTANT byteContains: bytes, not code units
	}
	hu, nu := jsstring.UTF16(h), jsstring.UTF16(n)
	for i := 0; i+len(nu) <= len(hu); i++ {
		if slices.Equal(hu[i:i+len(nu)], nu) {
			return true
		}
	}
	return false
}

func (s *portService) rank(c, target *string) int {
	c, target = s.p.k.trap.cwd(c), s.p.k.trap.cwd(target)
	if s.p.k.agentCwdZero && target == nil {
		zero := "" // MUTANT: agent.CWD.Value of an absent cwd, compared once the session has one
		target = &zero
	}
	switch {
	case c != nil && target != nil && s.p.k.trap.cwdEqual(*c, *target):
		return 0
	case c == nil:
		if s.p.k.cwdlessLast {
			return 3 // MUTANT: sessions without a cwd after the other cwds
		}
		return 1
	}
	return 2
}

// listCandidates is the seed's listCandidates, ported.
func (s *portService) listCandidates(ctx context.Context, agent service.Agent, query string, limit int) ([]service.Candidate, error) {
	lim := s.cfg.CandidateLimit
	if s.p.k.trap.narrowLimit {
		lim = max(wrapInt32(lim), 0) // MUTANT: (int) of the configured limit; Take(negative) takes none
	}
	checkLimit := func() error {
		if limit < 0 {
			return errcode.New(errcode.InvalidReference, "candidate limit must be a positive safe integer")
		}
		if limit > 0 {
			lim = limit
		}
		return nil
	}
	if !s.p.k.limitAfterCancel && !s.p.k.limitAfterList {
		if err := checkLimit(); err != nil {
			return nil, err
		}
	}
	needle := s.lower(query)
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	if s.p.k.limitAfterCancel {
		if err := checkLimit(); err != nil { // MUTANT: after the cancellation check
			return nil, err
		}
	}
	listed, err := await(ctx, func(ctx context.Context) ([]sessionquery.Record, error) { return s.q.ListSessions(ctx) })
	if err != nil {
		return nil, err
	}
	if s.p.k.limitAfterList {
		if err := checkLimit(); err != nil { // MUTANT: after the listing
			return nil, err
		}
	}
	type rec struct {
		h     sessionquery.Header
		index int
		label string
	}
	var records []rec
	for _, r := range listed {
		if !s.p.k.trap.idEqual(r.Header.ID, agent.ID) {
			records = append(records, rec{h: r.Header, index: len(records)})
		}
	}
	byRank := func(a, b rec) int {
		if s.p.k.newestFirst { // MUTANT newestFirst: the newest first within a group, not the listing's order
			return cmp.Or(cmp.Compare(s.rank(a.h.CWD, agent.CWD), s.rank(b.h.CWD, agent.CWD)), cmp.Compare(b.h.CreatedAt, a.h.CreatedAt), cmp.Compare(a.index, b.index))
		}
		return cmp.Or(cmp.Compare(s.rank(a.h.CWD, agent.CWD), s.rank(b.h.CWD, agent.CWD)), cmp.Compare(a.index, b.index))
	}
	sortRanked := func(rs []rec) { slices.SortStableFunc(rs, byRank) }
	if s.p.k.trap.unstableSort {
		sortRanked = func(rs []rec) { // MUTANT: an unstable sort by rank alone (pdqsort, introsort)
			slices.SortFunc(rs, func(a, b rec) int { return cmp.Compare(s.rank(a.h.CWD, agent.CWD), s.rank(b.h.CWD, agent.CWD)) })
		}
	}
	if s.p.k.trap.int32Limit {
		lim = max(0, int(int32(lim))) // MUTANT: Java's (int) of a long; a negative one lists nothing
	}
	inspected := records
	if needle == "" && !s.p.k.titlesForAll { // MUTANT titlesForAll: titles of every session read
		sortRanked(inspected)
		inspected = inspected[:min(lim, len(inspected))]
	}
	if needle != "" && s.p.k.limitBeforeFilter {
		slices.SortStableFunc(inspected, byRank)
		inspected = inspected[:min(lim, len(inspected))] // MUTANT: the limit before the filter
	}
	ids := make([]string, len(inspected))
	for i, r := range inspected {
		ids[i] = r.h.ID
	}
	obs, err := await(ctx, func(ctx context.Context) ([]sessionquery.TitleSettlement, error) {
		return s.q.ReadTitleSnapshots(ctx, ids)
	})
	if err != nil {
		return nil, err
	}
	var out []rec
	for i, r := range inspected {
		if i >= len(obs) {
			return nil, &errcode.TypeError{Msg: "cannot read properties of undefined (reading 'status')"}
		}
		r.label = r.h.ID
		if o := obs[i]; o.Err == nil && o.Title != nil && (*o.Title != "" || !s.p.k.emptyTitleFallback) {
			r.label = *o.Title // MUTANT emptyTitleFallback: "" falls back to the id
		}
		if t := s.p.k.trap.trimTitle; t != nil && r.label != r.h.ID {
			r.label = t(r.label) // MUTANT: the title trimmed
		}
		if needle != "" {
			if !s.fieldContains(s.fieldLower(s.p.k.idLower, r.h.ID), needle) && (r.h.CWD == nil || !s.fieldContains(s.fieldLower(s.p.k.cwdLower, *r.h.CWD), needle)) && !s.contains(s.lower(r.label), needle) {
				continue
			}
		}
		out = append(out, r)
	}
	sortRanked(out)
	out = out[:min(lim, len(out))]
	cands := make([]service.Candidate, len(out))
	for i, r := range out {
		cands[i] = service.Candidate{SessionID: r.h.ID, Label: r.label, CWD: s.p.k.trap.cwd(r.h.CWD), CreatedAt: r.h.CreatedAt}
		if s.p.k.trap.longCreatedAt {
			cands[i].CreatedAt = javaLong(r.h.CreatedAt) // MUTANT: a long createdAt
		}
	}
	return cands, nil
}
