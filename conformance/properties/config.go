package properties

import (
	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

func configProperties() []Property {
	return []Property{
		{Name: "config/effective", Area: "config", Requirements: []string{"SR-CONF-1", "SR-CONF-2", "SR-CONF-3"}, check: propConfigEffective},
	}
}

// propConfigEffective: a config whose keys are absent, null or positive safe integers (at
// most 3 for maxReferences) is accepted and echoed with defaults filled in; a key with any
// other number fails with SESSION_REFERENCE_INVALID_CONFIG.
func propConfigEffective(e *env, t *rapid.T) {
	cfg := wire.NewObject()
	// The defaults (SR-CONF-1), replaced key by key by the valid values drawn.
	want := struct{ MaxReferences, CandidateLimit, MaxReferenceBytes int }{contract.MaxReferences, contract.DefaultCandidateLimit, contract.DefaultMaxReferenceBytes}
	valid := true
	for _, k := range []struct {
		name string
		dst  *int
		max  int
	}{{"maxReferences", &want.MaxReferences, contract.MaxReferences}, {"candidateLimit", &want.CandidateLimit, contract.MaxSafeInteger}, {"maxReferenceBytes", &want.MaxReferenceBytes, contract.MaxSafeInteger}} {
		switch rapid.IntRange(0, 4).Draw(t, k.name+".kind") {
		case 0: // absent
		case 1:
			cfg.Set(k.name, nil)
		case 2, 3:
			n := rapid.SampledFrom([]int{1, 2, 3, k.max}).Draw(t, k.name+".good")
			if n > k.max {
				n = k.max
			}
			cfg.Set(k.name, float64(n))
			*k.dst = n
		default:
			bad := rapid.SampledFrom([]float64{0, -1, 2.5, float64(k.max) + 1, 1e300}).Draw(t, k.name+".bad")
			cfg.Set(k.name, bad)
			valid = false
		}
	}
	args := wire.NewObject()
	if cfg.Len() > 0 || rapid.Bool().Draw(t, "emptyObject?") {
		args.Set("config", cfg)
	}
	resp := e.call(t, protocol.OpConfig, args)
	if !valid {
		if resp.OK || resp.Err == nil || resp.Err.Code != contract.InvalidConfig {
			e.failf(t, protocol.OpConfig, args, resp, `{"code":"SESSION_REFERENCE_INVALID_CONFIG"}`, "config accepted a value that is not a positive safe integer in range")
		}
		return
	}
	wantObj := wire.NewObject().Set("maxReferences", float64(want.MaxReferences)).
		Set("candidateLimit", float64(want.CandidateLimit)).Set("maxReferenceBytes", float64(want.MaxReferenceBytes))
	wantLine, _ := wire.Marshal(wantObj)
	o, ok := resp.Result.(*wire.Object)
	if !resp.OK || !ok {
		e.failf(t, protocol.OpConfig, args, resp, string(wantLine), "config rejected a valid configuration")
	}
	for _, k := range wantObj.Keys() {
		w, _ := wantObj.Get(k)
		g, _ := o.Get(k)
		if g != w {
			e.failf(t, protocol.OpConfig, args, resp, string(wantLine), "effective %s is %v, want %v", k, g, w)
		}
	}
}
