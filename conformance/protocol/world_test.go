package protocol_test

import (
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

const worldDoc = `{"sessions":[
 {"header":{"id":"a","cwd":"/w","createdAt":1,"version":1},"title":"A title","surface":{"capturedThroughSeq":3,"events":[{"type":"tool/result"}]}},
 {"header":{"id":"b","createdAt":2},"titleError":"no titles"},
 {"header":{"id":"c","createdAt":3},"readError":"gone"},
 {"header":{"id":"a","createdAt":4},"title":"second a"}],"listError":null}`

func TestWorldRoundTrip(t *testing.T) {
	w, err := protocol.ParseWorld(worldDoc)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := wire.Marshal(w.Value())
	w2, err := protocol.ParseWorld(string(b))
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := wire.Marshal(w2.Value())
	if string(b) != string(b2) {
		t.Errorf("not stable:\n%s\n%s", b, b2)
	}
	if !strings.Contains(string(b), `"header":{"id":"a","cwd":"/w","createdAt":1,"version":1}`) {
		t.Errorf("header extras lost: %s", b)
	}
	if s := w.Find("a"); s == nil || s.Title == nil || *s.Title != "A title" {
		t.Errorf("Find(a) = %+v, want the first session a", s)
	}
}

func TestWorldRejects(t *testing.T) {
	for _, doc := range []string{
		`[]`,
		`{"sessionz":[]}`,
		`{"sessions":{}}`,
		`{"sessions":[{"header":{"id":1,"createdAt":1}}]}`,
		`{"sessions":[{"header":{"id":"a"}}]}`,
		`{"sessions":[{"header":{"id":"a","createdAt":1,"cwd":2}}]}`,
		`{"sessions":[{"header":{"id":"a","createdAt":1},"title":3}]}`,
		`{"sessions":[{"header":{"id":"a","createdAt":1},"surface":{"events":{}}}]}`,
		`{"sessions":[{"header":{"id":"a","createdAt":1},"surface":{"capturedThroughSeq":"1"}}]}`,
		`{"sessions":[{"header":{"id":"a","createdAt":1},"surface":{"extra":1}}]}`,
		`{"sessions":[{"header":{"id":"a","createdAt":1},"x":1}]}`,
	} {
		if _, err := protocol.ParseWorld(doc); err == nil {
			t.Errorf("ParseWorld(%s) accepted", doc)
		}
	}
}

func TestAgentFromValue(t *testing.T) {
	a, err := protocol.AgentFromValue(wire.NewObject().Set("id", "me").Set("cwd", "/w"))
	if err != nil || a.ID != "me" || a.CWD == nil || *a.CWD != "/w" {
		t.Errorf("AgentFromValue = %+v, %v", a, err)
	}
	if a, err := protocol.AgentFromValue(wire.NewObject().Set("id", "me")); err != nil || a.CWD != nil {
		t.Errorf("AgentFromValue without cwd = %+v, %v", a, err)
	}
	for _, bad := range []any{nil, "me", wire.NewObject(), wire.NewObject().Set("id", 1.0), wire.NewObject().Set("id", "me").Set("cwd", nil)} {
		if _, err := protocol.AgentFromValue(bad); err == nil {
			t.Errorf("AgentFromValue(%v) accepted", bad)
		}
	}
}
