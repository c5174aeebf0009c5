package mutants

import (
	"context"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/internal/refport"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
)

// This file is the port's boundary with the Go API (goport): the port's logic is written in
// the reference's types, and these methods convert at the edge with the reference port's
// conversions (conformance/internal/refport). Nothing here is a mistake: every mutant's
// mistake is in the logic, and the same conversions serve the unmutated port.

var (
	_ goport.Port    = port{}
	_ goport.Service = (*portService)(nil)
)

// Features implements goport.Port: what the reference port declares.
func (port) Features() []goport.Feature { return refport.Port{}.Features() }

// DecodeURI implements goport.Port.
func (p port) DecodeURI(u string) (string, error) {
	id, err := p.decodeURI(u)
	return id, refport.Coded(err)
}

// FormatMention implements goport.Port: a reference without a label shows its id.
func (p port) FormatMention(ref goport.Reference) string {
	return p.formatMention(ref.SessionID, ref.Label.Or(ref.SessionID))
}

// ParseMentions implements goport.Port.
func (p port) ParseMentions(text string) (goport.ParsedText, error) {
	parsed, err := p.parseMentions(text)
	if err != nil {
		return goport.ParsedText{}, refport.Coded(err)
	}
	return refport.ParsedText(parsed), nil
}

// NewService implements goport.Port.
func (p port) NewService(store goport.SessionStore, cfg goport.Config) (goport.Service, error) {
	s, err := p.newService(refport.Store(store), service.Config{
		MaxReferences:     configInt(cfg.MaxReferences),
		CandidateLimit:    configInt(cfg.CandidateLimit),
		MaxReferenceBytes: configInt(cfg.MaxReferenceBytes),
	})
	if err != nil {
		return nil, refport.Coded(err)
	}
	return s, nil
}

// configInt is a number JavaScript passed as the port's int: not set is 0 (the default), a
// positive safe integer itself, anything JavaScript rejects (0, negative, a fraction, too
// large, NaN) -1.
func configInt(o goport.Optional[goport.Int]) int {
	n, ok := o.Get()
	if !ok {
		return 0
	}
	v, ok := n.Positive()
	if !ok {
		return -1
	}
	return v
}

// Config implements goport.Service.
func (s *portService) Config() goport.EffectiveConfig {
	return goport.EffectiveConfig{MaxReferences: s.cfg.MaxReferences, CandidateLimit: s.cfg.CandidateLimit, MaxReferenceBytes: s.cfg.MaxReferenceBytes}
}

// ListCandidates implements goport.Service. A limit not set is 0 (the configured limit).
func (s *portService) ListCandidates(ctx context.Context, a goport.Agent, query string, limit goport.Optional[goport.Int]) ([]goport.Candidate, error) {
	cs, err := s.listCandidates(ctx, refport.Agent(a), query, configInt(limit))
	if err != nil {
		return nil, refport.Coded(err)
	}
	return refport.Candidates(cs), nil
}

// Prepare implements goport.Service: the content is JSON text on the Go API and a JavaScript
// value in the port.
func (s *portService) Prepare(ctx context.Context, a goport.Agent, content goport.Content, refs []goport.Reference) (*goport.Prepared, error) {
	c, err := refport.Content(content)
	if err != nil {
		return nil, err
	}
	p, err := s.prepare(ctx, refport.Agent(a), c, refport.Inputs(refs))
	if err != nil {
		return nil, refport.Coded(err)
	}
	return refport.Prepared(content, p)
}
