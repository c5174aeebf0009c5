package refadapter

import (
	"context"
	"fmt"
	"math"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// Implementation is the kit's former Go interface to a session-reference implementation,
// kept for the mutants of conformance/mutants, which are written against it. Strings are JavaScript strings as WTF-8 (package jsstring). A failure
// carries its contract code as an *errcode.Error; any other error is a null code.
//
// Typed Go cannot express every argument the protocol can (a label of the wrong JavaScript
// type, a reference that is not an object …): Typed answers such requests
// ADAPTER_UNSUPPORTED, so the checks that need them are reported not covered, never passed.
//
// Deprecated: a Go port implements goport.Port, in kit-owned types that need
// nothing of the reference, and calls conformancetest.TestPort.
type Implementation interface {
	EncodeURI(sessionID string) string
	DecodeURI(uri string) (string, error)
	// FormatMention formats a mention; a reference without a label is given its id as label.
	FormatMention(sessionID, label string) string
	ParseMentions(text string) (mention.Parsed, error)
	// NewService builds a service over q. In cfg a zero field means the default and a
	// negative one stands for any value JavaScript rejects (0, a fraction, a string …).
	NewService(q sessionquery.Querier, cfg service.Config) (Service, error)
}

// Service is the session-reference service of an Implementation.
//
// Deprecated: see Implementation; goport.Service replaces it.
type Service interface {
	Config() service.Config
	// ListCandidates lists candidates; limit 0 means the configured limit and a negative
	// limit stands for any value JavaScript rejects.
	ListCandidates(ctx context.Context, agent service.Agent, query string, limit int) ([]service.Candidate, error)
	Prepare(ctx context.Context, agent service.Agent, content any, refs []service.Input) (*service.Prepared, error)
}

// ReferenceImplementation is the embedded reference behind the Implementation interface.
//
// Deprecated: see Implementation.
type ReferenceImplementation struct{}

// EncodeURI is uri.Encode.
func (ReferenceImplementation) EncodeURI(id string) string { return uri.Encode(id) }

// DecodeURI is uri.Decode.
func (ReferenceImplementation) DecodeURI(u string) (string, error) { return uri.Decode(u) }

// FormatMention is mention.Format.
func (ReferenceImplementation) FormatMention(id, label string) string {
	return mention.Format(id, label)
}

// ParseMentions is mention.Parse.
func (ReferenceImplementation) ParseMentions(text string) (mention.Parsed, error) {
	return mention.Parse(text)
}

// NewService is service.New.
func (ReferenceImplementation) NewService(q sessionquery.Querier, cfg service.Config) (Service, error) {
	return service.New(q, cfg)
}

// Typed answers the protocol with an Implementation. It builds each request's session query
// from the world document (with the protocol's cancel modes) as the reference adapter does.
//
// Deprecated: see Implementation; conformancetest.TestPort serves a goport.Port.
type Typed struct {
	Impl Implementation
	// Profile is the contract release certified; empty means protocol.Spec.
	Profile string
	worlds  Reference // world.define storage and world parsing
}

func unsupportedf(format string, args ...any) error {
	return &protocol.Error{Code: protocol.CodeUnsupported, Message: "not expressible through the Go interface: " + fmt.Sprintf(format, args...)}
}

// Handle answers one request.
func (a *Typed) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	res, err := a.handle(ctx, newRequest(req))
	if err != nil {
		return errorResponse(req.ID, err)
	}
	return protocol.Response{ID: req.ID, OK: true, Result: FromReference(res)}
}

func (a *Typed) handle(ctx context.Context, req request) (any, error) {
	str := func(key string) (string, error) {
		v, _ := req.Arg(key)
		s, ok := v.(string)
		if !ok {
			return "", unsupportedf("%s is not a string", key)
		}
		return s, nil
	}
	switch req.Op {
	case protocol.OpHello:
		if p, _ := req.Arg("protocol"); p != float64(protocol.Version) {
			return nil, badRequest("unsupported protocol version %v", p)
		}
		spec := a.Profile
		if spec == "" {
			spec = protocol.Spec
		}
		return jsjson.NewObject().Set("protocol", float64(protocol.Version)).Set("name", "go-implementation").
			Set("version", adapter.KitVersion).Set("spec", spec).
			Set("features", []any{protocol.FeatureLoneSurrogates, protocol.FeatureWorldCache}), nil
	case protocol.OpWorldDefine:
		return a.worlds.defineWorld(req)
	case protocol.OpURIEncode:
		id, err := str("sessionId")
		if err != nil {
			return nil, err
		}
		return a.Impl.EncodeURI(id), nil
	case protocol.OpURIDecode:
		u, err := str("uri")
		if err != nil {
			return nil, err
		}
		return a.Impl.DecodeURI(u)
	case protocol.OpMentionFormat:
		id, err := str("sessionId")
		if err != nil {
			return nil, err
		}
		label := id
		if v, ok := req.Arg("label"); ok && v != nil {
			if label, err = str("label"); err != nil {
				return nil, err
			}
		}
		return a.Impl.FormatMention(id, label), nil
	case protocol.OpMentionParse:
		text, err := str("text")
		if err != nil {
			return nil, err
		}
		p, err := a.Impl.ParseMentions(text)
		if err != nil {
			return nil, err
		}
		refs := make([]any, len(p.References))
		for i, r := range p.References {
			refs[i] = jsjson.NewObject().Set("sessionId", r.SessionID).Set("label", r.Label)
		}
		return jsjson.NewObject().Set("text", p.Text).Set("references", refs), nil
	case protocol.OpConfig:
		cfg, err := typedConfig(req)
		if err != nil {
			return nil, err
		}
		svc, err := a.Impl.NewService(&sessionquerytest.World{}, cfg)
		if err != nil {
			return nil, err
		}
		return svc.Config().Value(), nil
	case protocol.OpCandidates:
		return a.candidates(ctx, req)
	case protocol.OpPrepare:
		return a.prepare(ctx, req)
	}
	return nil, &protocol.Error{Code: protocol.CodeUnsupported, Message: fmt.Sprintf("unsupported op %s", jsjson.Quote(req.Op))}
}

