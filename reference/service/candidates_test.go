package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// world is w, its calls recorded.
func world(w *sessionquerytest.World) *sessionquerytest.Recorder {
	return &sessionquerytest.Recorder{Querier: w}
}

// session is a session with a header and nothing else.
func session(id string, cwd *string, createdAt float64) sessionquerytest.WorldSession {
	return sessionquerytest.WorldSession{Header: sessionquery.Header{ID: id, CWD: cwd, CreatedAt: createdAt}}
}

// withTitle is s with a title.
func withTitle(s sessionquerytest.WorldSession, title string) sessionquerytest.WorldSession {
	s.Title = &title
	return s
}

// events reads a JSON array of surface events (events are JSON values by nature).
func events(text string) []any {
	v, err := jsjson.Parse(text)
	if err != nil {
		panic(err)
	}
	return v.([]any)
}

func num(f float64) *float64 { return &f }

func newService(t testing.TB, q sessionquery.Querier, cfg service.Config) *service.Service {
	t.Helper()
	s, err := service.New(q, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func str(s string) *string { return &s }

func ids(cs []service.Candidate) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.SessionID)
	}
	return out
}

// A world listing, in order: me (the agent), o1 (other cwd), n1 (no cwd), s1 (same cwd),
// o2, s2, n2.
func rankWorld() *sessionquerytest.World {
	o2 := session("o2", str("/W"), 4)
	o2.TitleError = str("title store down")
	return &sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{
		session("me", str("/w"), 0),
		withTitle(session("o1", str("/x"), 1), "Other one"),
		session("n1", nil, 2),
		withTitle(session("s1", str("/w"), 3), "Same one"),
		o2,
		withTitle(session("s2", str("/w"), 5), ""),
		withTitle(session("n2", nil, 6), "ΣΊΣΥΦΟΣ İstanbul"),
	}}
}

