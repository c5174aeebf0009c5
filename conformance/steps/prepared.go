package steps

import (
	"fmt"
	"strings"

	"github.com/cucumber/godog"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// The framing of the context text (SR-PROMPT-1): the snapshots are the JSON between them.
const (
	openTag  = "<referenced-sessions>\n"
	closeTag = "\n</referenced-sessions>"
)

// ---- Then: prepared messages ----

func (st *state) registerPrepared(sc steps) {
	sc.Then(`^the sessions read are (.+)$`, func(list string) error { return st.readsAre(anyList(quoted(list))) })
	sc.Then(`^no session was read$`, func() error { return st.readsAre([]any{}) })
	sc.Then(`^the prepared message has no context$`, func() error {
		r, err := st.result()
		if err != nil {
			return err
		}
		if c, _ := r.Get("additionalContext"); c != nil {
			return fmt.Errorf("the prepared message has a context message")
		}
		return nil
	})
	sc.Then(`^the content comes back unchanged$`, func() error {
		r, err := st.result()
		if err != nil {
			return err
		}
		got, _ := r.Get("content")
		return diff("content", st.content, got)
	})
	sc.Then(`^the context message has the keys source, content and role, in that order$`, func() error {
		msg, err := st.contextMessage()
		if err != nil {
			return err
		}
		return diff("context message keys", []any{"source", "content", "role"}, anyList(msg.Keys()))
	})
	sc.Then(`^its source is a session-reference recall of version 1$`, func() error {
		msg, err := st.contextMessage()
		if err != nil {
			return err
		}
		src, _ := msg.Get("source")
		so, _ := src.(*wire.Object)
		if so == nil {
			return fmt.Errorf("the context message has no source")
		}
		if d := diff("source keys", []any{"kind", "form", "version", "references"}, anyList(so.Keys())); d != nil {
			return d
		}
		kind, _ := so.Get("kind")
		form, _ := so.Get("form")
		version, _ := so.Get("version")
		return diff("source", []any{"session-reference", "recall", 1.0}, []any{kind, form, version})
	})
	sc.Then(`^the snapshots are, in order:$`, func(t *godog.Table) error {
		snaps, err := st.snapshots()
		if err != nil {
			return err
		}
		want, got := []any{}, []any{}
		for _, row := range table(t) {
			want = append(want, []any{cell(row["session"]), cell(row["label"])})
		}
		for _, s := range snaps {
			id, _ := s.Get("sessionId")
			label, _ := s.Get("label")
			got = append(got, []any{id, label})
		}
		return diff("snapshots", want, got)
	})
	sc.Then(`^the snapshot of "([^"]*)" holds:$`, func(id string, t *godog.Table) error {
		snap, err := st.snapshot(text(id))
		if err != nil {
			return err
		}
		want := []any{}
		for _, row := range table(t) {
			want = append(want, map[string]any{"role": row["role"], "text": cell(row["text"])})
		}
		got, _ := snap.Get("conversation")
		return diff("conversation of "+id, want, got)
	})
	sc.Then(`^the snapshot of "([^"]*)" records:$`, func(id string, t *godog.Table) error {
		rec, err := st.sourceRecord(text(id))
		if err != nil {
			return err
		}
		want, got := map[string]any{}, map[string]any{}
		for _, row := range table(t) {
			want[row["field"]] = jsonOrString(row["value"])
			v, ok := rec.Get(row["field"])
			if ok {
				got[row["field"]] = v
			}
		}
		return diff("source record of "+id, want, got)
	})
	sc.Then(`^the source records are:$`, func(t *godog.Table) error {
		msg, err := st.contextMessage()
		if err != nil {
			return err
		}
		want := []any{}
		var keys []string
		for _, c := range t.Rows[0].Cells {
			keys = append(keys, c.Value)
		}
		for _, row := range t.Rows[1:] {
			o := wire.NewObject()
			for i, c := range row.Cells {
				o.Set(keys[i], jsonOrString(c.Value))
			}
			want = append(want, o)
		}
		src, _ := msg.Get("source")
		refs, _ := src.(*wire.Object).Get("references")
		// Key order is part of the contract (SR-PROMPT-4): compare it too.
		if list, ok := refs.([]any); ok {
			for _, r := range list {
				if ro, ok := r.(*wire.Object); ok {
					if d := diff("source record keys", anyList(keys), anyList(ro.Keys())); d != nil {
						return d
					}
				}
			}
		}
		return diff("source records", want, refs)
	})
	sc.Then(`^the context text is:$`, func(doc *godog.DocString) error {
		got, err := st.contextText()
		if err != nil {
			return err
		}
		return diff("context text", doc.Content, got)
	})
	sc.Then(`^the context text contains "(.*)"$`, func(want string) error {
		got, err := st.contextText()
		if err != nil {
			return err
		}
		if w := text(want); !strings.Contains(got, w) {
			return fmt.Errorf("the context text does not contain %s:\n%s", wire.Quote(w), got)
		}
		return nil
	})
}

func (st *state) readsAre(want []any) error {
	resp, err := st.outcome()
	if err != nil {
		return err
	}
	var got any
	if resp.OK {
		if o, ok := resp.Result.(*wire.Object); ok {
			got, _ = o.Get("reads")
		}
	} else if resp.Err != nil {
		got, _ = resp.Err.Extra.Get("reads")
	}
	return diff("sessions read", want, got)
}

func (st *state) contextMessage() (*wire.Object, error) {
	r, err := st.result()
	if err != nil {
		return nil, err
	}
	c, _ := r.Get("additionalContext")
	msg, ok := c.(*wire.Object)
	if !ok {
		return nil, fmt.Errorf("the prepared message has no context message")
	}
	return msg, nil
}

func (st *state) contextText() (string, error) {
	msg, err := st.contextMessage()
	if err != nil {
		return "", err
	}
	return messageText(msg)
}

// messageText returns the text of a message's single text block.
func messageText(msg *wire.Object) (string, error) {
	content, _ := msg.Get("content")
	blocks, _ := content.([]any)
	if len(blocks) != 1 {
		return "", fmt.Errorf("the message has %d content blocks, want 1", len(blocks))
	}
	b, _ := blocks[0].(*wire.Object)
	t, _ := b.Get("text")
	s, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("the message's block has no text")
	}
	return s, nil
}

