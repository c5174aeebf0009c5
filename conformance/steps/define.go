package steps

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cucumber/godog"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// register defines on sc, bound to st, the steps a scenario made of the steps texts can
// match: every definition whose expression matches one of the texts, in the usual order, so
// that godog matches, reports ambiguity and undefined steps as with all of them defined.
// With texts nil it defines every step.
func (st *state) register(gsc *godog.ScenarioContext, texts []string) {
	sc := steps{sc: gsc, texts: texts}
	st.registerWorld(sc)
	st.registerRequests(sc)
	st.registerOutcomes(sc)
	st.registerPrepared(sc)
	st.registerHost(sc)
}

// ---- Given: the world ----

func (st *state) registerWorld(sc steps) {
	sc.Given(`^the target agent "([^"]*)"(?: works in "([^"]*)")?$`, func(id, dir string) {
		st.agent = wire.NewObject().Set("id", text(id))
		if dir != "" {
			st.agent.Set("cwd", text(dir))
		}
	})
	sc.Given(`^the target agent "([^"]*)" works nowhere$`, func(id string) {
		st.agent = wire.NewObject().Set("id", text(id))
	})
	sc.Given(`^a session "([^"]*)"(?: in "([^"]*)")?( titled "[^"]*")?$`, func(id, dir, titled string) {
		st.addSession(id, dir, titled)
	})
	sc.Given(`^a session "([^"]*)"(?: in "([^"]*)")? with the conversation:$`, func(id, dir string, t *godog.Table) error {
		s := st.addSession(id, dir, "")
		return st.conversation(s, t)
	})
	sc.Given(`^the session "([^"]*)" continues with the conversation:$`, func(id string, t *godog.Table) error {
		return st.conversation(st.session(text(id)), t)
	})
	sc.Given(`^a session "([^"]*)" whose title cannot be read$`, func(id string) {
		st.session(text(id)).titleErr = true
	})
	sc.Given(`^a session "([^"]*)" that cannot be read$`, func(id string) {
		st.session(text(id)).readErr = true
	})
	sc.Given(`^a session "([^"]*)" without a surface$`, func(id string) {
		st.session(text(id)).noSurface = true
	})
	sc.Given(`^the session "([^"]*)" was captured through sequence (\S+)$`, func(id, seq string) error {
		f, err := strconv.ParseFloat(seq, 64)
		if err != nil {
			return fmt.Errorf("sequence %q: %v", seq, err)
		}
		st.session(text(id)).seq = &f
		return nil
	})
	sc.Given(`^a session "([^"]*)" with an event of type "([^"]*)"$`, func(id, typ string) {
		s := st.session(text(id))
		s.events = append(s.events, wire.NewObject().Set("type", text(typ)).Set("data", wire.NewObject().Set("x", "y")))
	})
	sc.Given(`^a session "([^"]*)" with a user message made of the blocks:$`, func(id string, t *godog.Table) error {
		var blocks []any
		for _, row := range table(t) {
			switch row["block"] {
			case "text":
				blocks = append(blocks, textBlock(cell(row["text"])))
			case "image":
				blocks = append(blocks, wire.NewObject().Set("type", "image").Set("data", "iVBORw0KGgo="))
			default:
				return fmt.Errorf("unknown block %q", row["block"])
			}
		}
		s := st.session(text(id))
		s.events = append(s.events, userEvent(blocks, wire.NewObject().Set("kind", "user")))
		return nil
	})
	sc.Given(`^a session "([^"]*)" with a user message "([^"]*)" repeated (\d+) times$`, func(id, unit string, n int) {
		s := st.session(text(id))
		s.events = append(s.events, userEvent([]any{textBlock(strings.Repeat(text(unit), n))}, wire.NewObject().Set("kind", "user")))
	})
	sc.Given(`^the session listing fails$`, func() { st.listError = true })
	sc.Given(`^each snapshot may take (-?\d+) bytes$`, func(n int) { st.setConfig("maxReferenceBytes", float64(n)) })
	sc.Given(`^at most (\d+) sources? may be referenced$`, func(n int) { st.setConfig("maxReferences", float64(n)) })
	sc.Given(`^the host aborts the request before it starts$`, func() { st.cancel = protocol.CancelBefore })
	sc.Given(`^the host aborts the request while sessions are read$`, func() { st.cancel = protocol.CancelDuringRead })
	sc.Given(`^the target is (idle|running)$`, func(s string) { st.running = s == "running" })
}

