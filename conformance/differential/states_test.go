package differential_test

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/differential"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

var coverageSeeds = flag.Int("coverage.seeds", 1, "number of fixed rapid seeds TestDefaultRunReachesEveryState runs (5 for the full set)")

// coverageSeedSet are the fixed rapid seeds the default-run coverage is asserted for.
var coverageSeedSet = []uint64{1, 2, 3, 0x5eed0001, 0x5eed0002}

// TestDefaultRunReachesEveryState runs diff with its default number of requests (reference
// against reference) for the ops with named states and requires every named state reached:
// a state a default run does not reach is a mistake the default run cannot find.
func TestDefaultRunReachesEveryState(t *testing.T) {
	t.Parallel() // beside TestAgainstUpstream, which mostly waits for Node
	ops := []string{protocol.OpMentionParse, protocol.OpCandidates, protocol.OpPrepare}
	for _, seed := range coverageSeedSet[:min(*coverageSeeds, len(coverageSeedSet))] {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			res := differential.Run(context.Background(), reference(t, ""), reference(t, ""), differential.Options{Ops: ops, Seed: seed, Semantics: refadapter.Semantics{}})
			for _, o := range res.Ops {
				if o.Difference != nil || o.Transport != "" || o.Requests != differential.DefaultChecks {
					t.Fatalf("%s: %+v", o.Op, o)
				}
				reached, never := o.Coverage()
				if len(never) > 0 {
					var counts []string
					for _, r := range reached {
						counts = append(counts, fmt.Sprintf("%s: %d", r.State, r.Requests))
					}
					t.Errorf("%s: never reached %q\nreached:\n  %s", o.Op, never, strings.Join(counts, "\n  "))
				}
				if testing.Verbose() {
					for _, r := range reached {
						if r.Requests < 8 {
							t.Logf("%s: rare state %q: %d", o.Op, r.State, r.Requests)
						}
					}
				}
				for st := range o.States {
					if !contains(differential.States[o.Op], st) {
						t.Errorf("%s: Classify names %q, which States does not list", o.Op, st)
					}
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Classify names states from what it reads in the request: a few requests with known states.
func TestClassify(t *testing.T) {
	parse := func(text string) protocol.Request {
		return protocol.Request{Op: protocol.OpMentionParse, Args: wire.NewObject().Set("text", text)}
	}
	for _, c := range []struct {
		req  protocol.Request
		want []string
		not  []string
	}{
		{parse("hi"), []string{"no reference"}, []string{"markdown mention"}},
		{parse("@[a\\]b](dsh-session:ImEi)"), []string{"markdown mention", "escaped bracket in label", "label escape"}, []string{"bare URI"}},
		{parse("@[a\\](dsh-session:ImEi)"), []string{"unclosed bracket", "bare URI"}, []string{"markdown mention"}},
		{parse("@[a\nb](dsh-session:ImEi)dsh-session:ImEi"), []string{"label across lines", "bare URI touching a mention", "same session twice", "markdown and bare URIs in one text"}, nil},
		{parse("dsh-session:ImEi\u00a0 dsh-session:ImEi\u0085"), []string{"bare URI ended by JavaScript whitespace", "URI followed by a space only other languages know"}, nil},
		{parse("@[x](dsh-session:ImEi) @[y](dsh-session:ImE)"), []string{"invalid URI in a mention", "error after a valid reference"}, nil},
	} {
		got := differential.Classify(c.req, protocol.Response{OK: true}, refadapter.Semantics{})
		for _, w := range c.want {
			if !contains(got, w) {
				t.Errorf("%s: want state %q, got %q", c.req.Line(), w, got)
			}
		}
		for _, w := range c.not {
			if contains(got, w) {
				t.Errorf("%s: state %q not expected, got %q", c.req.Line(), w, got)
			}
		}
	}
}

// Classify never panics, whatever the request holds.
func TestClassifyAnyRequest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		op := rapid.SampledFrom([]string{protocol.OpMentionParse, protocol.OpCandidates, protocol.OpPrepare}).Draw(t, "op")
		args := wire.NewObject()
		for _, k := range []string{"text", "world", "agent", "references", "config", "limit", "query", "cancel"} {
			if rapid.Bool().Draw(t, k+"?") {
				args.Set(k, rapid.SampledFrom([]any{nil, "x", 1.0, []any{nil}, wire.NewObject()}).Draw(t, k))
			}
		}
		differential.Classify(protocol.Request{Op: op, Args: args}, protocol.Response{}, refadapter.Semantics{})
	})
}

// Without Semantics a run measures no coverage, and says so (nil States, no Coverage), rather
// than reporting every state unreached; Classify names the states that need none.
func TestNoSemanticsNoCoverage(t *testing.T) {
	res := differential.Run(context.Background(), reference(t, ""), reference(t, ""), differential.Options{
		Ops: []string{protocol.OpMentionParse, protocol.OpPrepare}, Checks: 20, Seed: 1, NoCorpus: true})
	for _, o := range res.Ops {
		if o.Difference != nil || o.Requests != 20 {
			t.Fatalf("%s: %+v", o.Op, o)
		}
		if reached, never := o.Coverage(); o.States != nil || reached != nil || never != nil {
			t.Errorf("%s: states %v, coverage %v / %v without Semantics", o.Op, o.States, reached, never)
		}
	}
	parse := protocol.Request{Op: protocol.OpMentionParse, Args: wire.NewObject().Set("text", "hi")}
	if got := differential.Classify(parse, protocol.Response{OK: true}, nil); !contains(got, "no reference") {
		t.Errorf("mention.parse without Semantics: %q", got)
	}
	prep := protocol.Request{Op: protocol.OpPrepare, Args: wire.NewObject().Set("world", wire.NewObject()).
		Set("agent", wire.NewObject().Set("id", "a")).Set("references", []any{})}
	if got := differential.Classify(prep, protocol.Response{OK: true}, nil); len(got) > 0 {
		t.Errorf("prepare without Semantics: %q", got)
	}
	if got := differential.Classify(prep, protocol.Response{OK: true}, refadapter.Semantics{}); !contains(got, "no references") {
		t.Errorf("prepare with Semantics: %q", got)
	}
}
