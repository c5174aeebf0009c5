package steps

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// state is one scenario's world and outcome.
type state struct {
	ctx     context.Context
	c       *adapter.Client
	profile string
	// sources are where the scenarios are defined, by area and name (see sources).
	sources map[string]result.Source

	// The world a Given describes.
	sessions  []*session
	listError bool
	agent     *wire.Object
	config    *wire.Object
	cancel    string
	running   bool
	mutations []any

	// The request a When names, sent by the first Then that needs it.
	op      string
	args    *wire.Object
	sent    bool
	resp    protocol.Response
	content any

	// Verdict inputs.
	rc         result.Case
	start      time.Time
	done       bool
	notCovered string
	transport  error
	lastInput  result.Value
	lastGot    result.Value
}

type session struct {
	id        string
	cwd       *string
	title     *string
	titleErr  bool
	readErr   bool
	noSurface bool
	events    []any
	seq       *float64 // capturedThroughSeq; nil means the number of events
}

func (st *state) session(id string) *session {
	for _, s := range st.sessions {
		if s.id == id {
			return s
		}
	}
	s := &session{id: id}
	st.sessions = append(st.sessions, s)
	return s
}

// world returns the protocol's world document for the sessions described so far.
func (st *state) world() *wire.Object {
	list := make([]any, 0, len(st.sessions))
	for i, s := range st.sessions {
		h := wire.NewObject().Set("id", s.id)
		if s.cwd != nil {
			h.Set("cwd", *s.cwd)
		}
		h.Set("createdAt", float64(1700000000000+i))
		o := wire.NewObject().Set("header", h)
		if s.title != nil {
			o.Set("title", *s.title)
		}
		if s.titleErr {
			o.Set("titleError", "title log unreadable")
		}
		if !s.noSurface {
			events := make([]any, len(s.events))
			for k, e := range s.events {
				ev := e.(*wire.Object)
				typ, _ := ev.Get("type")
				data, _ := ev.Get("data")
				events[k] = wire.NewObject().Set("type", typ).Set("seq", float64(k+1)).Set("data", data)
			}
			seq := float64(len(events))
			if s.seq != nil {
				seq = *s.seq
			}
			o.Set("surface", wire.NewObject().Set("capturedThroughSeq", seq).Set("events", events))
		}
		if s.readErr {
			o.Set("readError", "session log unreadable")
		}
		list = append(list, o)
	}
	w := wire.NewObject().Set("sessions", list)
	if st.listError {
		w.Set("listError", "session index unreadable")
	}
	return w
}

func (st *state) agentValue() *wire.Object {
	if st.agent == nil {
		return wire.NewObject().Set("id", "me")
	}
	return st.agent
}

// request names the scenario's request; it is sent when its outcome is first needed.
func (st *state) request(op string, args *wire.Object) error {
	if st.op != "" && !st.sent {
		return fmt.Errorf("a second request before the first was checked")
	}
	st.op, st.args, st.sent = op, args, false
	return nil
}

// serviceArgs returns arguments with the world, the agent, the configuration and the abort.
func (st *state) serviceArgs() *wire.Object {
	a := wire.NewObject().Set("world", st.world()).Set("agent", st.agentValue())
	if st.config != nil {
		a.Set("config", st.config)
	}
	if st.cancel != "" {
		a.Set("cancel", st.cancel)
	}
	return a
}

// outcome sends the pending request once and returns its response. A transport failure fails
// the step and makes the scenario an error; an unsupported op skips it as not covered.
func (st *state) outcome() (protocol.Response, error) {
	if st.op == "" {
		return protocol.Response{}, fmt.Errorf("no request was made")
	}
	if st.sent {
		return st.resp, nil
	}
	resp, err := st.call(st.op, st.args)
	if err != nil {
		return resp, err
	}
	st.resp, st.sent = resp, true
	return resp, nil
}

func (st *state) call(op string, args *wire.Object) (protocol.Response, error) {
	if st.notCovered != "" {
		return protocol.Response{}, godog.ErrSkip
	}
	req := protocol.Request{Op: op, Args: args}
	st.lastInput = result.Request(req, nil)
	resp, err := st.c.Do(st.ctx, op, args)
	if err != nil {
		st.transport = err
		return resp, err
	}
	// The client numbered the request; the answer echoes that id (the client checks it).
	st.lastInput, st.lastGot = result.Request(req, &resp), result.Answer(resp, nil)
	if adapter.Unsupported(resp) {
		st.notCovered = adapter.UnsupportedReason(op, resp)
		return resp, godog.ErrSkip
	}
	return resp, nil
}

// result returns the successful result object, or fails.
func (st *state) result() (*wire.Object, error) {
	resp, err := st.outcome()
	if err != nil {
		return nil, err
	}
	if !resp.OK {
		return nil, fmt.Errorf("%s failed with %s: %s", st.op, codeName(resp.Err.Code), resp.Err.Message)
	}
	o, ok := resp.Result.(*wire.Object)
	if !ok {
		return nil, fmt.Errorf("%s result is not an object", st.op)
	}
	return o, nil
}

func codeName(c string) string {
	if c == "" {
		return "no code"
	}
	return c
}

// text reads a string written in a feature: \u{XXXX} is that code point or code unit (a lone
// surrogate allowed), \n a line feed, [[s]] the URI of session s and [[s as L]] the mention
// of session s labelled L.
func text(s string) string {
	var b wire.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], `\u{`):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			n, err := strconv.ParseUint(s[i+3:i+end], 16, 32)
			if err != nil {
				b.WriteString(s[i : i+end+1])
			} else {
				b.WriteRune(rune(n))
			}
			i += end + 1
		case strings.HasPrefix(s[i:], `\n`):
			b.WriteString("\n")
			i += 2
		case strings.HasPrefix(s[i:], "[["):
			end := strings.Index(s[i:], "]]")
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			inner := s[i+2 : i+end]
			if id, label, ok := strings.Cut(inner, " as "); ok {
				b.WriteString(contract.Mention(text(id), text(label)))
			} else {
				b.WriteString(contract.URI(text(inner)))
			}
			i += end + 2
		default:
			r, n := wire.DecodeRune(s[i:])
			b.WriteRune(r)
			i += n
		}
	}
	return b.String()
}

// cell reads a table cell: Gherkin has already turned \n into a line feed.
func cell(s string) string { return text(s) }

// quoted reads a list written `"a", "b" and "c"` (or `none`).
func quoted(s string) []string {
	s = strings.TrimSpace(s)
	if s == "none" {
		return []string{}
	}
	var out []string
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i+1:], '"')
		if j < 0 {
			return out
		}
		out = append(out, text(s[i+1:i+1+j]))
		s = s[i+j+2:]
	}
}

// jsonOrString reads a cell as a JSON value, or as a string when it is not JSON.
func jsonOrString(s string) any {
	if v, err := wire.Parse(s); err == nil {
		return v
	}
	return text(s)
}

// table returns the rows of t as maps from header to cell, header row excluded.
func table(t *godog.Table) []map[string]string {
	if t == nil || len(t.Rows) == 0 {
		return nil
	}
	var head []string
	for _, c := range t.Rows[0].Cells {
		head = append(head, c.Value)
	}
	var out []map[string]string
	for _, r := range t.Rows[1:] {
		m := map[string]string{}
		for i, c := range r.Cells {
			if i < len(head) {
				m[head[i]] = c.Value
			}
		}
		out = append(out, m)
	}
	return out
}
