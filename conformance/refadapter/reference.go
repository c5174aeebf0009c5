// Package refadapter is the embedded reference behind the adapter protocol: Reference, a
// protocol Handler over reference/'s public API (with the protocol's world documents and
// cancel modes), and Calls, the session-query calls and cancel modes it shares with
// conformancetest's Go-port bridge. It is the wiring of the embedded default: the kit's
// harness packages reach the reference through it, as they reach any other implementation,
// through adapter.Handler.
package refadapter

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/host"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// Reference answers the protocol with the embedded Go reference implementation.
type Reference struct {
	// Profile is the contract release to behave as; the zero value is
	// protocol.DefaultProfile. protocol.Profile010 places the context message after the
	// direct one in host.send.
	Profile protocol.Profile

	// worlds holds the world.define cache: parsed templates, cloned per request. The mutex
	// guards it because the runner's in-process caller may leave a timed-out call running.
	mu     sync.Mutex
	worlds map[string]*sessionquerytest.World
}

// RawArg names the world: over stdio (adapter.Serve), a world comes as its text and is
// decoded once, into the reference's values, rather than into the kit's and then converted
// (adapter.RawArgHandler).
func (r *Reference) RawArg() string { return worldArg }

// Handle answers one request.
func (r *Reference) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	res, err := r.handle(ctx, newRequest(req))
	if err != nil {
		return errorResponse(req.ID, err)
	}
	return protocol.Response{ID: req.ID, OK: true, Result: FromReference(res)}
}

