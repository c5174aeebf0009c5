package refadapter

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// answersAlike fails t unless Reference answers req alike in process (the kit's values) and
// as adapter.Serve hands it a request line (its world a wire.Raw, decoded once by jsjson).
func answersAlike(t fataler, req protocol.Request) {
	ctx := context.Background()
	line := req.Line()
	raw, err := protocol.ParseRequestKeeping(string(line), (&Reference{}).RawArg())
	if err != nil {
		t.Fatalf("ParseRequestKeeping(%s): %v", line, err)
	}
	if w, ok := raw.Arg(worldArg); ok {
		if _, isRaw := w.(wire.Raw); !isRaw {
			t.Fatalf("the world of %s came as %T, not wire.Raw", line, w)
		}
	}
	want, _ := readFailedAlike((&Reference{}).Handle(ctx, req.Plain())).Line()
	got, _ := readFailedAlike((&Reference{}).Handle(ctx, raw)).Line()
	if string(got) != string(want) {
		t.Fatalf("request %s\nanswered over stdio: %s\nin process:          %s", line, got, want)
	}
}

// readFailedAlike blanks a READ_FAILED error's message: when two reads fail, the reference
// reports whichever failure arrives first (service.readAll), which varies from run to run.
func readFailedAlike(resp protocol.Response) protocol.Response {
	if resp.Err != nil && resp.Err.Code == "SESSION_REFERENCE_READ_FAILED" {
		e := *resp.Err
		e.Message = "(a read failed)"
		resp.Err = &e
	}
	return resp
}

func TestRawWorldAnswersAsInProcess(t *testing.T) {
	session := func(surface string) string {
		return `{"sessions":[{"header":{"id":"s1","cwd":"/w","createdAt":1,"x":[1]},"title":"t","surface":` + surface + `}]}`
	}
	for _, world := range []string{
		`null`, `[]`, `"w"`, `{}`, `{"sessions":{}}`, `{"sessions":[1]}`, `{"sessions":[{}]}`,
		`{"$ref":"nope"}`, `{"$ref":1}`, `{"$ref":"k","sessions":[]}`, `{"sessions":[],"extra":1}`,
		session(`null`), session(`1`), session(`{}`), session(`{"events":{}}`), session(`{"events":[],"x":1}`),
		session(`{"capturedThroughSeq":"1","events":[]}`),
		session(`{"capturedThroughSeq":3,"events":[{"type":"user/message","seq":1,"data":{"message":{"role":"user","content":[{"type":"text","text":"hi \ud800 \"q\""}],"source":{"kind":"user"}}}},7,null]}`),
	} {
		v, err := wire.Parse(world)
		if err != nil {
			t.Fatal(err)
		}
		args := wire.NewObject().Set("world", v).Set("agent", wire.NewObject().Set("id", "a").Set("cwd", "/w"))
		answersAlike(t, protocol.Request{ID: 1, Op: protocol.OpCandidates, Args: args})
		answersAlike(t, protocol.Request{ID: 2, Op: protocol.OpPrepare, Args: args.Set("content", "see @[t](dsh-session:s1)").
			Set("references", []any{wire.NewObject().Set("sessionId", "s1")})})
		answersAlike(t, protocol.Request{ID: 3, Op: protocol.OpWorldDefine, Args: wire.NewObject().Set("key", "k").Set("world", v)})
	}
	rapid.Check(t, func(t *rapid.T) {
		op := rapid.SampledFrom([]string{protocol.OpCandidates, protocol.OpPrepare}).Draw(t, "op")
		answersAlike(t, gen.Request(t, op, gen.Options{LoneSurrogates: true}))
	})
}
