package sessionquerytest_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

func str(s string) *string { return &s }

func num(f float64) *float64 { return &f }

// testWorld holds a session with a surface, one whose titles fail, one whose reads fail, and a
// second session with the id of the first.
func testWorld() *sessionquerytest.World {
	version := jsjson.NewObject().Set("version", 1.0)
	return &sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{
		{
			Header:  sessionquery.Header{ID: "a", CWD: str("/w"), CreatedAt: 1, Extra: version},
			Title:   str("A title"),
			Surface: &sessionquery.Surface{CapturedThroughSeq: num(3), Events: []any{jsjson.NewObject().Set("type", "tool/result")}},
		},
		{Header: sessionquery.Header{ID: "b", CreatedAt: 2}, TitleError: str("no titles")},
		{Header: sessionquery.Header{ID: "c", CreatedAt: 3}, ReadError: str("gone")},
		{Header: sessionquery.Header{ID: "a", CreatedAt: 4}, Title: str("second a")},
	}}
}

func TestWorldQueries(t *testing.T) {
	w := &sessionquerytest.Recorder{Querier: testWorld()}
	ctx := context.Background()
	recs, err := w.ListSessions(ctx)
	if err != nil || len(recs) != 4 || recs[1].Header.ID != "b" {
		t.Fatalf("ListSessions = %+v, %v", recs, err)
	}
	st, err := w.ReadTitleSnapshots(ctx, []string{"b", "a", "zz", "a", "c"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range st {
		switch {
		case s.Err != nil:
			got = append(got, s.SessionID+":err:"+s.Err.Error())
		case s.Title == nil:
			got = append(got, s.SessionID+":none")
		default:
			got = append(got, s.SessionID+":"+*s.Title)
		}
	}
	// One settlement per unique id, first occurrence; the first session with an id wins.
	want := []string{"b:err:no titles", "a:A title", "zz:err:session not found", "c:none"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	if d := cmp.Diff([]string{"b", "a", "zz", "a", "c"}, w.TitleReads()); d != "" {
		t.Errorf("TitleReads (-want +got)\n%s", d)
	}
	s, err := w.ReadSurface(ctx, "a")
	if err != nil || *s.CapturedThroughSeq != 3 || len(s.Events) != 1 || *s.Session.CWD != "/w" || s.Session.CreatedAt != 1 {
		t.Errorf("ReadSurface(a) = %+v, %v", s, err)
	}
	if v, _ := s.Session.Extra.Get("version"); v != 1.0 {
		t.Errorf("ReadSurface(a) header extras %v", s.Session.Extra)
	}
	s, err = w.ReadSurface(ctx, "b")
	if err != nil || s.CapturedThroughSeq != nil || s.Events != nil || s.Session.ID != "b" {
		t.Errorf("ReadSurface(b) = %+v, %v", s, err)
	}
	if _, err := w.ReadSurface(ctx, "c"); err == nil || err.Error() != "gone" {
		t.Errorf("ReadSurface(c) err %v", err)
	}
	if _, err := w.ReadSurface(ctx, "zz"); err == nil {
		t.Error("unknown session read")
	}
	if d := cmp.Diff([]string{"a", "b", "c", "zz"}, w.Reads()); d != "" {
		t.Errorf("Reads (-want +got)\n%s", d)
	}
	if w.Lists() != 1 {
		t.Errorf("Lists = %d, want 1", w.Lists())
	}
	w2 := &sessionquerytest.World{Sessions: testWorld().Sessions, ListError: str("index broken")}
	if _, err := w2.ListSessions(ctx); err == nil || err.Error() != "index broken" {
		t.Errorf("listError: %v", err)
	}
}

// A query over many sessions reads every title in time proportional to the sessions, not
// their square (the World used to scan the list for each id).
func TestReadTitleSnapshotsLarge(t *testing.T) {
	w := &sessionquerytest.World{}
	var ids []string
	for i := 0; i < 200_000; i++ {
		id := strings.Repeat("x", i%7) + string(rune('a'+i%26)) + itoa(i)
		w.Sessions = append(w.Sessions, sessionquerytest.WorldSession{Header: sessionquery.Header{ID: id}})
		ids = append(ids, id)
	}
	st, err := w.ReadTitleSnapshots(context.Background(), ids)
	if err != nil || len(st) != len(ids) || st[len(st)-1].SessionID != ids[len(ids)-1] || st[len(st)-1].Err != nil {
		t.Fatalf("%d settlements, %v", len(st), err)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// Clone copies what a test may change: the session list and each surface.
func TestWorldClone(t *testing.T) {
	w := testWorld()
	c := w.Clone()
	c.Sessions = c.Sessions[:1]
	c.Sessions[0].Surface.Events = nil
	ctx := context.Background()
	if recs, _ := w.ListSessions(ctx); len(recs) != 4 {
		t.Errorf("the original lost sessions: %d", len(recs))
	}
	if s, _ := w.ReadSurface(ctx, "a"); len(s.Events) != 1 {
		t.Errorf("the original's surface changed: %+v", s)
	}
}

// A Recorder records a call that never returns.
func TestRecorderRecordsPendingCall(t *testing.T) {
	r := &sessionquerytest.Recorder{Querier: pending{testWorld()}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := r.ReadSurface(ctx, "a"); done <- err }()
	for len(r.Reads()) == 0 {
		runtime.Gosched()
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("pending read returned no error")
	}
	if d := cmp.Diff([]string{"a"}, r.Reads()); d != "" {
		t.Errorf("Reads (-want +got)\n%s", d)
	}
}

type pending struct{ *sessionquerytest.World }

func (pending) ReadSurface(ctx context.Context, id string) (sessionquery.Surface, error) {
	<-ctx.Done()
	return sessionquery.Surface{}, ctx.Err()
}