func (st *state) setConfig(key string, v any) {
	if st.config == nil {
		st.config = wire.NewObject()
	}
	st.config.Set(key, v)
}

func (st *state) addSession(id, dir, titled string) *session {
	s := st.session(text(id))
	if dir != "" {
		d := text(dir)
		s.cwd = &d
	}
	if titled != "" {
		t := strings.TrimSuffix(strings.TrimPrefix(titled, ` titled "`), `"`)
		t = text(t)
		s.title = &t
	}
	return s
}

func textBlock(t string) *wire.Object {
	return wire.NewObject().Set("type", "text").Set("text", t)
}

func userEvent(blocks []any, source *wire.Object) *wire.Object {
	return wire.NewObject().Set("type", "user/message").Set("data",
		wire.NewObject().Set("role", "user").Set("content", blocks).Set("source", source))
}

func assistantEvent(blocks []any) *wire.Object {
	return wire.NewObject().Set("type", "assistant/message").Set("data", wire.NewObject().Set("message",
		wire.NewObject().Set("role", "assistant").Set("content", blocks).Set("source", wire.NewObject().Set("kind", "model"))))
}

// conversation appends the table's messages (columns message, text) to s's surface.
func (st *state) conversation(s *session, t *godog.Table) error {
	for _, row := range table(t) {
		ev, err := event(row["message"], cell(row["text"]))
		if err != nil {
			return err
		}
		s.events = append(s.events, ev)
	}
	return nil
}

// event builds one surface event of a kind the features name.
func event(kind, t string) (*wire.Object, error) {
	src := func(kv ...string) *wire.Object {
		o := wire.NewObject()
		for i := 0; i+1 < len(kv); i += 2 {
			o.Set(kv[i], kv[i+1])
		}
		return o
	}
	switch kind {
	case "user":
		return userEvent([]any{textBlock(t)}, src("kind", "user")), nil
	case "assistant":
		return assistantEvent([]any{textBlock(t)}), nil
	case "checkpoint":
		return userEvent([]any{textBlock(t)}, src("kind", "plugin", "plugin", "compact", "compactionId", "c-1")), nil
	case "plugin":
		return userEvent([]any{textBlock(t)}, src("kind", "plugin", "plugin", "memory")), nil
	case "snapshot":
		s := src("kind", "session-reference", "form", "recall").Set("version", 1.0).Set("references", []any{})
		return userEvent([]any{textBlock(t)}, s), nil
	case "reasoning":
		return assistantEvent([]any{wire.NewObject().Set("type", "reasoning").Set("text", t)}), nil
	case "tool call":
		return assistantEvent([]any{wire.NewObject().Set("type", "tool-call").Set("id", "c1").Set("name", t).Set("arguments", "{}")}), nil
	case "tool result":
		inner := wire.NewObject().Set("type", "tool-result").Set("toolCallId", "c1").Set("content", []any{textBlock(t)})
		msg := wire.NewObject().Set("role", "user").Set("content", []any{inner}).Set("source", src("kind", "tool", "callId", "c1"))
		return wire.NewObject().Set("type", "tool/result").Set("data", wire.NewObject().Set("message", msg)), nil
	}
	return nil, fmt.Errorf("unknown kind of message %q", kind)
}

// ---- When: the requests ----

