package conformancetest

import (
	"context"
	"errors"
	"fmt"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// bridge answers the protocol with a Port: it reads each request into the port's Go types,
// calls the port and writes its answer, so a Go port needs no protocol adapter. A request
// the types cannot hold is answered ADAPTER_UNSUPPORTED with what could not be expressed,
// and the last such reason is kept for the report (see takeReason).
type bridge struct {
	port    goport.Port
	profile string
	lone    bool        // the port declared goport.FeatureLoneSurrogates
	host    goport.Host // set when the port declared goport.FeatureHost

	mu     sync.Mutex
	reason string         // why the last ADAPTER_UNSUPPORTED was answered
	worlds map[string]any // world.define's documents, by key (feature world-cache)
}

// inexpressible is a request Go's types cannot carry.
type inexpressible struct{ what string }

func (e *inexpressible) Error() string { return "not expressible in the Go API: " + e.what }

func cannot(format string, args ...any) error {
	return &inexpressible{what: fmt.Sprintf(format, args...)}
}

// isInexpressible reports whether err says the Go types cannot carry the request.
func isInexpressible(err error) bool {
	var ie *inexpressible
	return errors.As(err, &ie)
}

// valueArg is an argument as a goport.Value: its JSON text, nil when absent.
func (r reader) valueArg(key string) (goport.Value, error) {
	v, ok := r.req.Arg(key)
	if !ok {
		return nil, nil
	}
	raw, err := wire.Marshal(v)
	if err != nil {
		return nil, cannot("%s: %v", key, err)
	}
	return raw, nil
}

// protocolError is an adapter-level error: a malformed world or agent (ADAPTER_PROTOCOL).
func protocolError(format string, args ...any) error {
	return &protocol.Error{Code: protocol.CodeProtocol, Message: fmt.Sprintf(format, args...)}
}

// withExtra is a failure whose error object carries more keys (a failed prepare's reads).
type withExtra struct {
	err   error
	extra *wire.Object
}

func (e *withExtra) Error() string { return e.err.Error() }
func (e *withExtra) Unwrap() error { return e.err }

// Handle answers one request. A port method without an error result (EncodeURI,
// FormatMention, Config) says it is not implemented by panicking with an error wrapping
// errors.ErrUnsupported; any other panic is the runner's to report (an error of the check).
func (b *bridge) Handle(ctx context.Context, req protocol.Request) (resp protocol.Response) {
	defer func() {
		if r := recover(); r != nil {
			err, ok := r.(error)
			if !ok || !errors.Is(err, errors.ErrUnsupported) {
				panic(r)
			}
			resp = b.answer(req, err)
		}
	}()
	res, err := b.handle(ctx, req)
	return b.answer(req, err, res)
}

// answer is the response to req: res, or err.
func (b *bridge) answer(req protocol.Request, err error, res ...any) protocol.Response {
	if err == nil {
		return protocol.Response{ID: req.ID, OK: true, Result: res[0]}
	}
	e := &protocol.Error{Code: string(goport.CodeOf(err)), Message: err.Error()}
	if ge, ok := err.(*goport.Error); ok && ge.Message != "" {
		e.Message = ge.Message // its Error() leads with the code, which the response carries
	}
	var ie *inexpressible
	var pe *protocol.Error
	switch {
	case errors.As(err, &ie):
		e = &protocol.Error{Code: protocol.CodeUnsupported, Message: ie.Error()}
	case errors.Is(err, errors.ErrUnsupported):
		e = &protocol.Error{Code: protocol.CodeUnsupported, Message: "the port does not implement " + req.Op + ": " + err.Error()}
	case errors.As(err, &pe):
		e = pe
	}
	if e.Code == protocol.CodeUnsupported {
		b.mu.Lock()
		b.reason = e.Message
		b.mu.Unlock()
		return protocol.Response{ID: req.ID, Err: e}
	}
	var x *withExtra
	if errors.As(err, &x) {
		e.Extra = x.extra
	}
	return protocol.Response{ID: req.ID, Err: e}
}

// takeReason returns and forgets the reason of the last ADAPTER_UNSUPPORTED answer.
func (b *bridge) takeReason() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.reason
	b.reason = ""
	return r
}

