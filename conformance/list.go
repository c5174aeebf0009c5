package conformance

import (
	"context"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// List returns the checks a run with r's selection (parts, tags, Match, shard, profile)
// would make, in run order, without an adapter: each with its part, area, name and
// requirements. Checks r.Skip matches are listed too, with the message Skipped. r's
// Command, Handler and Checks are ignored.
func List(ctx context.Context, r Runner) ([]result.Case, error) {
	r.Command, r.Handler, r.Checks = nil, nil, 1
	r.Progress, r.PartDone = nil, nil
	runner, err := NewRunner(r)
	if err != nil {
		return nil, err
	}
	runner.Handler = newLister(runner.Profile)
	rep := runner.Run(ctx)
	out := make([]result.Case, 0, len(rep.Cases))
	for _, c := range rep.Cases {
		l := result.Case{Part: c.Part, Area: c.Area, Name: c.Name, Requirements: c.Requirements}
		if c.Message == suite.Skipped {
			l.Message = c.Message
		}
		out = append(out, l)
	}
	return out, nil
}

func newLister(p protocol.Profile) *lister {
	return &lister{ref: refadapter.Reference{Profile: string(p)}}
}

// lister says hello as the reference does, declaring every feature, and answers every op
// ADAPTER_UNSUPPORTED: a run against it names each check and runs none.
type lister struct{ ref refadapter.Reference }

func (l *lister) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpHello || req.Op == protocol.OpWorldDefine {
		return l.ref.Handle(ctx, req)
	}
	return protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: "listing only"}}
}