// snapshots parses the JSON array framed in the context text.
func (st *state) snapshots() ([]*wire.Object, error) {
	t, err := st.contextText()
	if err != nil {
		return nil, err
	}
	return parseSnapshots(t)
}

func parseSnapshots(t string) ([]*wire.Object, error) {
	i, j := strings.Index(t, openTag), strings.LastIndex(t, closeTag)
	if i < 0 || j < i {
		return nil, fmt.Errorf("the context text is not framed by <referenced-sessions> tags")
	}
	v, err := wire.ParseLimited(t[i+len(openTag):j], protocol.MaxResponseValues) // the adapter wrote it: bounded as a response is
	if err != nil {
		return nil, fmt.Errorf("the snapshots are not JSON: %v", err)
	}
	list, _ := v.([]any)
	out := make([]*wire.Object, 0, len(list))
	for _, e := range list {
		if o, ok := e.(*wire.Object); ok {
			out = append(out, o)
		}
	}
	return out, nil
}

func (st *state) snapshot(id string) (*wire.Object, error) {
	snaps, err := st.snapshots()
	if err != nil {
		return nil, err
	}
	for _, s := range snaps {
		if v, _ := s.Get("sessionId"); v == id {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no snapshot of %s", wire.Quote(id))
}

func (st *state) sourceRecord(id string) (*wire.Object, error) {
	msg, err := st.contextMessage()
	if err != nil {
		return nil, err
	}
	src, _ := msg.Get("source")
	so, _ := src.(*wire.Object)
	refs, _ := so.Get("references")
	list, _ := refs.([]any)
	for _, r := range list {
		ro, _ := r.(*wire.Object)
		if v, _ := ro.Get("sessionId"); v == id {
			return ro, nil
		}
	}
	return nil, fmt.Errorf("no source record of %s", wire.Quote(id))
}

// ---- The host model ----

func (st *state) registerHost(sc steps) {
	sc.When(`^the user sends "(.*)"$`, func(t string) error {
		a := st.serviceArgs().Set("running", st.running).Set("text", text(t))
		return st.request(protocol.OpHostSend, a)
	})
	sc.When(`^afterwards "([^"]*)" gets the message "([^"]*)", "([^"]*)" is compacted and "([^"]*)" is deleted$`, func(a, msg, b, c string) error {
		if st.op != protocol.OpHostSend || st.sent {
			return fmt.Errorf("source changes follow a message the user sends")
		}
		ev, _ := event("user", text(msg))
		st.args.Set("mutations", []any{
			wire.NewObject().Set("op", "append").Set("sessionId", text(a)).Set("events", []any{ev}),
			wire.NewObject().Set("op", "compact").Set("sessionId", text(b)).Set("summary", "rewritten"),
			wire.NewObject().Set("op", "delete").Set("sessionId", text(c)),
		})
		return nil
	})
	sc.Then(`^the target log holds:$`, func(t *godog.Table) error {
		log, err := st.hostList("log")
		if err != nil {
			return err
		}
		want, got := []any{}, []any{}
		for _, row := range table(t) {
			want = append(want, []any{row["message"], cell(row["text"])})
		}
		for _, e := range log {
			got = append(got, describeEntry(e))
		}
		return diff("target log", want, got)
	})
	sc.Then(`^the target log did not change$`, func() error {
		log, err := st.hostList("log")
		if err != nil {
			return err
		}
		replay, err := st.hostList("replay")
		if err != nil {
			return err
		}
		return diff("the target log replayed after the source changes", log, replay)
	})
	sc.Then(`^both messages waited in the inbox until the next step$`, func() error {
		pending, err := st.hostList("pending")
		if err != nil {
			return err
		}
		log, err := st.hostList("log")
		if err != nil {
			return err
		}
		if len(pending) != 2 {
			return fmt.Errorf("%d messages waited in the inbox, want 2", len(pending))
		}
		return diff("messages claimed at the next step", pending, log)
	})
	sc.Then(`^the message waited in the inbox as typed until the next step$`, func() error {
		pending, err := st.hostList("pending")
		if err != nil {
			return err
		}
		log, err := st.hostList("log")
		if err != nil {
			return err
		}
		if len(pending) != 1 || len(log) != 2 {
			return fmt.Errorf("%d messages waited in the inbox and %d entered the log, want 1 and 2", len(pending), len(log))
		}
		typed, _ := st.args.Get("text")
		want := []any{wire.NewObject().Set("source", wire.NewObject().Set("kind", "user")).
			Set("content", []any{wire.NewObject().Set("type", "text").Set("text", typed)}).Set("role", "user")}
		return diff("the message waiting in the inbox", want, pending)
	})
}

func (st *state) hostList(key string) ([]any, error) {
	r, err := st.result()
	if err != nil {
		return nil, err
	}
	v, _ := r.Get(key)
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("host.send result has no %s list", key)
	}
	return list, nil
}

// describeEntry names a logged message the way the features do: ["direct", its text] or
// ["context", `snapshots of "a", "b"`].
func describeEntry(e any) []any {
	o, _ := e.(*wire.Object)
	src, _ := o.Get("source")
	so, _ := src.(*wire.Object)
	kind, _ := so.Get("kind")
	switch kind {
	case "user":
		t, _ := messageText(o)
		return []any{"direct", t}
	case "session-reference":
		refs, _ := so.Get("references")
		list, _ := refs.([]any)
		var ids []string
		for _, r := range list {
			ro, _ := r.(*wire.Object)
			id, _ := ro.Get("sessionId")
			s, _ := id.(string)
			ids = append(ids, wire.Quote(s))
		}
		return []any{"context", "snapshots of " + strings.Join(ids, ", ")}
	}
	return []any{fmt.Sprint(kind), compare.Plain(o)}
}