func (st *state) registerRequests(sc steps) {
	sc.When(`^the id "(.*)" is encoded$`, func(id string) error {
		return st.request(protocol.OpURIEncode, wire.NewObject().Set("sessionId", text(id)))
	})
	sc.When(`^the URI "(.*)" is decoded$`, func(u string) error {
		return st.request(protocol.OpURIDecode, wire.NewObject().Set("uri", text(u)))
	})
	sc.When(`^the URI carrying the JSON text '(.*)' is decoded$`, func(j string) error {
		return st.request(protocol.OpURIDecode, wire.NewObject().Set("uri", contract.URIOf(text(j))))
	})
	sc.When(`^a mention of "([^"]*)" labelled "(.*)" is formatted$`, func(id, label string) error {
		return st.request(protocol.OpMentionFormat, wire.NewObject().Set("sessionId", text(id)).Set("label", text(label)))
	})
	sc.When(`^a mention of "([^"]*)" without a label is formatted$`, func(id string) error {
		return st.request(protocol.OpMentionFormat, wire.NewObject().Set("sessionId", text(id)))
	})
	sc.When(`^the text "(.*)" is parsed$`, func(t string) error {
		return st.request(protocol.OpMentionParse, wire.NewObject().Set("text", text(t)))
	})
	sc.When(`^the service is configured with nothing$`, func() error {
		return st.request(protocol.OpConfig, wire.NewObject())
	})
	sc.When(`^the service is configured with (null|-?[0-9.]+|"[^"]*")$`, func(v string) error {
		return st.request(protocol.OpConfig, wire.NewObject().Set("config", jsonOrString(v)))
	})
	sc.When(`^the service is configured with:$`, func(t *godog.Table) error {
		cfg := wire.NewObject()
		for _, row := range table(t) {
			cfg.Set(row["setting"], jsonOrString(row["value"]))
		}
		return st.request(protocol.OpConfig, wire.NewObject().Set("config", cfg))
	})
	sc.When(`^the service is configured with (\d+) references at most$`, func(n int) error {
		return st.request(protocol.OpConfig, wire.NewObject().Set("config", wire.NewObject().Set("maxReferences", float64(n))))
	})

	candidates := func(limit string, query any) error {
		a := st.serviceArgs()
		if query != nil {
			a.Set("query", query)
		}
		if limit != "" {
			a.Set("limit", jsonOrString(limit))
		}
		return st.request(protocol.OpCandidates, a)
	}
	sc.When(`^candidates are listed$`, func() error { return candidates("", nil) })
	sc.When(`^at most (\S+) candidates are listed$`, func(l string) error { return candidates(l, nil) })
	sc.When(`^candidates matching "(.*)" are listed$`, func(q string) error { return candidates("", text(q)) })
	sc.When(`^at most (\S+) candidates matching "(.*)" are listed$`, func(l, q string) error { return candidates(l, text(q)) })
	sc.When(`^candidates matching the number (\d+) are listed$`, func(n int) error { return candidates("", float64(n)) })
	sc.When(`^at most (\S+) candidates matching the number (\d+) are listed$`, func(l string, n int) error {
		return candidates(l, float64(n))
	})

	const list = `((?:"[^"]*"(?:, | and )?)+)`
	sc.When(`^a message referencing `+list+` is prepared$`, func(ids string) error {
		return st.prepare(idRefs(ids), nil)
	})
	sc.When(`^a message referencing `+list+` is prepared with (\d+) bytes per snapshot$`, func(ids string, n int) error {
		st.setConfig("maxReferenceBytes", float64(n))
		return st.prepare(idRefs(ids), nil)
	})
	sc.When(`^a message referencing `+list+` is prepared after the host aborted$`, func(ids string) error {
		st.cancel = protocol.CancelBefore
		return st.prepare(idRefs(ids), nil)
	})
	sc.When(`^a message with no references is prepared$`, func() error { return st.prepare([]any{}, nil) })
	sc.When(`^a message with the reference (.+) is prepared$`, func(r string) error {
		v, err := wire.Parse(r)
		if err != nil {
			return fmt.Errorf("reference %s: %v", r, err)
		}
		return st.prepare([]any{v}, nil)
	})
	sc.When(`^a message with the content (.+) referencing "([^"]*)" is prepared$`, func(c, id string) error {
		v, err := wire.Parse(c)
		if err != nil {
			return fmt.Errorf("content %s: %v", c, err)
		}
		return st.prepare(idRefs(`"`+id+`"`), v)
	})
	sc.When(`^a message with these references is prepared:$`, func(t *godog.Table) error {
		var refs []any
		for _, row := range table(t) {
			r := wire.NewObject()
			if row["session"] != "(none)" {
				r.Set("sessionId", cell(row["session"]))
			}
			if l, ok := row["label"]; ok && l != "" {
				r.Set("label", cell(l))
			}
			refs = append(refs, r)
		}
		return st.prepare(refs, nil)
	})
}