// failure is an error response with extra keys (a failed prepare's reads).
type failure struct {
	err   error
	extra *jsjson.Object
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

func errorResponse(id int64, err error) protocol.Response {
	e := &protocol.Error{Code: string(errcode.Of(err)), Message: err.Error()}
	var pe *protocol.Error
	if errors.As(err, &pe) {
		e = pe
	}
	var f *failure
	if errors.As(err, &f) {
		e.Extra, _ = FromReference(f.extra).(*wire.Object)
	}
	return protocol.Response{ID: id, Err: e}
}

func badRequest(format string, args ...any) error {
	return &protocol.Error{Code: protocol.CodeProtocol, Message: fmt.Sprintf(format, args...)}
}

func (r *Reference) spec() string { return string(r.Profile.Or()) }

func (r *Reference) handle(ctx context.Context, req request) (any, error) {
	arg := func(k string) jsjson.Arg {
		v, ok := req.Arg(k)
		return jsjson.Arg{Set: ok, Value: v}
	}
	switch req.Op {
	case protocol.OpHello:
		if p, _ := req.Arg("protocol"); p != float64(protocol.Version) {
			return nil, badRequest("unsupported protocol version %v; this adapter speaks %d", p, protocol.Version)
		}
		return jsjson.NewObject().Set("protocol", float64(protocol.Version)).
			Set("name", "sessionref-kit-reference").Set("version", adapter.KitVersion).
			Set("spec", r.spec()).Set("language", "go").
			Set("features", []any{protocol.FeatureLoneSurrogates, protocol.FeatureHost,
				protocol.FeatureWorldCache, protocol.FeaturePipelining}), nil

	case protocol.OpWorldDefine:
		return r.defineWorld(req)

	case protocol.OpURIEncode:
		return uri.EncodeValue(arg("sessionId"))

	case protocol.OpURIDecode:
		return uri.DecodeValue(arg("uri"))

	case protocol.OpMentionFormat:
		return mention.FormatValue(arg("sessionId"), arg("label"))

	case protocol.OpMentionParse:
		p, err := mention.ParseValue(arg("text"))
		if err != nil {
			return nil, err
		}
		return p.Value(), nil

	case protocol.OpConfig:
		c, err := service.ConfigFromValue(arg("config"))
		if err != nil {
			return nil, err
		}
		return c.Value(), nil

	case protocol.OpCandidates:
		return r.candidates(ctx, req, arg)

	case protocol.OpPrepare:
		return r.prepare(ctx, req, arg)

	case protocol.OpHostSend:
		return r.hostSend(ctx, req, arg)
	}
	return nil, &protocol.Error{Code: protocol.CodeUnsupported, Message: fmt.Sprintf("unsupported op %s", jsjson.Quote(req.Op))}
}

// defineWorld is world.define {key, world} → {key}: the world is checked and parsed once,
// and later requests naming it get a fresh copy (see world). Redefining a key replaces its
// world, so a client bounds the cache by reusing keys.
func (r *Reference) defineWorld(req request) (any, error) {
	kv, _ := req.Arg("key")
	key, ok := kv.(string)
	if !ok {
		return nil, badRequest("world.define: key is not a string")
	}
	wv, ok := req.wireArg(worldArg)
	if !ok {
		return nil, badRequest("world.define: world is missing")
	}
	arg, err := readWorldArg(wv)
	if err != nil {
		return nil, badRequest("world.define: %v", err)
	}
	if _, isRef, _ := protocol.WorldRefKey(arg.value); isRef {
		return nil, badRequest("world.define: world is a reference, not a document")
	}
	w, err := arg.world()
	if err != nil {
		return nil, badRequest("world.define: %v", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.worlds == nil {
		r.worlds = map[string]*sessionquerytest.World{}
	}
	r.worlds[key] = w
	return jsjson.NewObject().Set("key", key), nil
}

// world reads a request's world: a document, or {"$ref": key} naming a defined one. Every
// request gets its own World (and its own query, which records the calls), so the mutations
// host.send applies never leak into another request.
func (r *Reference) world(wv any) (*sessionquerytest.World, error) {
	arg, err := readWorldArg(wv)
	if err != nil {
		return nil, badRequest("world: %v", err)
	}
	key, isRef, err := protocol.WorldRefKey(arg.value)
	if err != nil {
		return nil, badRequest("world: %v", err)
	}
	if !isRef {
		w, err := arg.world()
		if err != nil {
			return nil, badRequest("%v", err)
		}
		return w, nil
	}
	r.mu.Lock()
	tmpl, ok := r.worlds[key]
	r.mu.Unlock()
	if !ok {
		return nil, badRequest("world: no world defined under %s (world.define it first; a restarted adapter has forgotten its worlds)", jsjson.Quote(key))
	}
	// Clone copies what a request may change: the session list (delete) and each surface
	// (compact replaces its events, append extends them). Events themselves are shared:
	// nothing writes into them, and append copies before it extends (see applyMutations).
	return tmpl.Clone(), nil
}

// setup reads world, agent and cancel, and returns the service, its session query and the
// context.
func (r *Reference) setup(ctx context.Context, req request, arg func(string) jsjson.Arg) (*service.Service, *Query, service.Agent, context.Context, context.CancelFunc, error) {
	wv, ok := req.wireArg(worldArg)
	if !ok {
		return nil, nil, service.Agent{}, nil, nil, badRequest("world is missing")
	}
	world, err := r.world(wv)
	if err != nil {
		return nil, nil, service.Agent{}, nil, nil, err
	}
	agent, err := agentFromValue(req)
	if err != nil {
		return nil, nil, service.Agent{}, nil, nil, err
	}
	q := NewQuery(world)
	// The reference's service starts all its reads before awaiting any (or awaits its one
	// call), and a read that succeeds cannot change the outcome of an aborted call: the held
	// read is aborted as soon as the others succeeded, without the grace a port's calls get,
	// and the answers are the same.
	q.hold.eager = true
	svc, err := service.NewFromValue(q, arg("config"))
	if err != nil {
		return nil, nil, service.Agent{}, nil, nil, err
	}
	cctx, cancel := context.WithCancel(ctx)
	switch c, _ := req.Arg("cancel"); c {
	case nil:
	case protocol.CancelBefore:
		cancel()
	case protocol.CancelNever:
		// A live context that nothing cancels: Go has no "no signal", so it is nil's twin.
	case protocol.CancelDuringRead, protocol.CancelAtCall:
		// Set up by the caller, which knows how many other calls to let settle first.
	default:
		cancel()
		return nil, nil, service.Agent{}, nil, nil, &protocol.Error{Code: protocol.CodeUnsupported, Message: fmt.Sprintf("unsupported cancel mode %v", c)}
	}
	return svc, q, agent, cctx, cancel, nil
}

func agentFromValue(req request) (service.Agent, error) {
	av, _ := req.wireArg("agent")
	a, err := protocol.AgentFromValue(av)
	if err != nil {
		return service.Agent{}, badRequest("%v", err)
	}
	return service.Agent{ID: a.ID, CWD: a.CWD}, nil
}

// cancelMode is the request's cancel mode (Query.ArmList, ArmReads), or nil.
func cancelMode(req request) any {
	c, _ := req.Arg("cancel")
	return c
}

// sessionIDs are the normalized sources' ids, in order.
func sessionIDs(order []service.Normalized) []string {
	ids := make([]string, len(order))
	for i, n := range order {
		ids[i] = n.SessionID
	}
	return ids
}

func (r *Reference) candidates(ctx context.Context, req request, arg func(string) jsjson.Arg) (any, error) {
	svc, q, agent, cctx, cancel, err := r.setup(ctx, req, arg)
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer q.Release() // after the service has returned: a held call pends until then
	q.ArmList(cancelMode(req), cancel)
	cands, err := svc.ListCandidatesValue(cctx, agent, arg("query"), arg("limit"))
	return candidatesAnswer(q, cands, err)
}

// candidatesAnswer builds a candidates response: the candidates and the title reads, or the
// error with the listings made.
func candidatesAnswer(q *Query, cands []service.Candidate, err error) (any, error) {
	if err != nil {
		return nil, &failure{err: err, extra: jsjson.NewObject().Set("lists", float64(q.Lists()))}
	}
	list := make([]any, len(cands))
	for i, c := range cands {
		list[i] = c.Value()
	}
	return jsjson.NewObject().Set("candidates", list).Set("titleReads", anyStrings(q.TitleReads())), nil
}

func (r *Reference) prepare(ctx context.Context, req request, arg func(string) jsjson.Arg) (any, error) {
	svc, q, agent, cctx, cancel, err := r.setup(ctx, req, arg)
	if err != nil {
		return nil, &failure{err: err, extra: jsjson.NewObject().Set("reads", []any{})}
	}
	defer cancel()
	defer q.Release() // after the service has returned: a held call pends until then
	// Normalized once, here, rather than inside PrepareValue: the cancel modes hold the first
	// source's read and the answer orders the reads by source. An absent references argument
	// is undefined, which is not iterable, as nil is not.
	refs, _ := req.Arg("references")
	order, err := service.NormalizeReferencesValue(agent.ID, refs, svc.Config().MaxReferences)
	if err != nil {
		return prepareAnswer(req, q, nil, nil, err)
	}
	q.ArmReads(cancelMode(req), cancel, sessionIDs(order))
	content, _ := req.Arg("content")
	p, err := svc.PrepareNormalized(cctx, content, order)
	return prepareAnswer(req, q, order, p, err)
}

// prepareAnswer builds a prepare's response: the result, or the error with the reads.
func prepareAnswer(req request, q *Query, order []service.Normalized, p *service.Prepared, err error) (any, error) {
	// Every read goroutine was started before Prepare awaited any; wait until they all called.
	// An already-aborted call starts no read, so there is nothing to wait for.
	started := len(order)
	if c, _ := req.Arg("cancel"); c == protocol.CancelBefore {
		started = 0
	}
	reads := anyStrings(sortedReads(q.WaitReads(started, time.Second), order))
	if err != nil {
		return nil, &failure{err: err, extra: jsjson.NewObject().Set("reads", reads)}
	}
	out := jsjson.NewObject()
	if _, ok := req.Arg("content"); ok {
		out.Set("content", p.Content)
	}
	if p.Context == nil {
		out.Set("additionalContext", nil)
	} else {
		out.Set("additionalContext", p.Context.Value(false))
	}
	return out.Set("reads", reads), nil
}

// sortedReads orders the reads as the references were normalized: the reference starts its
// reads concurrently, so their recorded order is a race, while the seed starts them in
// input order.
func sortedReads(reads []string, order []service.Normalized) []string {
	pos := func(id string) int {
		for i, n := range order {
			if n.SessionID == id {
				return i
			}
		}
		return len(order)
	}
	slices.SortStableFunc(reads, func(a, b string) int { return pos(a) - pos(b) })
	return reads
}

func anyStrings(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// hostSend: {world, agent, running, text, config?, mutations?} → {log, replay}. The message is
// sent to the target (idle, or running and then stepped), the source sessions are mutated as
// listed, and the target's log is read before and after the mutations.
func (r *Reference) hostSend(ctx context.Context, req request, arg func(string) jsjson.Arg) (any, error) {
	svc, q, agent, cctx, cancel, err := r.setup(ctx, req, arg)
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer q.Release() // after the service has returned: a held call pends until then
	text, ok := arg("text").Value.(string)
	if !ok {
		return nil, badRequest("text is not a string")
	}
	running, _ := arg("running").Value.(bool)
	order := host.ContextFirst
	if r.spec() != protocol.Spec {
		order = host.DirectFirst
	}
	svc.NewID = func() string { return "" }
	h := &host.Host{Service: svc, Order: order}
	t := &host.Target{Agent: agent, Running: running}
	if err := h.Send(cctx, t, text); err != nil {
		return nil, err
	}
	pending := entries(t.Pending())
	if order == host.DirectFirst && running {
		// 0.1.0-rc.8 parses and prepares in its agent/pre-step listener, when the step claims
		// the inbox: until then the direct message waits as typed (SR-HOST-8).
		pending = []any{jsjson.NewObject().
			Set("source", jsjson.NewObject().Set("kind", "user")).
			Set("content", []any{jsjson.NewObject().Set("type", "text").Set("text", text)}).
			Set("role", "user")}
	}
	t.Step()
	before := entries(t.Replay())
	if err := applyMutations(q.World, arg("mutations")); err != nil {
		return nil, err
	}
	after := entries(t.Replay())
	return jsjson.NewObject().Set("pending", pending).Set("log", before).Set("replay", after), nil
}

func entries(es []host.Entry) []any {
	out := make([]any, len(es))
	for i, e := range es {
		v, _ := jsjson.Parse(e.JSON)
		if o, ok := v.(*jsjson.Object); ok {
			c := jsjson.NewObject()
			for _, k := range o.Keys() {
				if k != "id" {
					x, _ := o.Get(k)
					c.Set(k, x)
				}
			}
			v = c
		}
		out[i] = v
	}
	return out
}

// applyMutations changes source sessions after a send: {op:"append", sessionId, events},
// {op:"compact", sessionId, summary}, {op:"delete", sessionId}.
func applyMutations(w *sessionquerytest.World, a jsjson.Arg) error {
	if !a.Set {
		return nil
	}
	list, ok := a.Value.([]any)
	if !ok {
		return badRequest("mutations is not an array")
	}
	for _, m := range list {
		o, _ := m.(*jsjson.Object)
		opv, _ := o.Get("op")
		idv, _ := o.Get("sessionId")
		id, _ := idv.(string)
		i := slices.IndexFunc(w.Sessions, func(s sessionquerytest.WorldSession) bool { return s.Header.ID == id })
		if i < 0 {
			return badRequest("mutation names unknown session %s", jsjson.Quote(id))
		}
		s := &w.Sessions[i]
		if s.Surface == nil {
			s.Surface = &sessionquery.Surface{Session: s.Header}
		}
		switch opv {
		case "append":
			ev, _ := o.Get("events")
			events, ok := ev.([]any)
			if !ok {
				return badRequest("append mutation has no events array")
			}
			// Clip first: the events may be shared with a world.define template (or the
			// request), and append must not write into their spare capacity.
			s.Surface.Events = append(slices.Clip(s.Surface.Events), events...)
		case "compact":
			sv, _ := o.Get("summary")
			summary, _ := sv.(string)
			src := jsjson.NewObject().Set("kind", "plugin").Set("plugin", "compact").Set("compactionId", "c-mutation")
			block := jsjson.NewObject().Set("type", "text").Set("text", summary)
			data := jsjson.NewObject().Set("id", "m-compact").Set("role", "user").Set("content", []any{block}).Set("source", src)
			s.Surface.Events = []any{jsjson.NewObject().Set("type", "user/message").Set("seq", 0.0).Set("data", data)}
		case "delete":
			w.Sessions = slices.Delete(w.Sessions, i, i+1)
		default:
			return badRequest("unknown mutation op %v", opv)
		}
	}
	return nil
}
