package mutants

import (
	"context"
	"errors"
	"math"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// This file is the port's boundary with the Go API (goport): the port's logic is written in
// the reference's types, and these methods convert at the edge, as the reference port
// (conformancetest/internal/refport) does. Nothing here is a mistake: every mutant's
// mistake is in the logic, and the same conversions serve the unmutated port.

var (
	_ goport.Port    = port{}
	_ goport.Service = (*portService)(nil)
)

// Features implements goport.Port: what the reference port declares (refport.Port).
func (port) Features() []goport.Feature {
	return []goport.Feature{goport.FeatureLoneSurrogates}
}

// DecodeURI implements goport.Port.
func (p port) DecodeURI(u string) (string, error) {
	id, err := p.decodeURI(u)
	return id, coded(err)
}

// FormatMention implements goport.Port: a reference without a label shows its id.
func (p port) FormatMention(ref goport.Reference) string {
	return p.formatMention(ref.SessionID, ref.Label.Or(ref.SessionID))
}

// ParseMentions implements goport.Port.
func (p port) ParseMentions(text string) (goport.ParsedText, error) {
	parsed, err := p.parseMentions(text)
	if err != nil {
		return goport.ParsedText{}, coded(err)
	}
	return parsedText(parsed), nil
}

func parsedText(p mention.Parsed) goport.ParsedText {
	out := goport.ParsedText{Text: p.Text, References: make([]goport.Mention, len(p.References))}
	for i, r := range p.References {
		out.References[i] = goport.Mention{SessionID: r.SessionID, Label: r.Label}
	}
	return out
}

// NewService implements goport.Port.
func (p port) NewService(store goport.SessionStore, cfg goport.Config) (goport.Service, error) {
	s, err := p.newService(querier{store}, service.Config{
		MaxReferences:     configInt(cfg.MaxReferences),
		CandidateLimit:    configInt(cfg.CandidateLimit),
		MaxReferenceBytes: configInt(cfg.MaxReferenceBytes),
	})
	if err != nil {
		return nil, coded(err)
	}
	return s, nil
}

// configInt is a number JavaScript passed as the port's int: not set is 0 (the default), a
// positive safe integer itself, anything JavaScript rejects (0, negative, a fraction, too
// large, NaN) -1.
func configInt(o goport.Optional[float64]) int {
	f, ok := o.Get()
	if !ok {
		return 0
	}
	if f <= 0 || f != math.Trunc(f) || f > service.MaxSafeInteger {
		return -1
	}
	return int(f)
}

// Config implements goport.Service.
func (s *portService) Config() goport.EffectiveConfig {
	return goport.EffectiveConfig{MaxReferences: s.cfg.MaxReferences, CandidateLimit: s.cfg.CandidateLimit, MaxReferenceBytes: s.cfg.MaxReferenceBytes}
}

func agent(a goport.Agent) service.Agent {
	return service.Agent{ID: a.ID, CWD: optional(a.CWD)}
}

func optional[T any](o goport.Optional[T]) *T {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}

func some[T any](p *T) goport.Optional[T] {
	if p == nil {
		return goport.Optional[T]{}
	}
	return goport.Some(*p)
}

// ListCandidates implements goport.Service. A limit not set is 0 (the configured limit).
func (s *portService) ListCandidates(ctx context.Context, a goport.Agent, query string, limit goport.Optional[float64]) ([]goport.Candidate, error) {
	cs, err := s.listCandidates(ctx, agent(a), query, configInt(limit))
	if err != nil {
		return nil, coded(err)
	}
	out := make([]goport.Candidate, len(cs))
	for i, c := range cs {
		out[i] = goport.Candidate{SessionID: c.SessionID, Label: c.Label, CWD: some(c.CWD), CreatedAt: c.CreatedAt}
	}
	return out, nil
}

// Prepare implements goport.Service: the content is JSON text on the Go API and a JavaScript
// value in the port.
func (s *portService) Prepare(ctx context.Context, a goport.Agent, content goport.Content, refs []goport.Reference) (*goport.Prepared, error) {
	var c any
	if content != nil {
		v, err := jsjson.Parse(string(content))
		if err != nil {
			return nil, err
		}
		c = v
	}
	in := make([]service.Input, len(refs))
	for i, r := range refs {
		in[i] = service.Input{SessionID: r.SessionID, Label: optional(r.Label)}
	}
	p, err := s.prepare(ctx, agent(a), c, in)
	if err != nil {
		return nil, coded(err)
	}
	out := &goport.Prepared{}
	if content != nil {
		if out.Content, err = jsjson.Marshal(p.Content); err != nil {
			return nil, err
		}
	}
	if m := p.Context; m != nil {
		cm := &goport.ContextMessage{ID: m.ID, Role: "user",
			Source:  goport.ContextSource{Kind: "session-reference", Form: "recall", Version: 1},
			Content: []goport.TextBlock{{Type: "text", Text: m.Text}}}
		for _, r := range m.Source.References {
			cm.Source.References = append(cm.Source.References, goport.SourceReference{
				SessionID: r.SessionID, Label: r.Label, CapturedThroughSeq: some(r.CapturedThroughSeq),
				Compacted: r.Compacted, OriginalMessages: r.OriginalMessages, RetainedMessages: r.RetainedMessages,
				OmittedMessages: r.OmittedMessages, OmittedBytes: r.OmittedBytes, Truncated: r.Truncated, InputIndex: r.InputIndex})
		}
		out.Context = cm
	}
	return out, nil
}

// coded carries the reference's contract code over to the Go API's.
func coded(err error) error {
	if err == nil {
		return nil
	}
	var e *errcode.Error
	if errors.As(err, &e) {
		return &goport.Error{Code: goport.Code(e.Code), Message: e.Message, Err: err}
	}
	return err
}

// querier is the Go API's session store as the reference's session-query service, which
// the port's logic reads.
type querier struct{ s goport.SessionStore }

func header(h goport.SessionHeader) sessionquery.Header {
	return sessionquery.Header{ID: h.ID, CWD: optional(h.CWD), CreatedAt: h.CreatedAt}
}

func (q querier) ListSessions(ctx context.Context) ([]sessionquery.Record, error) {
	rs, err := q.s.ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]sessionquery.Record, len(rs))
	for i, r := range rs {
		out[i] = sessionquery.Record{Header: header(r.Header), Live: r.Live, Persisted: r.Persisted}
	}
	return out, nil
}

