// Package refport is the embedded reference behind goport.Port: a Go port made of
// the reference's packages, as a port author would write it over a library with other types.
// Its certification through the Go API must agree with the reference's own over the wire
// (conformancetest's TestReferencePortAgrees); everything it converts is here, exported for
// the other ports written on the reference (the mutation suite's), so that both cross the Go
// API the same way.
package refport

import (
	"context"
	"errors"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// Port is the reference as a goport.Port, with lone surrogates.
type Port struct{}

// Features implements goport.Port.
func (Port) Features() []goport.Feature {
	return []goport.Feature{goport.FeatureLoneSurrogates}
}

// EncodeURI implements goport.Port.
func (Port) EncodeURI(id string) string { return uri.Encode(id) }

// DecodeURI implements goport.Port.
func (Port) DecodeURI(u string) (string, error) {
	id, err := uri.Decode(u)
	return id, Coded(err)
}

// FormatMention implements goport.Port.
func (Port) FormatMention(ref goport.Reference) string {
	return mention.Format(ref.SessionID, ref.Label.Or(ref.SessionID))
}

// ParseMentions implements goport.Port.
func (Port) ParseMentions(text string) (goport.ParsedText, error) {
	p, err := mention.Parse(text)
	if err != nil {
		return goport.ParsedText{}, Coded(err)
	}
	return ParsedText(p), nil
}

// ParsedText is a parse of the reference as the Go API's.
func ParsedText(p mention.Parsed) goport.ParsedText {
	out := goport.ParsedText{Text: p.Text, References: make([]goport.Mention, len(p.References))}
	for i, r := range p.References {
		out.References[i] = goport.Mention{SessionID: r.SessionID, Label: r.Label}
	}
	return out
}

// NewService implements goport.Port.
func (Port) NewService(store goport.SessionStore, cfg goport.Config) (goport.Service, error) {
	// The reference's typed Config takes 0 for "default"; its JavaScript form takes every
	// number as given, so an invalid one fails as the seed fails.
	o := jsjson.NewObject()
	for _, f := range []struct {
		key string
		v   goport.Optional[goport.Int]
	}{{"maxReferences", cfg.MaxReferences}, {"candidateLimit", cfg.CandidateLimit}, {"maxReferenceBytes", cfg.MaxReferenceBytes}} {
		if n, ok := f.v.Get(); ok {
			o.Set(f.key, n.Raw)
		}
	}
	svc, err := service.NewFromValue(ValueStore(store), jsjson.Given(o))
	if err != nil {
		return nil, Coded(err)
	}
	return srv{svc}, nil
}

// The escape hatch (goport.ValuePort, goport.ValueService): the requests whose arguments Go's
// types cannot hold go to the reference's JavaScript forms, as the wire's do.

// Arg is a goport.Value as the reference's JavaScript argument: nil is undefined.
func Arg(v goport.Value) (jsjson.Arg, error) {
	if v == nil {
		return jsjson.Arg{}, nil
	}
	x, err := jsjson.Parse(string(v))
	if err != nil {
		return jsjson.Arg{}, err
	}
	return jsjson.Given(x), nil
}

// EncodeURIValue implements goport.ValuePort.
func (Port) EncodeURIValue(id goport.Value) (string, error) {
	a, err := Arg(id)
	if err != nil {
		return "", err
	}
	u, err := uri.EncodeValue(a)
	return u, Coded(err)
}

// DecodeURIValue implements goport.ValuePort.
func (Port) DecodeURIValue(u goport.Value) (string, error) {
	a, err := Arg(u)
	if err != nil {
		return "", err
	}
	id, err := uri.DecodeValue(a)
	return id, Coded(err)
}

// FormatMentionValue implements goport.ValuePort.
func (Port) FormatMentionValue(id, label goport.Value) (string, error) {
	a, err := Arg(id)
	if err != nil {
		return "", err
	}
	l, err := Arg(label)
	if err != nil {
		return "", err
	}
	m, err := mention.FormatValue(a, l)
	return m, Coded(err)
}

// ParseMentionsValue implements goport.ValuePort.
func (Port) ParseMentionsValue(text goport.Value) (goport.ParsedText, error) {
	a, err := Arg(text)
	if err != nil {
		return goport.ParsedText{}, err
	}
	p, err := mention.ParseValue(a)
	if err != nil {
		return goport.ParsedText{}, Coded(err)
	}
	return ParsedText(p), nil
}

// NewServiceValue implements goport.ValuePort.
func (Port) NewServiceValue(store goport.SessionStore, cfg goport.Value) (goport.Service, error) {
	a, err := Arg(cfg)
	if err != nil {
		return nil, err
	}
	svc, err := service.NewFromValue(ValueStore(store), a)
	if err != nil {
		return nil, Coded(err)
	}
	return srv{svc}, nil
}

// ListCandidatesValue implements goport.ValueService.
func (s srv) ListCandidatesValue(ctx context.Context, a goport.Agent, query, limit goport.Value) ([]goport.Candidate, error) {
	q, err := Arg(query)
	if err != nil {
		return nil, err
	}
	l, err := Arg(limit)
	if err != nil {
		return nil, err
	}
	cs, err := s.s.ListCandidatesValue(ctx, Agent(a), q, l)
	if err != nil {
		return nil, Coded(err)
	}
	return Candidates(cs), nil
}

// PrepareValue implements goport.ValueService.
func (s srv) PrepareValue(ctx context.Context, a goport.Agent, content goport.Content, refs goport.Value) (*goport.Prepared, error) {
	c, err := Content(content)
	if err != nil {
		return nil, err
	}
	r, err := Arg(refs)
	if err != nil {
		return nil, err
	}
	// undefined and null are alike to the reference's JavaScript form: neither is iterable.
	p, err := s.s.PrepareValue(ctx, Agent(a), c, r.Value)
	if err != nil {
		return nil, Coded(err)
	}
	return Prepared(content, p)
}

type srv struct{ s *service.Service }

func (s srv) Config() goport.EffectiveConfig {
	c := s.s.Config()
	return goport.EffectiveConfig{MaxReferences: c.MaxReferences, CandidateLimit: c.CandidateLimit, MaxReferenceBytes: c.MaxReferenceBytes}
}

// Agent is the Go API's agent as the reference's.
func Agent(a goport.Agent) service.Agent {
	out := service.Agent{ID: a.ID}
	if c, ok := a.CWD.Get(); ok {
		out.CWD = &c
	}
	return out
}

func optional[T any](o goport.Optional[T]) *T {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}

func (s srv) ListCandidates(ctx context.Context, a goport.Agent, query string, limit goport.Optional[goport.Int]) ([]goport.Candidate, error) {
	lim := jsjson.Arg{}
	if n, ok := limit.Get(); ok {
		lim = jsjson.Given(n.Raw)
	}
	cs, err := s.s.ListCandidatesValue(ctx, Agent(a), jsjson.Given(query), lim)
	if err != nil {
		return nil, Coded(err)
	}
	return Candidates(cs), nil
}

// Candidates are the reference's candidates as the Go API's.
func Candidates(cs []service.Candidate) []goport.Candidate {
	out := make([]goport.Candidate, len(cs))
	for i, c := range cs {
		out[i] = goport.Candidate{SessionID: c.SessionID, Label: c.Label, CWD: some(c.CWD), CreatedAt: c.CreatedAt}
	}
	return out
}

func (s srv) Prepare(ctx context.Context, a goport.Agent, content goport.Content, refs []goport.Reference) (*goport.Prepared, error) {
	c, err := Content(content)
	if err != nil {
		return nil, err
	}
	p, err := s.s.Prepare(ctx, Agent(a), c, Inputs(refs))
	if err != nil {
		return nil, Coded(err)
	}
	return Prepared(content, p)
}

// Content is the Go API's content (JSON text, nil when absent) as the JavaScript value the
// reference takes.
func Content(content goport.Content) (any, error) {
	if content == nil {
		return nil, nil
	}
	return jsjson.Parse(string(content))
}

// Inputs are the Go API's references as the reference's inputs.
func Inputs(refs []goport.Reference) []service.Input {
	in := make([]service.Input, len(refs))
	for i, r := range refs {
		in[i] = service.Input{SessionID: r.SessionID, Label: optional(r.Label)}
	}
	return in
}

// Prepared is the reference's preparation as the Go API's; content is the request's (the
// content comes back only when one was given).
func Prepared(content goport.Content, p *service.Prepared) (*goport.Prepared, error) {
	out := &goport.Prepared{}
	if content != nil {
		var err error
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

func some[T any](p *T) goport.Optional[T] {
	if p == nil {
		return goport.Optional[T]{}
	}
	return goport.Some(*p)
}

// Coded carries the reference's contract code over to the Go API's.
func Coded(err error) error {
	if err == nil {
		return nil
	}
	var e *errcode.Error
	if errors.As(err, &e) {
		return &goport.Error{Code: goport.Code(e.Code), Message: e.Message, Err: err}
	}
	return err
}

// Store is the Go API's session store as the reference's session-query service, its
// surfaces read through the typed ReadSurface.
func Store(s goport.SessionStore) sessionquery.Querier { return querier{s: s} }

// ValueStore is Store, its surfaces read through the store's ReadSurfaceValue when it has
// one (goport.ValueSurfaceReader, as the kit's has): events of any shape reach the
// reference's projection as they are.
func ValueStore(s goport.SessionStore) sessionquery.Querier {
	vs, _ := s.(goport.ValueSurfaceReader)
	return querier{s: s, values: vs}
}

type querier struct {
	s      goport.SessionStore
	values goport.ValueSurfaceReader
}

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
	if q.values != nil {
		s, err := q.values.ReadSurfaceValue(ctx, id)
		if err != nil {
			return sessionquery.Surface{}, err
		}
		out := sessionquery.Surface{Session: header(s.Session), CapturedThroughSeq: optional(s.CapturedThroughSeq), Events: make([]any, len(s.Events))}
		for i, e := range s.Events {
			if out.Events[i], err = jsjson.Parse(string(e)); err != nil {
				return sessionquery.Surface{}, err
			}
		}
		return out, nil
	}
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

// eventValue is a typed event as the JSON value the reference's projection reads.
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