func TestListCandidatesRanking(t *testing.T) {
	w := world(rankWorld())
	s := newService(t, w, service.Config{})
	got, err := s.ListCandidates(context.Background(), service.Agent{ID: "me", CWD: str("/w")}, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []service.Candidate{
		{SessionID: "s1", Label: "Same one", CWD: str("/w"), CreatedAt: 3},
		{SessionID: "s2", Label: "", CWD: str("/w"), CreatedAt: 5}, // an empty title stays ""
		{SessionID: "n1", Label: "n1", CreatedAt: 2},               // no title: the id
		{SessionID: "n2", Label: "ΣΊΣΥΦΟΣ İstanbul", CreatedAt: 6},
		{SessionID: "o1", Label: "Other one", CWD: str("/x"), CreatedAt: 1},
		{SessionID: "o2", Label: "o2", CWD: str("/W"), CreatedAt: 4}, // title failure: the id
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	// An agent without cwd ranks cwd-less sessions first and every other after, in order.
	got, _ = s.ListCandidates(context.Background(), service.Agent{ID: "me"}, "", 0)
	if d := cmp.Diff([]string{"n1", "n2", "o1", "s1", "o2", "s2"}, ids(got)); d != "" {
		t.Errorf("no agent cwd (-want +got)\n%s", d)
	}
	// Self is excluded even when the agent's id is not first, and an unknown agent excludes nothing.
	got, _ = s.ListCandidates(context.Background(), service.Agent{ID: "s1", CWD: str("/x")}, "", 0)
	if d := cmp.Diff([]string{"o1", "n1", "n2", "me", "o2", "s2"}, ids(got)); d != "" {
		t.Errorf("agent s1 (-want +got)\n%s", d)
	}
	got, _ = s.ListCandidates(context.Background(), service.Agent{ID: "nobody", CWD: str("/w")}, "", 0)
	if len(got) != 7 {
		t.Errorf("unknown agent: %d candidates", len(got))
	}
}

func TestListCandidatesLimit(t *testing.T) {
	w := world(rankWorld())
	s := newService(t, w, service.Config{CandidateLimit: 2})
	got, err := s.ListCandidates(context.Background(), service.Agent{ID: "me", CWD: str("/w")}, "", 0)
	if err != nil || !cmp.Equal(ids(got), []string{"s1", "s2"}) {
		t.Errorf("configured limit: %v %v", ids(got), err)
	}
	// Titles are read only for the limited, ranked set when the query is empty.
	if d := cmp.Diff([]string{"s1", "s2"}, w.TitleReads()); d != "" {
		t.Errorf("title reads (-want +got)\n%s", d)
	}
	got, _ = s.ListCandidates(context.Background(), service.Agent{ID: "me", CWD: str("/w")}, "", 3)
	if !cmp.Equal(ids(got), []string{"s1", "s2", "n1"}) {
		t.Errorf("explicit limit 3: %v", ids(got))
	}
	got, _ = s.ListCandidates(context.Background(), service.Agent{ID: "me", CWD: str("/w")}, "", 100)
	if len(got) != 6 {
		t.Errorf("limit above count: %d", len(got))
	}
	for _, lim := range []jsjson.Arg{jsjson.Given(0.0), jsjson.Given(-1.0), jsjson.Given(1.5), jsjson.Given(9007199254740992.0), jsjson.Given("5"), jsjson.Given(nil)} {
		_, err := s.ListCandidatesValue(context.Background(), service.Agent{ID: "me"}, jsjson.Arg{}, lim)
		if !errors.Is(err, errcode.InvalidReference) || err.Error() != "candidate limit must be a positive safe integer" {
			t.Errorf("limit %#v: %v; want INVALID_REFERENCE", lim.Value, err)
		}
	}
	// The typed form checks the same bounds: negative and past MaxSafeInteger fail, the
	// largest safe integer is a limit like any other.
	for _, lim := range []int{-3, service.MaxSafeInteger + 1} {
		if _, err := s.ListCandidates(context.Background(), service.Agent{ID: "me"}, "", lim); !errors.Is(err, errcode.InvalidReference) || err.Error() != "candidate limit must be a positive safe integer" {
			t.Errorf("typed limit %d: %v", lim, err)
		}
	}
	if got, err := s.ListCandidates(context.Background(), service.Agent{ID: "me"}, "", service.MaxSafeInteger); err != nil || len(got) != 6 {
		t.Errorf("typed limit MaxSafeInteger: %v, %v", ids(got), err)
	}
	// The limit is checked before the query's type, and before any call.
	before := len(w.TitleReads())
	_, err = s.ListCandidatesValue(context.Background(), service.Agent{ID: "me"}, jsjson.Given(5.0), jsjson.Given(0.0))
	if !errors.Is(err, errcode.InvalidReference) || len(w.TitleReads()) != before {
		t.Errorf("limit before query: %v", err)
	}
	_, err = s.ListCandidatesValue(context.Background(), service.Agent{ID: "me"}, jsjson.Given(nil), jsjson.Arg{})
	var te *errcode.TypeError
	if !errors.As(err, &te) {
		t.Errorf("null query: %v; want a TypeError", err)
	}
}

func TestListCandidatesQuery(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		{"ONE", []string{"s1", "o1"}},                                  // titles, case-insensitively
		{"/w", []string{"s1", "s2", "o2"}},                             // cwd, and "/W" lowercases to "/w"
		{"N", []string{"s1", "n1", "n2", "o1"}},                        // ids n1, n2; titles "Same one", "Other one"
		{"me", []string{"s1"}},                                         // "Same one"; the agent itself is excluded
		{"\u03c3\u03af\u03c3\u03c5\u03c6\u03bf\u03c2", []string{"n2"}}, // "σίσυφος": Σ before a space is final ς
		{"\u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3", []string{"n2"}}, // the query lowercases the same way
		{"\u03c3\u03af\u03c3\u03c5\u03c6\u03bf\u03c3 ", nil},           // a medial σ does not match ς
		{"i\u0307stanbul", []string{"n2"}},                             // İ lowercases to i + U+0307
		{"\u0130STANBUL", []string{"n2"}},
		{"istanbul", nil},      // ... so a plain i does not match
		{"o2", []string{"o2"}}, // a failed title falls back to the id
		{"title store", nil},   // error text is no label
		{"zzz", nil},
	}
	for _, tt := range tests {
		w := world(rankWorld())
		s := newService(t, w, service.Config{})
		got, err := s.ListCandidates(context.Background(), service.Agent{ID: "me", CWD: str("/w")}, tt.query, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := tt.want
		if want == nil {
			want = []string{}
		}
		if d := cmp.Diff(want, ids(got)); d != "" {
			t.Errorf("query %q (-want +got)\n%s", tt.query, d)
		}
		// With a query every listed session but self has its title read, in listing order.
		if d := cmp.Diff([]string{"o1", "n1", "s1", "o2", "s2", "n2"}, w.TitleReads()); d != "" {
			t.Errorf("query %q: title reads (-want +got)\n%s", tt.query, d)
		}
	}
	// The limit applies after filtering and ranking.
	s := newService(t, world(rankWorld()), service.Config{})
	got, _ := s.ListCandidates(context.Background(), service.Agent{ID: "me", CWD: str("/w")}, "n", 2)
	if d := cmp.Diff([]string{"s1", "n1"}, ids(got)); d != "" {
		t.Errorf("query n limit 2 (-want +got)\n%s", d)
	}
}

func TestListCandidatesFailures(t *testing.T) {
	w := world(&sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{session("a", nil, 1)}, ListError: str("index broken")})
	s := newService(t, w, service.Config{})
	_, err := s.ListCandidates(context.Background(), service.Agent{ID: "me"}, "", 0)
	if err == nil || err.Error() != "index broken" || errcode.Of(err) != "" {
		t.Errorf("list failure: %v (code %q); want the plain error", err, errcode.Of(err))
	}
	// Duplicate ids: the seed indexes settlements by position and reads past their end.
	w = world(&sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{session("a", nil, 1), session("a", nil, 2), session("b", nil, 3)}})
	s = newService(t, w, service.Config{})
	_, err = s.ListCandidates(context.Background(), service.Agent{ID: "me"}, "", 0)
	var te *errcode.TypeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "status") {
		t.Errorf("duplicate ids: %v; want a TypeError", err)
	}
	// Cancelled before listing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = s.ListCandidates(ctx, service.Agent{ID: "me"}, "", 0)
	if !errors.Is(err, errcode.Cancelled) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// A querier whose title read blocks until the context ends: cancellation during the title
// read ends the call with CANCELLED.
type blockingTitles struct{ sessionquery.Querier }

func (b blockingTitles) ReadTitleSnapshots(ctx context.Context, ids []string) ([]sessionquery.TitleSettlement, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestListCandidatesCancelledDuringTitles(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	q := blockingTitles{world(rankWorld())}
	s := newService(t, q, service.Config{})
	done := make(chan error)
	go func() {
		_, err := s.ListCandidates(ctx, service.Agent{ID: "me"}, "", 0)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, errcode.Cancelled) {
		t.Errorf("err %v; want CANCELLED", err)
	}
}

func TestCandidateValue(t *testing.T) {
	c := service.Candidate{SessionID: "a", Label: "A", CWD: str("/w"), CreatedAt: 5}
	if got := mustJSON(t, c.Value()); got != `{"sessionId":"a","label":"A","cwd":"/w","createdAt":5}` {
		t.Errorf("Value = %s", got)
	}
	c.CWD = nil
	if got := mustJSON(t, c.Value()); got != `{"sessionId":"a","label":"A","createdAt":5}` {
		t.Errorf("Value without cwd = %s", got)
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := jsjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
