package mutants

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/differential"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

var (
	diffMutants      = flag.Bool("diffmutants", false, "run TestDiffFindsEveryMutant: diff's engine against every mutant (a few minutes)")
	diffMutantSeed   = flag.Uint64("diffmutants.seed", 1, "rapid seed of TestDiffFindsEveryMutant")
	diffShowRequests = flag.Bool("diffmutants.requests", false, "log each shrunk request TestDiffFindsEveryMutant finds")
	diffNoCorpus     = flag.Bool("diffmutants.nocorpus", false, "TestDiffFindsEveryMutant without the fixture corpus: the generators alone")
	diffShrinkTime   = flag.Duration("diffmutants.shrink", 2*time.Second, "shrink time per difference in TestDiffFindsEveryMutant (diff's default is 30s)")
	// 2 s was too short on a loaded machine: a mutant slowed down on an 80 kB request
	// "differed" by timing out, and its fixture then passed against it.
	diffCallTimeout = flag.Duration("diffmutants.timeout", 5*time.Second, "time a mutant has for one call in TestDiffFindsEveryMutant before its answer is a timeout")
)

// timeoutHandler answers a call that takes longer than d with an error no implementation
// gives, as a process adapter's timeout ends the call: a mutant that hangs is found, not
// waited for.
type timeoutHandler struct {
	h adapter.Handler
	d time.Duration
}

// WireNumbers passes numbers on as their wire text; Handle reads them as doubles for a
// mutant that does not want the text, as adapter.InProcess would.
func (timeoutHandler) WireNumbers() {}

func (th timeoutHandler) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	if _, raw := th.h.(adapter.WireNumbers); !raw {
		req = req.Plain()
	}
	ctx, cancel := context.WithTimeout(ctx, th.d)
	defer cancel()
	ch := make(chan protocol.Response, 1)
	go func() { ch <- th.h.Handle(ctx, req) }()
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		return protocol.Response{ID: req.ID, Err: &protocol.Error{Code: "KIT_TIMEOUT", Message: "the mutant did not answer in " + th.d.String()}}
	}
}

// TestDiffFindsEveryMutant runs the differential engine, as `conformance-runner diff
// --checks 1000` does, between each mutant (A) and the reference (B), op after op in diff's
// order, and requires a difference for every mutant; it logs a table of the requests each
// took to find (within the op that found it, and in total over the ops before it); each
// difference, shrunk and written as a fixture, must pass against the reference and fail
// against the mutant. It runs
// only with -diffmutants, since it takes minutes.
func TestDiffFindsEveryMutant(t *testing.T) {
	if !*diffMutants {
		t.Skip("run with -diffmutants (takes minutes): go test ./conformance/mutants -run TestDiffFindsEveryMutant -diffmutants -v")
	}
	ref, err := adapter.Connect(context.Background(), adapter.InProcess{H: &refadapter.Reference{}})
	if err != nil {
		t.Fatal(err)
	}
	var table []string
	for _, m := range allMutants() {
		t.Run(m.name, func(t *testing.T) { table = append(table, diffMutant(t, m, ref)) })
	}
	t.Logf("requests to detection, seed %d, corpus %v (op that found it; in that op, trap-corpus and generated requests; in total over the ops so far; bytes of the shrunk request; by corpus or generator):\n%-34s %-15s %6s %5s %6s %8s %-9s %s\n%s",
		*diffMutantSeed, !*diffNoCorpus, "mutant", "op", "corpus", "gen", "total", "request", "by", "time", strings.Join(table, "\n"))
}

// diffMutant runs the ops against one mutant until one differs and returns its table row.
func diffMutant(t *testing.T, m mutant, ref *adapter.Client) string {
	{
		c, err := adapter.Connect(context.Background(), adapter.InProcess{H: timeoutHandler{m.Handler(), *diffCallTimeout}})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		total, found := 0, ""
		for _, op := range differential.Ops {
			if op == protocol.OpHostSend && !c.Supports(protocol.FeatureHost) {
				continue
			}
			res := differential.Run(context.Background(), c, ref, differential.Options{Ops: []string{op}, Checks: 1000, Seed: *diffMutantSeed, ShrinkTime: *diffShrinkTime, NoCorpus: *diffNoCorpus})
			o := res.Ops[0]
			total += o.Corpus + o.Requests
			if o.Transport != "" {
				by := "generator"
				if o.Requests == 0 {
					by = "corpus"
				}
				found = fmt.Sprintf("%-15s %6d %5d %6d %8s %-9s", op, o.Corpus, o.Requests, total, "-", by)
				break
			}
			if d := o.Difference; d != nil {
				// The shrunk difference, written as a fixture, passes against the
				// reference and fails against the mutant.
				data, err := d.Marshal("", m.name, "reference", *diffMutantSeed)
				if err != nil {
					t.Fatal(err)
				}
				for _, side := range []struct {
					c    *adapter.Client
					want result.Status
				}{{ref, result.Pass}, {c, result.Fail}} {
					rs, err := differential.CheckFixture(context.Background(), side.c, d.FileName(), data, "")
					if err != nil || len(rs) != 1 || rs[0].Status != side.want {
						t.Errorf("%s: the fixture %s does not %s against %s: %v %+v", m.name, d.FileName(), side.want, side.c.Hello.Name, err, rs)
					}
				}
				by := "generator"
				if d.Source != "" {
					by = "corpus"
				}
				found = fmt.Sprintf("%-15s %6d %5d %6d %8d %-9s", op, o.Corpus, o.Requests, total, len(d.Request.Line()), by)
				if *diffShowRequests {
					t.Logf("shrunk request: %s", d.Request.Line())
				}
				break
			}
		}
		if found == "" {
			t.Errorf("SURVIVED %s (%s): no difference in %d requests", m.name, m.mistake, total)
			found = fmt.Sprintf("%-15s %6s %5s %6d %8s %-9s", "-", "-", "-", total, "-", "-")
		}
		return fmt.Sprintf("%-34s %s  %s", m.name, found, time.Since(start).Round(10*time.Millisecond))
	}
}
