package sessionquerytest

import (
	"context"
	"sync"

	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
)

// Recorder is a sessionquery.Querier that records the calls made to it and passes them on
// to Querier: how many listings, the ids of every title read and every surface read, in the
// order the calls were made. A call is recorded before it is passed on, so a call that never
// returns is recorded too. A Recorder is safe for concurrent use if its Querier is.
type Recorder struct {
	sessionquery.Querier

	mu         sync.Mutex
	lists      int
	titleReads []string
	reads      []string
}

// ListSessions counts the listing and lists through Querier.
func (r *Recorder) ListSessions(ctx context.Context) ([]sessionquery.Record, error) {
	r.mu.Lock()
	r.lists++
	r.mu.Unlock()
	return r.Querier.ListSessions(ctx)
}

// ReadTitleSnapshots records ids and reads the titles through Querier.
func (r *Recorder) ReadTitleSnapshots(ctx context.Context, ids []string) ([]sessionquery.TitleSettlement, error) {
	r.mu.Lock()
	r.titleReads = append(r.titleReads, ids...)
	r.mu.Unlock()
	return r.Querier.ReadTitleSnapshots(ctx, ids)
}

// ReadSurface records id and reads the surface through Querier.
func (r *Recorder) ReadSurface(ctx context.Context, id string) (sessionquery.Surface, error) {
	r.mu.Lock()
	r.reads = append(r.reads, id)
	r.mu.Unlock()
	return r.Querier.ReadSurface(ctx, id)
}

// Lists returns how many times ListSessions was called.
func (r *Recorder) Lists() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lists
}

// TitleReads returns the ids passed to ReadTitleSnapshots, over all calls, in call order.
func (r *Recorder) TitleReads() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string{}, r.titleReads...)
}

// Reads returns the ids passed to ReadSurface, in call order. A service that starts its
// reads concurrently makes them in no fixed order.
func (r *Recorder) Reads() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string{}, r.reads...)
}