func (b *bridge) handle(ctx context.Context, req protocol.Request) (any, error) {
	if req.Op == protocol.OpHello {
		if p, _ := req.Arg("protocol"); p != float64(protocol.Version) {
			return nil, protocolError("unsupported protocol version %v; the Go API speaks %d", p, protocol.Version)
		}
		features := []any{protocol.FeatureWorldCache}
		if b.lone {
			features = append(features, string(goport.FeatureLoneSurrogates))
		}
		if b.host != nil {
			features = append(features, protocol.FeatureHost)
		}
		name, version := "go-port", "unversioned"
		if id, ok := b.port.(goport.Identity); ok {
			name, version = id.Identity()
		}
		return wire.NewObject().Set("protocol", float64(protocol.Version)).Set("name", name).
			Set("version", version).Set("spec", b.profile).Set("language", "go").Set("features", features), nil
	}
	if req.Op == protocol.OpWorldDefine {
		return b.define(req)
	}
	if !b.lone && wire.HasLoneSurrogate(req.Args) {
		return nil, cannot("the request holds a lone surrogate, and the port does not declare goport.FeatureLoneSurrogates")
	}
	args := reader{req}
	switch req.Op {
	case protocol.OpURIEncode:
		id, err := args.str("sessionId")
		if vp, ok := b.port.(goport.ValuePort); ok && isInexpressible(err) {
			raw, err := args.valueArg("sessionId")
			if err != nil {
				return nil, err
			}
			return vp.EncodeURIValue(raw)
		}
		if err != nil {
			return nil, err
		}
		return b.port.EncodeURI(id), nil
	case protocol.OpURIDecode:
		u, err := args.str("uri")
		if vp, ok := b.port.(goport.ValuePort); ok && isInexpressible(err) {
			raw, err := args.valueArg("uri")
			if err != nil {
				return nil, err
			}
			return vp.DecodeURIValue(raw)
		}
		if err != nil {
			return nil, err
		}
		return b.port.DecodeURI(u)
	case protocol.OpMentionFormat:
		ref, err := args.reference()
		if vp, ok := b.port.(goport.ValuePort); ok && isInexpressible(err) {
			id, err := args.valueArg("sessionId")
			if err != nil {
				return nil, err
			}
			label, err := args.valueArg("label")
			if err != nil {
				return nil, err
			}
			return vp.FormatMentionValue(id, label)
		}
		if err != nil {
			return nil, err
		}
		return b.port.FormatMention(ref), nil
	case protocol.OpMentionParse:
		text, err := args.str("text")
		var p goport.ParsedText
		if vp, ok := b.port.(goport.ValuePort); ok && isInexpressible(err) {
			raw, err := args.valueArg("text")
			if err != nil {
				return nil, err
			}
			p, err = vp.ParseMentionsValue(raw)
			if err != nil {
				return nil, err
			}
		} else if err != nil {
			return nil, err
		} else if p, err = b.port.ParseMentions(text); err != nil {
			return nil, err
		}
		refs := make([]any, len(p.References))
		for i, r := range p.References {
			refs[i] = wire.NewObject().Set("sessionId", r.SessionID).Set("label", r.Label)
		}
		return wire.NewObject().Set("text", p.Text).Set("references", refs), nil
	case protocol.OpConfig:
		svc, err := b.newService(emptyStore{}, args)
		if err != nil {
			return nil, err
		}
		return configValue(svc.Config()), nil
	case protocol.OpCandidates:
		return b.candidates(ctx, args)
	case protocol.OpPrepare:
		return b.prepare(ctx, args)
	case protocol.OpHostSend:
		if b.host == nil {
			return nil, cannot("host.send: the port does not declare goport.FeatureHost")
		}
		return b.hostSend(ctx, args)
	}
	return nil, &protocol.Error{Code: protocol.CodeUnsupported, Message: "the Go API has no op " + wire.Quote(req.Op)}
}

// reader reads a request's arguments into Go types.
type reader struct{ req protocol.Request }

func (r reader) str(key string) (string, error) {
	v, ok := r.req.Arg(key)
	if !ok {
		return "", cannot("%s is absent", key)
	}
	s, isString := v.(string)
	if !isString {
		return "", cannot("%s is %s, not a string", key, kind(v))
	}
	return s, nil
}

