package conformance_test

import (
	"context"
	"fmt"
	"os"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
)

// badPadding is the reference with one porting mistake: uri.encode pads its base64.
type badPadding struct{ refadapter.Reference }

func (b *badPadding) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	resp := b.Reference.Handle(ctx, req)
	if s, ok := resp.Result.(string); ok && req.Op == protocol.OpURIEncode {
		for len(s)%4 != 0 {
			s += "="
		}
		resp.Result = s
	}
	return resp
}

// Certify an implementation from Go, in-process: the same checks as conformance-runner,
// here narrowed to the URI fixtures. Each failure names the flags that rerun it alone.
func ExampleRunner() {
	r, err := conformance.NewRunner(conformance.Runner{Handler: &badPadding{}, Match: "^fixtures/uri-encode/"})
	if err != nil {
		panic(err)
	}
	rep := r.Run(context.Background())
	fmt.Println("exit", rep.Verdict.Code)
	for _, c := range rep.Cases {
		if c.Name == "uri-encode/empty-id" {
			fmt.Println(c.Status, c.Name, c.Input)
			fmt.Println(c.Message) // c.Diff says how the answers differ
			fmt.Println("rerun: --run", report.RerunRegexp(c))
		}
	}
	// Output:
	// exit 1
	// fail uri-encode/empty-id {"id":3,"op":"uri.encode","args":{"sessionId":""}}
	// result differs
	// rerun: --run ^fixtures/uri-encode/empty-id$
}

// A signal handler cancels the run's context with an Interrupt: the run ends interrupted,
// with the exit code a shell gives the signal, and its report lists what did not run.
func ExampleInterrupt() {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(conformance.Interrupt{Signal: os.Interrupt}) // as if SIGINT came at once
	rep := conformance.Runner{Parts: []string{conformance.PartProperties}}.Run(ctx)
	fmt.Println(rep.Verdict.Outcome, rep.Verdict.Code, rep.Interrupted, rep.Totals.Total == rep.Totals.NotCovered)
	// Output:
	// interrupted 130 SIGINT true
}

// A difference the kit's trap checks found, explained for a Java port: Java has a final-sigma
// rule (decided with other data), so only that trap is named.
func ExampleTrapHints() {
	for _, h := range conformance.TrapHints([]string{"TRAP-CASE-FINAL-SIGMA-PROPERTIES", "TRAP-CASE-FINAL-SIGMA-MISSING"}, "java") {
		fmt.Println(h)
	}
	// Output:
	// looks like final sigma decided with other Cased/Case_Ignorable data, or an approximation: TRAP-CASE-FINAL-SIGMA-PROPERTIES
}
