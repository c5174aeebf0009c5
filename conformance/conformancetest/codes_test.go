package conformancetest_test

import (
	"slices"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
)

// goport spells the contract's codes again so that a port imports nothing of the kit but
// goport; they must stay the contract's seven, spelled alike (conformance/refadapter checks
// that contract.Codes are the reference's).
func TestGoportCodesAreTheContracts(t *testing.T) {
	t.Parallel()
	ported := []goport.Code{goport.InvalidConfig, goport.InvalidReference, goport.SelfReference, goport.TooMany, goport.ReadFailed, goport.BudgetExceeded, goport.Cancelled}
	var got []string
	for _, c := range ported {
		got = append(got, string(c))
	}
	if !slices.Equal(got, contract.Codes) {
		t.Errorf("goport codes %q, the contract's %q", got, contract.Codes)
	}
}