func (q querier) ReadTitleSnapshots(ctx context.Context, ids []string) ([]sessionquery.TitleSettlement, error) {
	ts, err := q.s.ReadTitleSnapshots(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]sessionquery.TitleSettlement, len(ts))
	for i, t := range ts {
		out[i] = sessionquery.TitleSettlement{SessionID: t.SessionID, Err: t.Err, Session: header(t.Session), Title: optional(t.Title)}
	}
	return out, nil
}

func (q querier) ReadSurface(ctx context.Context, id string) (sessionquery.Surface, error) {
	s, err := q.s.ReadSurface(ctx, id)
	if err != nil {
		return sessionquery.Surface{}, err
	}
	out := sessionquery.Surface{Session: header(s.Session), CapturedThroughSeq: optional(s.CapturedThroughSeq), Events: make([]any, len(s.Events))}
	for i, e := range s.Events {
		out.Events[i] = eventValue(e)
	}
	return out, nil
}

// eventValue is a typed event as the JSON value the port's projection reads.
func eventValue(e goport.Event) any {
	o := jsjson.NewObject().Set("type", e.Type).Set("seq", e.Seq)
	if e.Message == nil {
		return o
	}
	m := jsjson.NewObject()
	if e.Message.ID != "" {
		m.Set("id", e.Message.ID)
	}
	if e.Message.Role != "" {
		m.Set("role", e.Message.Role)
	}
	blocks := make([]any, len(e.Message.Content))
	for i, b := range e.Message.Content {
		bo := jsjson.NewObject().Set("type", b.Type)
		if t, ok := b.Text.Get(); ok {
			bo.Set("text", t)
		}
		blocks[i] = bo
	}
	m.Set("content", blocks)
	if src := e.Message.Source; src != nil {
		so := jsjson.NewObject().Set("kind", src.Kind)
		if src.Plugin != "" {
			so.Set("plugin", src.Plugin)
		}
		if src.CompactionID != "" {
			so.Set("compactionId", src.CompactionID)
		}
		m.Set("source", so)
	}
	if e.Type == "user/message" {
		return o.Set("data", m)
	}
	return o.Set("data", jsjson.NewObject().Set("message", m))
}