func idRefs(ids string) []any {
	var refs []any
	for _, id := range quoted(ids) {
		refs = append(refs, wire.NewObject().Set("sessionId", id))
	}
	return refs
}

// defaultContent is the readable message a prepared message carries unless a scenario says.
var defaultContent = []any{textBlock("please compare with the referenced sessions")}

func (st *state) prepare(refs []any, content any) error {
	if content == nil {
		content = defaultContent
	}
	st.content = content
	if refs == nil {
		refs = []any{}
	}
	return st.request(protocol.OpPrepare, st.serviceArgs().Set("content", content).Set("references", refs))
}

// ---- Then: outcomes of any request ----

func (st *state) registerOutcomes(sc steps) {
	sc.Then(`^it fails with (SESSION_REFERENCE_[A-Z_]+)$`, func(code string) error { return st.fails(&code) })
	sc.Then(`^it fails with no code$`, func() error { empty := ""; return st.fails(&empty) })
	sc.Then(`^it fails$`, func() error { return st.fails(nil) })
	sc.Then(`^the URI is "(.*)"$`, func(want string) error { return st.resultIs(text(want)) })
	sc.Then(`^the mention is "(.*)"$`, func(want string) error { return st.resultIs(text(want)) })
	sc.Then(`^decoding that URI gives back the id "(.*)"$`, func(id string) error {
		resp, err := st.outcome()
		if err != nil {
			return err
		}
		u, ok := resp.Result.(string)
		if !resp.OK || !ok {
			return fmt.Errorf("encoding failed: %v", resp.Err)
		}
		dec, err := st.call(protocol.OpURIDecode, wire.NewObject().Set("uri", u))
		if err != nil {
			return err
		}
		return same("decoded id", protocol.Response{OK: true, Result: text(id)}, dec)
	})
	sc.Then(`^the readable text is "(.*)"$`, func(want string) error {
		r, err := st.result()
		if err != nil {
			return err
		}
		got, _ := r.Get("text")
		return diff("readable text", text(want), got)
	})
	sc.Then(`^the references are:$`, func(t *godog.Table) error {
		want := []any{}
		for _, row := range table(t) {
			want = append(want, map[string]any{"sessionId": cell(row["session"]), "label": cell(row["label"])})
		}
		return st.referencesAre(want)
	})
	sc.Then(`^there are no references$`, func() error { return st.referencesAre([]any{}) })
	sc.Then(`^the configuration is maxReferences (\d+), candidateLimit (\d+), maxReferenceBytes (\d+)$`, func(m, c, b float64) error {
		want := map[string]any{"maxReferences": m, "candidateLimit": c, "maxReferenceBytes": b}
		r, err := st.result()
		if err != nil {
			return err
		}
		return diff("configuration", want, compare.Plain(r))
	})
	sc.Then(`^the candidates are:$`, func(t *godog.Table) error {
		want := []any{}
		for _, row := range table(t) {
			c := map[string]any{"sessionId": cell(row["session"]), "label": cell(row["label"])}
			if row["cwd"] != "" {
				c["cwd"] = cell(row["cwd"])
			}
			want = append(want, c)
		}
		got, err := st.candidates(true)
		if err != nil {
			return err
		}
		return diff("candidates", want, got)
	})
	sc.Then(`^the candidate sessions are (.+)$`, func(list string) error {
		got, err := st.candidates(false)
		if err != nil {
			return err
		}
		return diff("candidate sessions", anyList(quoted(list)), got)
	})
	sc.Then(`^titles were read for (.+)$`, func(list string) error {
		r, err := st.result()
		if err != nil {
			return err
		}
		got, _ := r.Get("titleReads")
		return diff("titles read", anyList(quoted(list)), got)
	})
}

