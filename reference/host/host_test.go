package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/host"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/mention"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// testWorld holds the target "me", a session "a" with one user message, and "bad", whose
// read fails.
func testWorld() *sessionquerytest.World {
	events, err := jsjson.Parse(`[
	 {"type":"user/message","seq":1,"data":{"content":[{"type":"text","text":"original text"}],"source":{"kind":"user"}}}]`)
	if err != nil {
		panic(err)
	}
	seq, gone := 1.0, "gone"
	return &sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{
		{Header: sessionquery.Header{ID: "me", CreatedAt: 0}},
		{Header: sessionquery.Header{ID: "a", CreatedAt: 1}, Surface: &sessionquery.Surface{CapturedThroughSeq: &seq, Events: events.([]any)}},
		{Header: sessionquery.Header{ID: "bad", CreatedAt: 2}, ReadError: &gone},
	}}
}

func setup(t *testing.T, order host.Order) (*host.Host, *sessionquerytest.Recorder) {
	t.Helper()
	w := &sessionquerytest.Recorder{Querier: testWorld()}
	s, err := service.New(w, service.Config{})
	if err != nil {
		t.Fatal(err)
	}
	s.NewID = func() string { return "ctx-id" }
	return &host.Host{Service: s, Order: order}, w
}

func kinds(es []host.Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Kind)
	}
	return out
}

func TestSendIdle(t *testing.T) {
	for _, tt := range []struct {
		order host.Order
		want  []string
	}{{host.ContextFirst, []string{"context", "direct"}}, {host.DirectFirst, []string{"direct", "context"}}} {
		h, _ := setup(t, tt.order)
		target := &host.Target{Agent: service.Agent{ID: "me"}}
		if err := h.Send(context.Background(), target, "see "+mention.Format("a", "A")); err != nil {
			t.Fatal(err)
		}
		log := target.Replay()
		if d := cmp.Diff(tt.want, kinds(log)); d != "" {
			t.Errorf("order %d (-want +got)\n%s", tt.order, d)
		}
		if len(target.Pending()) != 0 {
			t.Errorf("idle target has pending %v", target.Pending())
		}
		direct := log[0]
		if direct.Kind != "direct" {
			direct = log[1]
		}
		if want := `{"source":{"kind":"user"},"content":[{"type":"text","text":"see @A"}],"role":"user"}`; direct.JSON != want {
			t.Errorf("direct %s", direct.JSON)
		}
		ctxEntry := log[0]
		if ctxEntry.Kind != "context" {
			ctxEntry = log[1]
		}
		v, err := jsjson.Parse(ctxEntry.JSON)
		if err != nil {
			t.Fatal(err)
		}
		o := v.(*jsjson.Object)
		if keys := o.Keys(); !cmp.Equal(keys, []string{"source", "content", "role", "id"}) {
			t.Errorf("context keys %v", keys)
		}
		if !strings.Contains(ctxEntry.JSON, `original text`) || !strings.Contains(ctxEntry.JSON, `"label":"A"`) {
			t.Errorf("context %s", ctxEntry.JSON)
		}
	}
}

func TestSendWithoutMentions(t *testing.T) {
	h, w := setup(t, host.ContextFirst)
	target := &host.Target{Agent: service.Agent{ID: "me"}}
	if err := h.Send(context.Background(), target, "plain"); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"direct"}, kinds(target.Replay())); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	if len(w.Reads()) != 0 {
		t.Errorf("reads %v", w.Reads())
	}
}

func TestSendRunning(t *testing.T) {
	h, _ := setup(t, host.DirectFirst)
	target := &host.Target{Agent: service.Agent{ID: "me"}, Running: true}
	if err := h.Send(context.Background(), target, mention.Format("a", "a")); err != nil {
		t.Fatal(err)
	}
	if len(target.Replay()) != 0 {
		t.Fatalf("running target logged before its step: %v", target.Replay())
	}
	if d := cmp.Diff([]string{"direct", "context"}, kinds(target.Pending())); d != "" {
		t.Errorf("pending (-want +got)\n%s", d)
	}
	if err := h.Send(context.Background(), target, "second"); err != nil {
		t.Fatal(err)
	}
	target.Step()
	if d := cmp.Diff([]string{"direct", "context", "direct"}, kinds(target.Replay())); d != "" {
		t.Errorf("after step (-want +got)\n%s", d)
	}
	if len(target.Pending()) != 0 {
		t.Error("inbox not claimed")
	}
}

func TestSendFailureEnqueuesNothing(t *testing.T) {
	tests := []struct {
		text string
		code errcode.Code
	}{
		{"@[x](dsh-session:IiI=)", errcode.InvalidReference},
		{mention.Format("me", "self"), errcode.SelfReference},
		{mention.Format("bad", "bad"), errcode.ReadFailed},
		{mention.Format("a", "1") + mention.Format("b", "2") + mention.Format("c", "3") + mention.Format("d", "4"), errcode.TooMany},
	}
	for _, running := range []bool{false, true} {
		for _, tt := range tests {
			h, _ := setup(t, host.ContextFirst)
			target := &host.Target{Agent: service.Agent{ID: "me"}, Running: running}
			err := h.Send(context.Background(), target, tt.text)
			if !errors.Is(err, tt.code) {
				t.Errorf("Send(%q) = %v; want %s", tt.text, err, tt.code)
			}
			if len(target.Replay()) != 0 || len(target.Pending()) != 0 {
				t.Errorf("Send(%q) enqueued %v %v", tt.text, target.Replay(), target.Pending())
			}
		}
	}
}

// The log is a snapshot: changing the source session afterwards changes no replayed byte.
func TestReplayImmutable(t *testing.T) {
	h, w := setup(t, host.ContextFirst)
	target := &host.Target{Agent: service.Agent{ID: "me"}}
	if err := h.Send(context.Background(), target, mention.Format("a", "A")); err != nil {
		t.Fatal(err)
	}
	before := target.Replay()
	world := w.Querier.(*sessionquerytest.World)
	for i := range world.Sessions {
		if s := &world.Sessions[i]; s.Header.ID == "a" {
			ev := s.Surface.Events[0].(*jsjson.Object)
			data, _ := ev.Get("data")
			data.(*jsjson.Object).Set("content", []any{jsjson.NewObject().Set("type", "text").Set("text", "CHANGED")})
			s.Header.ID = "renamed"
		}
	}
	before[0].JSON = "tampered copy"
	after := target.Replay()
	if strings.Contains(after[0].JSON, "CHANGED") || !strings.Contains(after[0].JSON, "original text") {
		t.Errorf("replay changed with the world: %s", after[0].JSON)
	}
	if after[0].JSON == "tampered copy" {
		t.Error("Replay returns the log itself")
	}
}
