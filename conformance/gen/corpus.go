package gen

import (
	"slices"
	"sync"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// CorpusRequest is one request of the fixture corpus and the fixture case it comes from.
type CorpusRequest struct {
	Request protocol.Request
	// Source is the fixture case's full name (file/case), Traps the traps it is built for
	// and Requirements the spec ids it checks.
	Source       string
	Traps        []string
	Requirements []string
}

type corpusEntry struct {
	CorpusRequest
	loneSurrogates bool
	profiles       []string
}

// corpus holds, per op, the requests of the kit's fixture cases (fixtures/*.yaml), read once
// per process. Among them are the cases built for a porting trap (fixtures/traps-*.yaml,
// spec/porting-traps.md): the inputs where one language's default differs from
// JavaScript's, exhaustive where the set is finite (every code point whose lowercase the
// contract changes, every Cased or Case_Ignorable one in the final-sigma contexts, every
// whitespace candidate); the others hold each requirement's boundary cases.
var corpus = sync.OnceValue(func() map[string][]corpusEntry {
	out := map[string][]corpusEntry{}
	files, err := cases.Load(fixtures.FS)
	if err != nil {
		return out
	}
	for _, f := range files {
		for _, c := range f.Cases {
			out[f.Op] = append(out[f.Op], corpusEntry{
				CorpusRequest: CorpusRequest{
					Request:      protocol.Request{Op: f.Op, Args: c.Args},
					Source:       f.FullName(c),
					Traps:        c.Traps,
					Requirements: c.Requirements,
				},
				loneSurrogates: slices.Contains(f.Features(c), protocol.FeatureLoneSurrogates),
				profiles:       c.Profiles,
			})
		}
	}
	return out
})

// Corpus returns, in fixture order, the fixture corpus's requests for op that apply under
// profile ("" is the default release) and that o allows (no lone surrogates unless
// o.LoneSurrogates). diff replays them before it generates requests, as a fuzzer starts
// from its seed corpus: whatever the seed, it is never weaker than the fixtures, and a port
// that trips a catalogued trap is found on the trap's telling inputs. Each request is a copy
// the caller may keep.
func Corpus(op string, o Options, profile string) []CorpusRequest {
	var out []CorpusRequest
	for _, e := range corpus()[op] {
		if e.loneSurrogates && !o.LoneSurrogates {
			continue
		}
		if c := (cases.Case{Profiles: e.profiles}); !c.AppliesTo(profile) {
			continue
		}
		r := e.CorpusRequest
		r.Request.Args = wire.Clone(r.Request.Args).(*wire.Object)
		r.Traps, r.Requirements = slices.Clone(r.Traps), slices.Clone(r.Requirements)
		out = append(out, r)
	}
	return out
}