// reference reads mention.format's arguments: a string sessionId and an optional string
// label (null is no label).
func (r reader) reference() (goport.Reference, error) {
	id, err := r.str("sessionId")
	if err != nil {
		return goport.Reference{}, err
	}
	ref := goport.Reference{SessionID: id}
	if v, ok := r.req.Arg("label"); ok && v != nil {
		l, isString := v.(string)
		if !isString {
			return goport.Reference{}, cannot("label is %s, not a string", kind(v))
		}
		ref.Label = goport.Some(l)
	}
	return ref, nil
}

// newService constructs the port's service over store with the request's config: through
// NewService, or NewServiceValue for a config Config cannot hold (goport.ValuePort).
func (b *bridge) newService(store goport.SessionStore, r reader) (goport.Service, error) {
	cfg, err := r.config()
	if vp, ok := b.port.(goport.ValuePort); ok && isInexpressible(err) {
		raw, err := r.valueArg("config")
		if err != nil {
			return nil, err
		}
		return vp.NewServiceValue(store, raw)
	}
	if err != nil {
		return nil, err
	}
	return b.port.NewService(store, cfg)
}

// number reads an optional number argument; present, it must be a number (null included
// only when nullIsUnset, as for the keys of a config).
func number(v any, present, nullIsUnset bool, what string) (goport.Optional[goport.Int], error) {
	if !present || (v == nil && nullIsUnset) {
		return goport.Optional[goport.Int]{}, nil
	}
	f, ok := v.(float64)
	if !ok {
		return goport.Optional[goport.Int]{}, cannot("%s is %s, not a number", what, kind(v))
	}
	return goport.Some(goport.IntOf(f)), nil
}

// config reads the config argument: absent is every default, null is not expressible (the
// seed throws a TypeError reading it), a value that is not an object has none of the keys.
func (r reader) config() (goport.Config, error) {
	v, present := r.req.Arg("config")
	if present && v == nil {
		return goport.Config{}, cannot("config is null")
	}
	o, _ := v.(*wire.Object)
	var c goport.Config
	for _, f := range []struct {
		key string
		dst *goport.Optional[goport.Int]
	}{{"maxReferences", &c.MaxReferences}, {"candidateLimit", &c.CandidateLimit}, {"maxReferenceBytes", &c.MaxReferenceBytes}} {
		x, ok := o.Get(f.key)
		n, err := number(x, ok, true, "config."+f.key)
		if err != nil {
			return goport.Config{}, err
		}
		*f.dst = n
	}
	return c, nil
}

func (r reader) agent() (goport.Agent, error) {
	av, _ := r.req.Arg("agent")
	a, err := protocol.AgentFromValue(av)
	if err != nil {
		return goport.Agent{}, protocolError("%v", err)
	}
	out := goport.Agent{ID: a.ID}
	if a.CWD != nil {
		out.CWD = goport.Some(*a.CWD)
	}
	return out, nil
}

