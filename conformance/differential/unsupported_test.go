package differential_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/differential"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
)

// picky is the reference, but for prepare requests with a cancel mode or a maxReferenceBytes,
// which it answers ADAPTER_UNSUPPORTED with a message naming each.
type picky struct{ refadapter.Reference }

func (p *picky) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if req.Op == protocol.OpPrepare {
		if c, ok := req.Arg("cancel"); ok {
			return protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: "cancel mode " + c.(string) + " is not supported"}}
		}
		if strings.Contains(string(req.Line()), `"maxReferenceBytes"`) {
			return protocol.Response{ID: req.ID, Err: &protocol.Error{Code: protocol.CodeUnsupported, Message: "budgets (maxReferenceBytes) are not supported"}}
		}
	}
	return p.Reference.Handle(ctx, req)
}

// The requests a side answers ADAPTER_UNSUPPORTED are grouped by message, and each group is
// shown by a request rapid shrank: the cancel group by one whose args are little more than
// the cancel mode.
func TestUnsupportedExamplesAreGroupedAndShrunk(t *testing.T) {
	a, err := adapter.Connect(context.Background(), adapter.InProcess{H: &picky{}})
	if err != nil {
		t.Fatal(err)
	}
	res := differential.Run(context.Background(), a, reference(t, ""), differential.Options{Ops: []string{protocol.OpPrepare}, Checks: 300, Seed: 3})
	o := res.Ops[0]
	if o.Difference != nil || o.Transport != "" || o.Unsupported == 0 {
		t.Fatalf("want unsupported answers and no difference, got %+v", o)
	}
	total := 0
	msgs := map[string]differential.UnsupportedExample{}
	for _, e := range o.UnsupportedExamples {
		total += e.Count
		msgs[e.Message] = e
		if e.Side != "A" {
			t.Errorf("side %q, want A", e.Side)
		}
	}
	if total != o.Unsupported {
		t.Errorf("groups hold %d requests, %d were unsupported", total, o.Unsupported)
	}
	budget, ok := msgs["budgets (maxReferenceBytes) are not supported"]
	if !ok {
		t.Fatalf("no budget group in %+v", o.UnsupportedExamples)
	}
	if !strings.Contains(string(budget.Request.Line()), "maxReferenceBytes") {
		t.Errorf("the budget example does not hold a budget: %s", budget.Request.Line())
	}
	for _, mode := range []string{protocol.CancelBefore, protocol.CancelDuringRead} {
		e, ok := msgs["cancel mode "+mode+" is not supported"]
		if !ok {
			t.Errorf("no group for cancel mode %s in %+v", mode, o.UnsupportedExamples)
			continue
		}
		line := string(e.Request.Line())
		if c, _ := e.Request.Arg("cancel"); c != mode {
			t.Errorf("the %s example has cancel %v: %s", mode, c, line)
		}
		// Shrunk: an empty world or one small session, few references, no budget.
		if len(line) > 400 || strings.Contains(line, "maxReferenceBytes") {
			t.Errorf("the %s example is not shrunk (%d bytes): %s", mode, len(line), line)
		}
	}
}
