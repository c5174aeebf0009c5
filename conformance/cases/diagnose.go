package cases

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// maxDiagnoseCalls bounds the extra calls one failing case may cost.
const maxDiagnoseCalls = 64

// ChunkPart is one input of a chunked trap case: the case's request with the i-th part of
// its query and of its one listed title.
type ChunkPart struct {
	Args         *wire.Object
	Query, Title string
}

// ChunkParts splits a chunked trap case into its inputs. A chunked case is a candidates
// request whose query and whose one listed title are several inputs joined by "|" or " "
// (fixtures/traps-case.yaml, traps-sigma.yaml): input i is the same request with the i-th
// part of each. It returns nil when the case is not chunked. Both the fixture runner (to
// name the first differing input of a failing case) and diff (to shrink a difference found
// on the fixture corpus) read chunks through it.
func ChunkParts(op string, args *wire.Object) []ChunkPart {
	if op != protocol.OpCandidates || args == nil {
		return nil
	}
	qv, _ := args.Get("query")
	q, ok := qv.(string)
	wv, _ := args.Get("world")
	w, _ := wv.(*wire.Object)
	if !ok || w == nil {
		return nil
	}
	sv, _ := w.Get("sessions")
	sessions, _ := sv.([]any)
	ti := -1
	for i, s := range sessions {
		if so, ok := s.(*wire.Object); ok && so.Has("title") {
			if ti >= 0 {
				return nil // more than one titled session: not a chunked case
			}
			ti = i
		}
	}
	if ti < 0 {
		return nil
	}
	tv, _ := sessions[ti].(*wire.Object).Get("title")
	t, ok := tv.(string)
	if !ok {
		return nil
	}
	for _, sep := range []string{"|", " "} {
		qs, ts := strings.Split(q, sep), strings.Split(t, sep)
		if len(qs) < 2 || len(qs) != len(ts) {
			continue
		}
		out := make([]ChunkPart, len(qs))
		for i := range qs {
			single := wire.Clone(args).(*wire.Object)
			single.Set("query", qs[i])
			sw, _ := single.Get("world")
			ss, _ := sw.(*wire.Object).Get("sessions")
			ss.([]any)[ti].(*wire.Object).Set("title", ts[i])
			out[i] = ChunkPart{Args: single, Query: qs[i], Title: ts[i]}
		}
		return out
	}
	return nil
}

// diagnose names the first input of a failing chunked trap case (ChunkParts) that the
// adapter answers differently from the oracle (the embedded reference), and returns that
// part. It returns "" and nil when the case is not chunked or no single input differs.
func diagnose(ctx context.Context, c *adapter.Client, oracle adapter.Handler, op string, args *wire.Object) (string, *ChunkPart) {
	if oracle == nil {
		return "", nil
	}
	for i, p := range ChunkParts(op, args) {
		if i >= maxDiagnoseCalls || ctx.Err() != nil {
			return "", nil
		}
		want := oracle.Handle(ctx, protocol.Request{ID: 1, Op: op, Args: p.Args})
		got, err := c.Do(ctx, op, p.Args)
		if err != nil {
			return "", nil
		}
		if d := (Want{OK: want.OK, Result: want.Result}).Diff(got); d != "" && want.OK {
			return fmt.Sprintf("query %s (%s) against title %s", wire.Quote(p.Query), codePoints(p.Query), wire.Quote(p.Title)), &p
		}
	}
	return "", nil
}

// codePoints writes s as U+XXXX code points (code units for lone surrogates).
func codePoints(s string) string {
	var parts []string
	for len(s) > 0 {
		r, n := wire.DecodeRune(s)
		parts = append(parts, fmt.Sprintf("U+%04X", r))
		s = s[n:]
	}
	return strings.Join(parts, " ")
}
