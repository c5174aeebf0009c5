// Package sessionquery is the session-query service the session-reference service consumes
// (the harness's ctx.sessionQuery) as a Go interface, Querier, and the records it returns
// (spec SR-QUERY-*). Package sessionquerytest holds an in-memory Querier for tests.
package sessionquery

import (
	"context"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// Header is a session header. The service reads ID, CWD and CreatedAt; Extra holds any other
// keys the harness's header has (version, parentSession …), which the service never reads.
type Header struct {
	ID        string
	CWD       *string // nil when the session recorded no working directory
	CreatedAt float64 // Unix epoch milliseconds
	Extra     *jsjson.Object
}

// Record is one listed session.
type Record struct {
	Header    Header
	Live      bool
	Persisted bool
}

// TitleSettlement is the outcome of reading one session's title: the seed's
// PromiseSettledResult-like record. Err non-nil is a rejected settlement.
type TitleSettlement struct {
	SessionID string
	Err       error
	Session   Header
	Title     *string // nil when the session has no title
}

// Surface is a session's folded current surface: the header, the last sequence number the
// capture covers (nil for null), and the surface events, each a JSON value of one of the
// shapes user/message, assistant/message or tool/result (see spec SR-QUERY-3). Events stay
// JSON values because the projection must treat malformed events as the seed does.
type Surface struct {
	Session            Header
	CapturedThroughSeq *float64
	Events             []any
}

// Querier is the part of the session-query service the session-reference service calls.
//
// ListSessions resolves to the listed records in the order the service keeps (the harness
// lists newest first). ReadTitleSnapshots resolves to one settlement per unique id, in
// first-occurrence order. ReadSurface reads one session's surface; the seed passes it no
// cancellation signal, so the service stops waiting on ctx but an implementation may ignore it.
type Querier interface {
	ListSessions(ctx context.Context) ([]Record, error)
	ReadTitleSnapshots(ctx context.Context, ids []string) ([]TitleSettlement, error)
	ReadSurface(ctx context.Context, id string) (Surface, error)
}
