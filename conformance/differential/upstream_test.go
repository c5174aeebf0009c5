package differential

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

func upstream(t *testing.T) *adapter.Process {
	dir, _ := filepath.Abs("../adapters/node-upstream")
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		t.Skip("node-upstream adapter not installed (npm ci in conformance/adapters/node-upstream)")
	}
	p, err := adapter.StartProcess([]string{"node", "adapter.js"}, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	resp, err := p.Call(context.Background(), protocol.Request{ID: 0, Op: protocol.OpHello, Args: jsjson.NewObject().Set("protocol", 1.0)})
	if err != nil || !resp.OK {
		t.Fatalf("hello: %v %v", err, resp.Err)
	}
	return p
}

func TestAgainstUpstream(t *testing.T) {
	node := upstream(t)
	ref := adapter.InProcess{H: &adapter.Reference{}}
	var id int64
	for _, op := range []string{protocol.OpURIEncode, protocol.OpURIDecode, protocol.OpMentionFormat, protocol.OpMentionParse, protocol.OpConfig, protocol.OpCandidates, protocol.OpPrepare} {
		t.Run(op, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				req := gen.Request(rt, op, gen.Options{LoneSurrogates: true})
				id++
				req.ID = id
				want, err := node.Call(context.Background(), req)
				if err != nil {
					rt.Fatalf("upstream: %v\n%s", err, node.Stderr())
				}
				got, _ := ref.Call(context.Background(), req)
				if d := compare.Diff(want, got); d != "" {
					rt.Fatalf("request %s\nupstream message: %v\nreference message: %v\n(-upstream +reference)\n%s", req.Line(), want.Err, got.Err, d)
				}
			})
		})
	}
}