func anyList(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// candidates returns the listed candidates: whole (without createdAt, which the kit numbers)
// or as their session ids.
func (st *state) candidates(whole bool) ([]any, error) {
	r, err := st.result()
	if err != nil {
		return nil, err
	}
	v, _ := r.Get("candidates")
	list, _ := v.([]any)
	out := []any{}
	for _, c := range list {
		m, _ := compare.Plain(c).(map[string]any)
		if !whole {
			out = append(out, m["sessionId"])
			continue
		}
		delete(m, "createdAt")
		out = append(out, m)
	}
	return out, nil
}

func (st *state) referencesAre(want []any) error {
	r, err := st.result()
	if err != nil {
		return err
	}
	got, _ := r.Get("references")
	return diff("references", want, compare.Plain(got))
}

func (st *state) fails(code *string) error {
	resp, err := st.outcome()
	if err != nil {
		return err
	}
	if resp.OK {
		line, _ := resp.Line()
		return fmt.Errorf("%s succeeded, want a failure: %s", st.op, line)
	}
	if code != nil && resp.Err.Code != *code {
		return fmt.Errorf("%s failed with %s, want %s (%s)", st.op, codeName(resp.Err.Code), codeName(*code), resp.Err.Message)
	}
	return nil
}

func (st *state) resultIs(want any) error {
	resp, err := st.outcome()
	if err != nil {
		return err
	}
	return same(st.op+" result", protocol.Response{OK: true, Result: want}, resp)
}

func same(what string, want, got protocol.Response) error {
	if d := compare.Explain(want, got); d != nil {
		return &diffError{what: what, diff: d, want: result.Answer(want, &got), got: result.Answer(got, nil)}
	}
	return nil
}

func diff(what string, want, got any) error {
	if d := compare.ExplainValues(want, got); d != nil {
		return &diffError{what: what, diff: d, want: result.JSONOf(compare.Unplain(want)), got: result.JSONOf(compare.Unplain(got))}
	}
	return nil
}

// steps defines steps on a scenario, with their expressions compiled once per process, and
// only those its step texts can match (texts; all when nil). godog has the definitions made
// for every scenario, and makes each one at a cost (it records its caller's file and line):
// compiling some 75 expressions every time was half of a feature run, defining them all a
// third of what remained, and matching each step against all of them another third, where a
// scenario uses about eight.
type steps struct {
	sc    *godog.ScenarioContext
	texts []string
}

// definition is a step expression, compiled, and which step texts it matches, as found.
type definition struct {
	re      *regexp.Regexp
	matches sync.Map // step text -> bool
}

var definitions sync.Map // expression -> *definition

func define(e string) *definition {
	if d, ok := definitions.Load(e); ok {
		return d.(*definition)
	}
	d, _ := definitions.LoadOrStore(e, &definition{re: regexp.MustCompile(e)})
	return d.(*definition)
}

// wanted returns the compiled expression e, and whether a step of s may match it.
func (s steps) wanted(e string) (*regexp.Regexp, bool) {
	d := define(e)
	if s.texts == nil {
		return d.re, true
	}
	for _, t := range s.texts {
		m, ok := d.matches.Load(t)
		if !ok {
			m, _ = d.matches.LoadOrStore(t, d.re.MatchString(t))
		}
		if m.(bool) {
			return d.re, true
		}
	}
	return d.re, false
}

func (s steps) Given(e string, fn any) { s.define(s.sc.Given, e, fn) }
func (s steps) When(e string, fn any)  { s.define(s.sc.When, e, fn) }
func (s steps) Then(e string, fn any)  { s.define(s.sc.Then, e, fn) }
func (s steps) Step(e string, fn any)  { s.define(s.sc.Step, e, fn) }

// define adds the step e with add (sc.Given, …) when the scenario may use it (wanted).
func (s steps) define(add func(expr, fn any), e string, fn any) {
	if re, ok := s.wanted(e); ok {
		add(re, fn)
	}
}