// typedInt maps a JavaScript number argument to the Go interface's int: a positive safe
// integer as itself, anything JavaScript rejects (0, negative, fraction, too large, not a
// number, null) as -1.
func typedInt(v any) int {
	f, ok := v.(float64)
	if !ok || f <= 0 || f != math.Trunc(f) || f > service.MaxSafeInteger {
		return -1
	}
	return int(f)
}

func typedConfig(req request) (service.Config, error) {
	v, present := req.Arg("config")
	if present && v == nil {
		return service.Config{}, unsupportedf("config is null")
	}
	o, _ := v.(*jsjson.Object) // a non-object config has no keys: every default
	var c service.Config
	for _, f := range []struct {
		key string
		dst *int
	}{{"maxReferences", &c.MaxReferences}, {"candidateLimit", &c.CandidateLimit}, {"maxReferenceBytes", &c.MaxReferenceBytes}} {
		if x, _ := o.Get(f.key); x != nil {
			*f.dst = typedInt(x)
		}
	}
	return c, nil
}

// open builds the world, the agent, the service and the context of a candidates or prepare
// request.
func (a *Typed) open(ctx context.Context, req request) (Service, *Query, service.Agent, context.Context, context.CancelFunc, error) {
	fail := func(err error) (Service, *Query, service.Agent, context.Context, context.CancelFunc, error) {
		return nil, nil, service.Agent{}, nil, nil, err
	}
	wv, ok := req.wireArg("world")
	if !ok {
		return fail(badRequest("world is missing"))
	}
	world, err := a.worlds.world(wv)
	if err != nil {
		return fail(err)
	}
	agent, err := agentFromValue(req)
	if err != nil {
		return fail(err)
	}
	cfg, err := typedConfig(req)
	if err != nil {
		return fail(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	switch c, _ := req.Arg("cancel"); c {
	case nil, protocol.CancelDuringRead, protocol.CancelAtCall, protocol.CancelNever:
	case protocol.CancelBefore:
		cancel()
	default:
		cancel()
		return fail(&protocol.Error{Code: protocol.CodeUnsupported, Message: fmt.Sprintf("unsupported cancel mode %v", c)})
	}
	q := NewQuery(world)
	svc, err := a.Impl.NewService(q, cfg)
	if err != nil {
		cancel()
		return fail(err)
	}
	return svc, q, agent, cctx, cancel, nil
}

func (a *Typed) candidates(ctx context.Context, req request) (any, error) {
	query, limit := "", 0
	if v, ok := req.Arg("query"); ok {
		s, isString := v.(string)
		if !isString {
			return nil, unsupportedf("query is not a string")
		}
		query = s
	}
	if v, ok := req.Arg("limit"); ok {
		limit = typedInt(v)
	}
	svc, q, agent, cctx, cancel, err := a.open(ctx, req)
	if err != nil {
		return nil, err
	}
	defer cancel()
	q.ArmList(cancelMode(req), cancel)
	cands, err := svc.ListCandidates(cctx, agent, query, limit)
	return candidatesAnswer(q, cands, err)
}

// typedRefs maps the references argument to []service.Input when Go can express it.
func typedRefs(req request) ([]service.Input, error) {
	v, _ := req.Arg("references")
	list, ok := v.([]any)
	if !ok {
		return nil, unsupportedf("references is not an array")
	}
	refs := make([]service.Input, 0, len(list))
	for _, e := range list {
		o, ok := e.(*jsjson.Object)
		if !ok {
			return nil, unsupportedf("a reference is not an object")
		}
		idv, _ := o.Get("sessionId")
		id, ok := idv.(string)
		if !ok {
			return nil, unsupportedf("a reference's sessionId is not a string")
		}
		in := service.Input{SessionID: id}
		if lv, ok := o.Get("label"); ok {
			l, isString := lv.(string)
			if !isString {
				return nil, unsupportedf("a reference's label is not a string")
			}
			in.Label = &l
		}
		refs = append(refs, in)
	}
	return refs, nil
}

func (a *Typed) prepare(ctx context.Context, req request) (any, error) {
	noReads := func(err error) error { return &failure{err: err, extra: jsjson.NewObject().Set("reads", []any{})} }
	refs, err := typedRefs(req)
	if err != nil {
		return nil, noReads(err)
	}
	svc, q, agent, cctx, cancel, err := a.open(ctx, req)
	if err != nil {
		return nil, noReads(err)
	}
	defer cancel()
	// The distinct ids in first-mention order: the reads a valid preparation starts (none
	// when the references are invalid).
	order, _ := service.NormalizeReferences(agent.ID, refs, svc.Config().MaxReferences)
	q.ArmReads(cancelMode(req), cancel, sessionIDs(order))
	content, _ := req.Arg("content")
	p, err := svc.Prepare(cctx, agent, content, refs)
	return prepareAnswer(req, q, order, p, err)
}