// references reads prepare's references: an array of {sessionId: string, label?: string}.
func (r reader) references() ([]goport.Reference, error) {
	v, ok := r.req.Arg("references")
	if !ok {
		return nil, cannot("references is absent")
	}
	list, ok := v.([]any)
	if !ok {
		return nil, cannot("references is %s, not an array", kind(v))
	}
	refs := make([]goport.Reference, 0, len(list))
	for i, e := range list {
		o, ok := e.(*wire.Object)
		if !ok {
			return nil, cannot("references[%d] is %s, not an object", i, kind(e))
		}
		idv, _ := o.Get("sessionId")
		id, ok := idv.(string)
		if !ok {
			return nil, cannot("references[%d].sessionId is %s, not a string", i, kind(idv))
		}
		ref := goport.Reference{SessionID: id}
		if lv, ok := o.Get("label"); ok {
			l, isString := lv.(string)
			if !isString {
				return nil, cannot("references[%d].label is %s, not a string", i, kind(lv))
			}
			ref.Label = goport.Some(l)
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// call is a candidates or prepare request made ready: the port's service over a store of
// the request's world, the agent and the signal.
type call struct {
	svc    goport.Service
	world  *world
	agent  goport.Agent
	ctx    context.Context
	cancel context.CancelFunc
	mode   any // the cancel argument
}

func (b *bridge) open(ctx context.Context, r reader) (*call, error) {
	wv, ok := r.req.Arg("world")
	if !ok {
		return nil, protocolError("world is missing")
	}
	wv, err := b.resolve(wv)
	if err != nil {
		return nil, err
	}
	w, err := newWorld(wv)
	if err != nil {
		return nil, err
	}
	agent, err := r.agent()
	if err != nil {
		return nil, err
	}
	if _, err := r.config(); err != nil && !isInexpressible(err) {
		return nil, err
	}
	mode, _ := r.req.Arg("cancel")
	switch mode {
	case nil, protocol.CancelBefore, protocol.CancelDuringRead, protocol.CancelAtCall, protocol.CancelNever:
	default:
		return nil, &protocol.Error{Code: protocol.CodeUnsupported, Message: fmt.Sprintf("unsupported cancel mode %v", mode)}
	}
	svc, err := b.newService(w, r)
	if err != nil {
		return nil, err
	}
	if svc == nil {
		return nil, errors.New("conformancetest: NewService returned a nil goport.Service and no error")
	}
	cctx, cancel := context.WithCancel(ctx)
	if mode == protocol.CancelBefore {
		cancel()
	}
	return &call{svc: svc, world: w, agent: agent, ctx: cctx, cancel: cancel, mode: mode}, nil
}

func (b *bridge) candidates(ctx context.Context, r reader) (any, error) {
	// Arguments the Go types cannot hold go to the service's ListCandidatesValue, when it
	// has one (goport.ValueService): the service is made first, as the seed makes it.
	query, limit, typed := r.queryLimit()
	if typed != nil && !isInexpressible(typed) {
		return nil, typed
	}
	c, err := b.open(ctx, r)
	if err != nil {
		return nil, err
	}
	defer c.cancel()
	defer c.world.calls.Release() // after the port has returned: a held call pends until then
	var vs goport.ValueService
	if typed != nil {
		if vs, _ = c.svc.(goport.ValueService); vs == nil {
			return nil, typed
		}
	}
	c.world.calls.ArmList(c.mode, c.cancel)
	var cands []goport.Candidate
	if vs != nil {
		var rawQuery, rawLimit goport.Value
		if rawQuery, err = r.valueArg("query"); err == nil {
			rawLimit, err = r.valueArg("limit")
		}
		if err != nil {
			return nil, err
		}
		cands, err = vs.ListCandidatesValue(c.ctx, c.agent, rawQuery, rawLimit)
	} else {
		cands, err = c.svc.ListCandidates(c.ctx, c.agent, query, limit)
	}
	if why := c.world.inexpressible(); why != "" {
		return nil, cannot("%s", why)
	}
	if err != nil {
		return nil, &withExtra{err: err, extra: wire.NewObject().Set("lists", float64(c.world.calls.Lists()))}
	}
	list := make([]any, len(cands))
	for i, cd := range cands {
		o := wire.NewObject().Set("sessionId", cd.SessionID).Set("label", cd.Label)
		if cwd, ok := cd.CWD.Get(); ok {
			o.Set("cwd", cwd)
		}
		list[i] = o.Set("createdAt", cd.CreatedAt)
	}
	return wire.NewObject().Set("candidates", list).Set("titleReads", anyStrings(c.world.calls.TitleReads())), nil
}

// queryLimit reads candidates' query (absent is "") and limit.
func (r reader) queryLimit() (string, goport.Optional[goport.Int], error) {
	query := ""
	if v, ok := r.req.Arg("query"); ok {
		s, isString := v.(string)
		if !isString {
			return "", goport.Optional[goport.Int]{}, cannot("query is %s, not a string", kind(v))
		}
		query = s
	}
	lv, ok := r.req.Arg("limit")
	limit, err := number(lv, ok, false, "limit")
	return query, limit, err
}

func (b *bridge) prepare(ctx context.Context, r reader) (any, error) {
	noReads := func(err error) error {
		return &withExtra{err: err, extra: wire.NewObject().Set("reads", []any{})}
	}
	// References the Go types cannot hold go to the service's PrepareValue, when it has one
	// (goport.ValueService): the service is made first, as the seed makes it.
	refs, typed := r.references()
	if typed != nil && !isInexpressible(typed) {
		return nil, typed
	}
	var err error
	content, hasContent := r.req.Arg("content")
	var raw goport.Content
	if hasContent {
		if raw, err = wire.Marshal(content); err != nil {
			return nil, cannot("content: %v", err)
		}
	}
	c, err := b.open(ctx, r)
	if err != nil {
		return nil, noReads(err)
	}
	defer c.cancel()
	var vs goport.ValueService
	if typed != nil {
		if vs, _ = c.svc.(goport.ValueService); vs == nil {
			return nil, typed
		}
	}
	// The distinct sources in first-mention order: the reads a valid preparation starts, and
	// the order the reads are reported in (a port may start them concurrently).
	var order []string
	for _, ref := range refs {
		if ref.SessionID == c.agent.ID {
			order = nil
			break
		}
		if !slices.Contains(order, ref.SessionID) {
			order = append(order, ref.SessionID)
		}
	}
	if len(order) > c.svc.Config().MaxReferences {
		order = nil
	}
	c.world.calls.ArmReads(c.mode, c.cancel, order)
	var p *goport.Prepared
	if vs != nil {
		// References []Reference cannot hold are not valid: a preparation of them reads
		// nothing (order is empty).
		var rawRefs goport.Value
		if rawRefs, err = r.valueArg("references"); err != nil {
			return nil, err
		}
		p, err = vs.PrepareValue(c.ctx, c.agent, raw, rawRefs)
	} else {
		p, err = c.svc.Prepare(c.ctx, c.agent, raw, refs)
	}
	c.world.calls.Release() // the port has returned: a call it left held pends no longer
	// Every read a port starts concurrently reaches the store before the answer is written;
	// an already-aborted call starts none.
	started := len(order)
	if c.mode == protocol.CancelBefore {
		started = 0
	}
	reads := c.world.calls.WaitReads(started, time.Second)
	slices.SortStableFunc(reads, func(a, b string) int { return position(order, a) - position(order, b) })
	if why := c.world.inexpressible(); why != "" {
		return nil, cannot("%s", why)
	}
	if err != nil {
		return nil, &withExtra{err: err, extra: wire.NewObject().Set("reads", anyStrings(reads))}
	}
	if p == nil {
		return nil, errors.New("conformancetest: Prepare returned a nil *goport.Prepared and no error")
	}
	out := wire.NewObject()
	if hasContent {
		v, err := wire.Parse(string(p.Content))
		if err != nil {
			return nil, fmt.Errorf("conformancetest: the prepared content is not JSON: %v", err)
		}
		out.Set("content", v)
	}
	if p.Context == nil {
		out.Set("additionalContext", nil)
	} else {
		out.Set("additionalContext", messageValue(p.Context))
	}
	return out.Set("reads", anyStrings(reads)), nil
}

func position(order []string, id string) int {
	if i := slices.Index(order, id); i >= 0 {
		return i
	}
	return len(order)
}

// messageValue is the context message as the protocol carries it: without its id.
func messageValue(m *goport.ContextMessage) *wire.Object {
	refs := make([]any, len(m.Source.References))
	for i, r := range m.Source.References {
		o := wire.NewObject().Set("sessionId", r.SessionID).Set("label", r.Label)
		if seq, ok := r.CapturedThroughSeq.Get(); ok {
			o.Set("capturedThroughSeq", seq)
		} else {
			o.Set("capturedThroughSeq", nil)
		}
		refs[i] = o.Set("compacted", r.Compacted).
			Set("originalMessages", float64(r.OriginalMessages)).
			Set("retainedMessages", float64(r.RetainedMessages)).
			Set("omittedMessages", float64(r.OmittedMessages)).
			Set("omittedBytes", float64(r.OmittedBytes)).
			Set("truncated", r.Truncated).
			Set("inputIndex", float64(r.InputIndex))
	}
	src := wire.NewObject().Set("kind", m.Source.Kind).Set("form", m.Source.Form).
		Set("version", float64(m.Source.Version)).Set("references", refs)
	blocks := make([]any, len(m.Content))
	for i, bl := range m.Content {
		blocks[i] = wire.NewObject().Set("type", bl.Type).Set("text", bl.Text)
	}
	return wire.NewObject().Set("source", src).Set("content", blocks).Set("role", m.Role)
}

func configValue(c goport.EffectiveConfig) *wire.Object {
	return wire.NewObject().Set("maxReferences", float64(c.MaxReferences)).
		Set("candidateLimit", float64(c.CandidateLimit)).
		Set("maxReferenceBytes", float64(c.MaxReferenceBytes))
}

func anyStrings(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// kind names a JSON value's JavaScript type for a reason.
func kind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		if math.IsNaN(x) {
			return "NaN"
		}
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case *wire.Object:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
