package goport_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
)

func TestCodeOf(t *testing.T) {
	cause := errors.New("disk on fire")
	for _, tc := range []struct {
		err  error
		want goport.Code
	}{
		{&goport.Error{Code: goport.ReadFailed, Message: "read failed", Err: cause}, goport.ReadFailed},
		{fmt.Errorf("wrapped: %w", &goport.Error{Code: goport.TooMany}), goport.TooMany},
		{goport.InvalidConfig, goport.InvalidConfig},
		{fmt.Errorf("prepare: %w", goport.Cancelled), goport.Cancelled},
		{cause, ""},
		{nil, ""},
	} {
		if got := goport.CodeOf(tc.err); got != tc.want {
			t.Errorf("CodeOf(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	err := fmt.Errorf("x: %w", &goport.Error{Code: goport.SelfReference, Err: cause})
	if !errors.Is(err, goport.SelfReference) || errors.Is(err, goport.TooMany) || !errors.Is(err, cause) {
		t.Error("errors.Is does not see an *Error's code and cause")
	}
}

func ExampleOptional() {
	var cfg goport.Config // every field unset: the defaults
	cfg.CandidateLimit = goport.Some(10.0)
	fmt.Println(cfg.MaxReferences.Or(3), cfg.CandidateLimit.Or(50))
	if n, ok := cfg.MaxReferenceBytes.Get(); !ok {
		fmt.Println("maxReferenceBytes not set", n)
	}
	// Output:
	// 3 10
	// maxReferenceBytes not set 0
}
