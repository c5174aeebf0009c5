package conformancetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// The bridge answers the world document itself (spec/protocol.md, "The world"), as any
// adapter does; the reference adapter answers it with the reference's in-memory service. A
// port certified through the bridge must see the world the reference sees, so the two are
// compared call by call on worlds that reach every rule: document order, duplicate ids (the
// first wins), unknown ids, titleError beside a title, an empty title, listError, readError,
// an absent surface, a null capturedThroughSeq.
func TestWorldAnswersAsTheReferenceAdapter(t *testing.T) {
	t.Parallel()
	worlds := []string{
		`{"sessions":[]}`,
		`{"sessions":[],"listError":"list down"}`,
		`{"sessions":[
		  {"header":{"id":"b","cwd":"/r","createdAt":2,"extra":true},"title":"B"},
		  {"header":{"id":"a","createdAt":1},"title":"","titleError":null},
		  {"header":{"id":"b","createdAt":3},"title":"second b","readError":"never read"},
		  {"header":{"id":"t","createdAt":4},"title":"T","titleError":"title store down"},
		  {"header":{"id":"r","createdAt":5},"readError":"gone"},
		  {"header":{"id":"s","createdAt":6},"surface":{"capturedThroughSeq":7,"events":[
		    {"type":"user/message","seq":1,"data":{"content":[{"type":"text","text":"hi"}]}},
		    {"type":"tool/result","seq":2}]}},
		  {"header":{"id":"n","createdAt":7},"surface":{"capturedThroughSeq":null,"events":[]}},
		  {"header":{"id":"e","createdAt":8},"surface":{"capturedThroughSeq":3}}],
		 "listError":null}`,
	}
	ids := []string{"b", "a", "b", "t", "r", "s", "n", "e", "unknown", "unknown", "a", ""}
	ctx := context.Background()
	for i, text := range worlds {
		doc, err := protocol.ParseWorld(text)
		if err != nil {
			t.Fatalf("world %d: %v", i, err)
		}
		ours, err := newWorld(doc.Value())
		if err != nil {
			t.Fatalf("world %d: %v", i, err)
		}
		ref := refadapter.World(doc)

		recs, err := ours.ListSessions(ctx)
		refRecs, refErr := ref.ListSessions(ctx)
		if got, want := fmt.Sprint(errString(err), len(recs)), fmt.Sprint(errString(refErr), len(refRecs)); got != want {
			t.Fatalf("world %d: ListSessions: %s, reference %s", i, got, want)
		}
		for j, r := range refRecs {
			want := goport.SessionRecord{Header: refHeader(r.Header.ID, r.Header.CWD, r.Header.CreatedAt), Live: r.Live, Persisted: r.Persisted}
			if recs[j] != want {
				t.Errorf("world %d: record %d = %+v, reference %+v", i, j, recs[j], want)
			}
		}

		titles, err := ours.ReadTitleSnapshots(ctx, ids)
		refTitles, refErr := ref.ReadTitleSnapshots(ctx, ids)
		if got, want := fmt.Sprint(errString(err), len(titles)), fmt.Sprint(errString(refErr), len(refTitles)); got != want {
			t.Fatalf("world %d: ReadTitleSnapshots: %s, reference %s", i, got, want)
		}
		for j, r := range refTitles {
			got, want := titles[j], goport.TitleSnapshot{SessionID: r.SessionID, Session: refHeader(r.Session.ID, r.Session.CWD, r.Session.CreatedAt)}
			if r.Title != nil {
				want.Title = goport.Some(*r.Title)
			}
			if errString(got.Err) != errString(r.Err) {
				t.Errorf("world %d: title %d error %q, reference %q", i, j, errString(got.Err), errString(r.Err))
			}
			got.Err = nil
			if got != want {
				t.Errorf("world %d: title %d = %+v, reference %+v", i, j, got, want)
			}
		}

		for _, id := range ids {
			s, err := ours.ReadSurface(ctx, id)
			rs, refErr := ref.ReadSurface(ctx, id)
			if errString(err) != errString(refErr) {
				t.Errorf("world %d: ReadSurface(%q) error %q, reference %q", i, id, errString(err), errString(refErr))
				continue
			}
			if err != nil {
				continue
			}
			want := goport.Surface{Session: refHeader(rs.Session.ID, rs.Session.CWD, rs.Session.CreatedAt)}
			if rs.CapturedThroughSeq != nil {
				want.CapturedThroughSeq = goport.Some(*rs.CapturedThroughSeq)
			}
			if s.Session != want.Session || s.CapturedThroughSeq != want.CapturedThroughSeq || len(s.Events) != len(rs.Events) || s.Events == nil {
				t.Errorf("world %d: ReadSurface(%q) = %+v, reference %+v", i, id, s, rs)
			}
			for j, ev := range rs.Events {
				if s.Events[j].Type != get(refadapter.FromReference(ev), "type") {
					t.Errorf("world %d: ReadSurface(%q) event %d type %q, reference %s", i, id, j, s.Events[j].Type, wire.Quote(fmt.Sprint(get(refadapter.FromReference(ev), "type"))))
				}
			}
		}
	}
}

// Every call the bridge's store answers is recorded, in call order, as the reference
// adapter's are: the answers report them.
func TestWorldRecordsCalls(t *testing.T) {
	t.Parallel()
	w, err := newWorld(mustValue(t, `{"sessions":[{"header":{"id":"a","createdAt":1}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	w.ListSessions(ctx)
	w.ReadTitleSnapshots(ctx, []string{"a", "x", "a"})
	w.ReadSurface(ctx, "x")
	w.ReadSurface(ctx, "a")
	if got := fmt.Sprint(w.calls.Lists(), w.calls.TitleReads(), w.calls.Reads()); got != "1 [a x a] [x a]" {
		t.Errorf("recorded %s, want 1 [a x a] [x a]", got)
	}
}

func mustValue(t *testing.T, text string) any {
	t.Helper()
	v, err := wire.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func refHeader(id string, cwd *string, createdAt float64) goport.SessionHeader {
	h := goport.SessionHeader{ID: id, CreatedAt: createdAt}
	if cwd != nil {
		h.CWD = goport.Some(*cwd)
	}
	return h
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
