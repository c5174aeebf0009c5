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
// others have completed, all successfully.
func TestQueryCancelOnRead(t *testing.T) {
	q := testQuery(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q.CancelOnFirstCall(cancel, 2, "b")
	var wg sync.WaitGroup
	errs := make([]error, 3)
	wg.Go(func() { _, errs[0] = q.ReadSurface(ctx, "b") })
	_, errs[1] = q.ReadSurface(ctx, "a")
	// One of the two others has returned: the held read must not have aborted. (Were it to
	// abort after one, it would do so before this read returned, whose end it counted.)
	if ctx.Err() != nil {
		t.Fatal("cancelled before the other reads completed")
	}
	_, errs[2] = q.ReadSurface(ctx, "c")
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

// during-read, another read fails: nothing aborts (the service must fail on that read); the
// held read pends until Release and then ends without the abort.
func TestQueryDuringReadFailureDoesNotAbort(t *testing.T) {
	w, err := protocol.ParseWorld(`{"sessions":[{"header":{"id":"a","createdAt":1}},{"header":{"id":"b","createdAt":2},"readError":"gone"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, eager := range []bool{true, false} {
		q := NewQuery(World(w))
		q.hold.eager = eager
		ctx, cancel := context.WithCancel(context.Background())
		q.CancelOnFirstCall(cancel, 1, "a")
		held := make(chan error, 1)
		go func() { _, err := q.ReadSurface(ctx, "a"); held <- err }()
		if _, err := q.ReadSurface(ctx, "b"); err == nil {
			t.Fatal("read of b succeeded")
		}
		select {
		case err := <-held:
			t.Fatalf("eager %v: held read returned %v before Release", eager, err)
		default:
		}
		q.Release()
		if err := <-held; !errors.Is(err, errReleased) {
			t.Errorf("eager %v: held read: %v; want errReleased", eager, err)
		}
		if ctx.Err() != nil {
			t.Errorf("eager %v: the signal was aborted after a failed read", eager)
		}
		cancel()
	}
}

// at-call: the held call cancels as it is made, and a call made before it returns only after
// the abort.
func TestQueryCancelInFirstCall(t *testing.T) {
	q := testQuery(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q.CancelInFirstCall(cancel, "c")
	early := make(chan error, 1)
	go func() {
		_, err := q.ReadSurface(ctx, "a")
		// Returned: the abort must have come first.
		if ctx.Err() == nil {
			err = errors.New("the read of a returned before the abort")
		}
		early <- err
	}()
	q.WaitReads(1, time.Second) // a is made and waiting
	if _, err := q.ReadSurface(ctx, "c"); !errors.Is(err, context.Canceled) {
		t.Fatalf("read of c: %v; want context.Canceled", err)
	}
	if err := <-early; err != nil {
		t.Fatalf("read of a: %v", err)
	}
	if got := q.Reads(); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("reads %v", got)
	}
	// A call made after the abort does not wait.
	if _, err := q.ReadSurface(ctx, "b"); err != nil {
		t.Errorf("read of b: %v", err)
	}
}

// WaitReads returns what it has when the timeout passes.
func TestQueryWaitReadsTimeout(t *testing.T) {
	q := testQuery(t)
	if got := q.WaitReads(1, time.Millisecond); len(got) != 0 {
		t.Errorf("reads %v", got)
	}
}
