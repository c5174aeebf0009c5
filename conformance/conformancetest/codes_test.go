package conformancetest_test

import (
	"slices"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
)

// goport spells the contract's codes again so that a port imports nothing of the reference;
// they must stay the reference's seven, spelled alike.
func TestGoportCodesAreTheContracts(t *testing.T) {
	ported := []goport.Code{goport.InvalidConfig, goport.InvalidReference, goport.SelfReference, goport.TooMany, goport.ReadFailed, goport.BudgetExceeded, goport.Cancelled}
	var got, want []string
	for _, c := range ported {
		got = append(got, string(c))
	}
	for _, c := range errcode.All {
		want = append(want, string(c))
	}
	if !slices.Equal(got, want) {
		t.Errorf("goport codes %q, the contract's %q", got, want)
	}
}
