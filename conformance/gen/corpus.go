package gen

import (
	"slices"
	"sync"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// trapCorpus holds, per op, the arguments of the fixture cases built for a porting trap
// (fixtures/traps-*.yaml, spec/porting-traps.md): the inputs where one language's default
// differs from JavaScript's, exhaustive where the set is finite (every code point whose
// lowercase the contract changes, every Cased or Case_Ignorable one in the final-sigma
// contexts, every whitespace candidate). A generated request is sometimes one of them, so
// diff meets each trap at its telling inputs and not only where random strings land.
type trapCorpus struct {
	all, wellFormed []*jsjson.Object // wellFormed: without a lone surrogate
}

var corpus = sync.OnceValue(func() map[string]trapCorpus {
	out := map[string]trapCorpus{}
	files, err := cases.Load(fixtures.FS)
	if err != nil {
		return out
	}
	for _, f := range files {
		for _, c := range f.Cases {
			// prepare's generators own its partitions (their shrunk examples are small);
			// its trap cases stay with the fixtures.
			if len(c.Traps) == 0 || !c.AppliesTo(cases.Profile001) || f.Op == protocol.OpPrepare {
				continue
			}
			tc := out[f.Op]
			tc.all = append(tc.all, c.Args)
			if !slices.Contains(f.Features(c), protocol.FeatureLoneSurrogates) {
				tc.wellFormed = append(tc.wellFormed, c.Args)
			}
			out[f.Op] = tc
		}
	}
	return out
})

// trapRequest draws, one time in eight, the arguments of a trap fixture case of op (a copy),
// or reports false.
func trapRequest(t *rapid.T, op string, o Options) (protocol.Request, bool) {
	tc := corpus()[op]
	list := tc.wellFormed
	if o.LoneSurrogates {
		list = tc.all
	}
	// The corpus is the largest value, so shrinking moves a failure to a generated request,
	// which shrinks further, whenever one fails too.
	if len(list) == 0 || rapid.IntRange(0, 7).Draw(t, "trap corpus?") != 7 {
		return protocol.Request{}, false
	}
	i := rapid.IntRange(0, len(list)-1).Draw(t, "trap case")
	return protocol.Request{Op: op, Args: jsjson.Clone(list[i]).(*jsjson.Object)}, true
}
