package goport_test

import (
	"errors"
	"fmt"
	"math"
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
	cfg.CandidateLimit = goport.Some(goport.IntOf(10))
	limit, _ := cfg.CandidateLimit.Or(goport.IntOf(50)).Positive()
	fmt.Println(cfg.MaxReferences.Or(goport.IntOf(3)).Raw, limit)
	if n, ok := cfg.MaxReferenceBytes.Get(); !ok {
		fmt.Println("maxReferenceBytes not set", n.Raw)
	}
	// Output:
	// 3 10
	// maxReferenceBytes not set 0
}

// portError is a port's own error type: it reports its code through goport.Coder.
type portError struct{ code string }

func (e portError) Error() string                { return "port: " + e.code }
func (e portError) SessionReferenceCode() string { return e.code }

func TestCodeOfCoder(t *testing.T) {
	err := fmt.Errorf("prepare: %w", portError{"SESSION_REFERENCE_READ_FAILED"})
	if got := goport.CodeOf(err); got != goport.ReadFailed {
		t.Errorf("CodeOf(a port's own error) = %q, want %q", got, goport.ReadFailed)
	}
	if got := goport.CodeOf(errors.New("plain")); got != "" {
		t.Errorf("CodeOf(plain) = %q, want none", got)
	}
}

func TestInt(t *testing.T) {
	for _, tc := range []struct {
		raw      float64
		want     int
		safe     bool
		positive bool
	}{
		{3, 3, true, true},
		{0, 0, true, false},
		{math.Copysign(0, -1), 0, true, false},
		{-2, -2, true, false},
		{1.5, 0, false, false},
		{1<<53 - 1, 1<<53 - 1, true, true},
		{1 << 53, 0, false, false},
		{math.Inf(1), 0, false, false},
		{math.NaN(), 0, false, false},
	} {
		n := goport.IntOf(tc.raw)
		v, ok := n.Int()
		if v != tc.want || ok != tc.safe {
			t.Errorf("IntOf(%v).Int() = %d, %v; want %d, %v", tc.raw, v, ok, tc.want, tc.safe)
		}
		if _, ok := n.Positive(); ok != tc.positive {
			t.Errorf("IntOf(%v).Positive() ok = %v, want %v", tc.raw, ok, tc.positive)
		}
		if n.Raw != tc.raw && tc.raw == tc.raw {
			t.Errorf("IntOf(%v).Raw = %v", tc.raw, n.Raw)
		}
	}
}

func ExampleInt() {
	var cfg goport.Config
	cfg.MaxReferences = goport.Some(goport.IntOf(2))
	cfg.CandidateLimit = goport.Some(goport.IntOf(1.5)) // JavaScript passed 1.5
	if n, ok := cfg.MaxReferences.Value.Positive(); ok {
		fmt.Println("maxReferences", n)
	}
	if _, ok := cfg.CandidateLimit.Value.Positive(); !ok {
		fmt.Println("candidateLimit", cfg.CandidateLimit.Value.Raw, "is not a positive safe integer")
	}
	// Output:
	// maxReferences 2
	// candidateLimit 1.5 is not a positive safe integer
}

func TestOptionalPointers(t *testing.T) {
	if p := (goport.Optional[string]{}).Ptr(); p != nil {
		t.Errorf("an unset Optional's Ptr = %v, want nil", *p)
	}
	o := goport.Some("x")
	p := o.Ptr()
	if p == nil || *p != "x" {
		t.Fatalf("Some(x).Ptr() = %v", p)
	}
	*p = "changed"
	if o.Value != "x" {
		t.Error("Ptr shares the Optional's value")
	}
	if got := goport.FromPtr(p); !got.Set || got.Value != "changed" {
		t.Errorf("FromPtr(&changed) = %+v", got)
	}
	if got := goport.FromPtr[string](nil); got.Set {
		t.Errorf("FromPtr(nil) = %+v, want unset", got)
	}
}
