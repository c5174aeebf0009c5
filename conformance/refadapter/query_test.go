package refadapter

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

func testQuery(t *testing.T) *Query {
	t.Helper()
	w, err := protocol.ParseWorld(`{"sessions":[
	 {"header":{"id":"a","createdAt":1}},{"header":{"id":"b","createdAt":2}},{"header":{"id":"c","createdAt":3}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	return NewQuery(World(w))
}

// during-read: the first call stays pending, is recorded, and cancels.
func TestQueryCancelOnFirstCall(t *testing.T) {
	q := testQuery(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q.CancelOnFirstCall(cancel, 0)
	if _, err := q.ListSessions(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("held call: %v; want context.Canceled", err)
	}
	if q.Lists() != 1 {
		t.Errorf("Lists = %d, want 1", q.Lists())
	}
	// Later calls pass through.
	if recs, err := q.ListSessions(context.Background()); err != nil || len(recs) != 3 {
		t.Errorf("second call = %v, %v", recs, err)
	}
}

// during-read with a read id: the held call is that read, and it cancels only once the
// others have completed.
func TestQueryCancelOnRead(t *testing.T) {
	q := testQuery(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q.CancelOnFirstCall(cancel, 2, "b")
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, id := range []string{"b", "a", "c"} {
		if i == 0 {
			wg.Go(func() { _, errs[i] = q.ReadSurface(ctx, id) })
			// The held read waits for two completions: nothing is cancelled yet.
			time.Sleep(3 * abortGrace)
			if ctx.Err() != nil {
				t.Fatal("cancelled before the other reads completed")
			}
			continue
		}
		_, errs[i] = q.ReadSurface(ctx, id)
	}
	wg.Wait()
	if !errors.Is(errs[0], context.Canceled) || errs[1] != nil || errs[2] != nil {
		t.Errorf("errors %v; want the read of b cancelled and the others read", errs)
	}
	got := q.WaitReads(3, time.Second)
	slices.Sort(got)
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("reads %v", got)
	}
}

// at-call: the held call cancels as it is made.
func TestQueryCancelInFirstCall(t *testing.T) {
	q := testQuery(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q.CancelInFirstCall(cancel, "c")
	if _, err := q.ReadSurface(ctx, "a"); err != nil {
		t.Fatalf("read of a: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatal("a call other than the read of c cancelled")
	}
	if _, err := q.ReadSurface(ctx, "c"); !errors.Is(err, context.Canceled) {
		t.Fatalf("read of c: %v; want context.Canceled", err)
	}
	if got := q.Reads(); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("reads %v", got)
	}
}

// WaitReads returns what it has when the timeout passes.
func TestQueryWaitReadsTimeout(t *testing.T) {
	q := testQuery(t)
	if got := q.WaitReads(1, time.Millisecond); len(got) != 0 {
		t.Errorf("reads %v", got)
	}
}
