package errcode_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
)

func TestCodesSpelledAsSeed(t *testing.T) {
	want := []string{
		"SESSION_REFERENCE_INVALID_CONFIG",
		"SESSION_REFERENCE_INVALID_REFERENCE",
		"SESSION_REFERENCE_SELF_REFERENCE",
		"SESSION_REFERENCE_TOO_MANY",
		"SESSION_REFERENCE_READ_FAILED",
		"SESSION_REFERENCE_BUDGET_EXCEEDED",
		"SESSION_REFERENCE_CANCELLED",
	}
	if len(errcode.All) != len(want) {
		t.Fatalf("len(All) = %d; want %d", len(errcode.All), len(want))
	}
	for i, c := range errcode.All {
		if string(c) != want[i] || c.Error() != want[i] || !c.Valid() {
			t.Errorf("All[%d] = %q (Valid %v); want %q", i, c, c.Valid(), want[i])
		}
	}
	for _, c := range []errcode.Code{"", "SESSION_REFERENCE_", "session_reference_too_many", "ERR_INVALID_ARG_TYPE"} {
		if c.Valid() {
			t.Errorf("%q.Valid() = true", c)
		}
	}
}

func TestErrorMatching(t *testing.T) {
	cause := errors.New("disk on fire")
	e := errcode.Wrap(errcode.ReadFailed, "failed to read referenced session: disk on fire", cause)
	wrapped := fmt.Errorf("prepare: %w", e)
	if !errors.Is(wrapped, errcode.ReadFailed) {
		t.Error("errors.Is(wrapped, ReadFailed) = false")
	}
	if !errors.Is(wrapped, cause) {
		t.Error("errors.Is(wrapped, cause) = false")
	}
	for _, other := range errcode.All {
		if other != errcode.ReadFailed && errors.Is(wrapped, other) {
			t.Errorf("errors.Is(wrapped, %s) = true", other)
		}
	}
	if got := errcode.Of(wrapped); got != errcode.ReadFailed {
		t.Errorf("Of(wrapped) = %q", got)
	}
	if got := e.Error(); got != "failed to read referenced session: disk on fire" {
		t.Errorf("Error() = %q", got)
	}
	if errors.Unwrap(e) != cause {
		t.Error("Unwrap does not return the cause")
	}
	n := errcode.New(errcode.TooMany, "too many")
	if n.Unwrap() != nil || errcode.Of(n) != errcode.TooMany || !errors.Is(n, errcode.TooMany) {
		t.Errorf("New: %+v", n)
	}
	if got := errcode.Of(errors.New("plain")); got != "" {
		t.Errorf("Of(plain) = %q; want empty", got)
	}
	if got := errcode.Of(nil); got != "" {
		t.Errorf("Of(nil) = %q; want empty", got)
	}
	// A Code compares as an error value to itself only.
	if !errors.Is(errcode.Cancelled, errcode.Cancelled) || errors.Is(errcode.Cancelled, errcode.TooMany) {
		t.Error("Code identity matching broken")
	}
}
