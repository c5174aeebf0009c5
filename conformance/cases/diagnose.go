package cases

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// maxDiagnoseCalls bounds the extra calls one failing case may cost: as many as the largest
// chunk has inputs (128 numbers in an array id), so its every input can be named.
const maxDiagnoseCalls = 128

// ChunkPart is one input of a chunked trap case: the case's request with the i-th part of
// its query and of its one listed title, or with its i-th number.
type ChunkPart struct {
	Args         *wire.Object
	Query, Title string
	// Number is the part's number as the request carries it (a float64 or a wire.Number), for
	// a chunk of numbers; nil otherwise.
	Number any
}

// Input describes the part's input for a report: the query and the title, or the number.
func (p ChunkPart) Input() string {
	if p.Number != nil {
		return "number " + describeNumber(p.Number)
	}
	return fmt.Sprintf("query %s (%s) against title %s", wire.Quote(p.Query), codePoints(p.Query), wire.Quote(p.Title))
}

// describeNumber writes a number as JavaScript does, with its IEEE 754 bits, and a wire text
// with the double it reads as.
func describeNumber(v any) string {
	f, ok := v.(float64)
	text := ""
	if n, isText := v.(wire.Number); isText {
		text = string(n)
		f, _ = n.Float64()
		ok = true
	}
	if !ok {
		return fmt.Sprint(v)
	}
	s := fmt.Sprintf("%s (bits 0x%016x)", wire.NumberString(f), math.Float64bits(f))
	if text != "" {
		s = fmt.Sprintf("written %s on the wire, read as %s", text, s)
	}
	return s
}

// ChunkParts splits a chunked trap case into its inputs. A chunked case is a candidates
// request whose query and whose one listed title are several inputs joined by "|" or " "
// (fixtures/traps-case.yaml, traps-sigma.yaml): input i is the same request with the i-th
// part of each; or a chunk of numbers (fixtures/traps-numbers-*.yaml): a uri.encode or
// mention.format whose id is an array of numbers (input i: the i-th number as the id), or a
// prepare of two or more sources whose surfaces have no events (input i: the i-th reference
// alone). It returns nil when the case is not chunked. Both the fixture runner (to
// name the first differing input of a failing case) and diff (to shrink a difference found
// on the fixture corpus) read chunks through it.
func ChunkParts(op string, args *wire.Object) []ChunkPart {
	if args == nil {
		return nil
	}
	switch op {
	case protocol.OpURIEncode, protocol.OpMentionFormat:
		return numberIDParts(args)
	case protocol.OpPrepare:
		return seqParts(args)
	case protocol.OpCandidates:
	default:
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
		// Plain: the oracle takes numbers as doubles, as JSON.parse reads a number text.
		want := oracle.Handle(ctx, protocol.Request{ID: 1, Op: op, Args: p.Args}.Plain())
		got, err := c.Do(ctx, op, p.Args)
		if err != nil {
			return "", nil
		}
		if (Want{OK: want.OK, Result: want.Result}).Explain(got) != nil && want.OK {
			return p.Input(), &p
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

func isNumber(v any) bool {
	switch v.(type) {
	case float64, wire.Number:
		return true
	}
	return false
}

// numberIDParts: an id that is an array of two or more numbers, one part per number.
func numberIDParts(args *wire.Object) []ChunkPart {
	v, _ := args.Get("sessionId")
	ns, _ := v.([]any)
	if len(ns) < 2 {
		return nil
	}
	for _, n := range ns {
		if !isNumber(n) {
			return nil
		}
	}
	out := make([]ChunkPart, len(ns))
	for i, n := range ns {
		single := wire.Clone(args).(*wire.Object)
		single.Set("sessionId", n)
		out[i] = ChunkPart{Args: single, Number: n}
	}
	return out
}

// seqParts: a prepare whose two or more references name sessions whose surfaces have a
// number capturedThroughSeq and no events, one part per reference.
func seqParts(args *wire.Object) []ChunkPart {
	rv, _ := args.Get("references")
	rs, _ := rv.([]any)
	wv, _ := args.Get("world")
	w, _ := wv.(*wire.Object)
	if len(rs) < 2 || w == nil {
		return nil
	}
	sv, _ := w.Get("sessions")
	sessions, _ := sv.([]any)
	seqs := map[string]any{}
	for _, s := range sessions {
		so, _ := s.(*wire.Object)
		if so == nil {
			return nil
		}
		hv, _ := so.Get("header")
		h, _ := hv.(*wire.Object)
		id, _ := h.Get("id")
		idText, ok := id.(string)
		surf, _ := so.Get("surface")
		sf, _ := surf.(*wire.Object)
		if !ok || sf == nil {
			return nil
		}
		ev, _ := sf.Get("events")
		seq, _ := sf.Get("capturedThroughSeq")
		if evs, _ := ev.([]any); len(evs) > 0 || !isNumber(seq) {
			return nil
		}
		seqs[idText] = seq
	}
	out := make([]ChunkPart, len(rs))
	for i, r := range rs {
		ro, _ := r.(*wire.Object)
		id, _ := ro.Get("sessionId")
		seq, ok := seqs[fmt.Sprint(id)]
		if ro == nil || !ok {
			return nil
		}
		single := wire.Clone(args).(*wire.Object)
		single.Set("references", []any{wire.Clone(ro)})
		out[i] = ChunkPart{Args: single, Number: seq}
	}
	return out
}
