package conformance_test

import (
	"testing"

	"github.com/sessionref-kit/sessionref-kit/internal/testadapters"
)

// The fake adapter, this test binary under another name, starts without the init of the
// packages only the tests need (see package testadapters): the tests start it ~90 times.
func TestAdapterStartSkipsHeavyInits(t *testing.T) {
	t.Parallel()
	testadapters.CheckStart(t, fakeAdapter)
}
