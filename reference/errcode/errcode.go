// Package errcode holds the seven stable failure codes of the session-reference contract
// (spec SR-ERR-*) and the typed error that carries them.
//
// A Code is itself an error, so callers test with errors.Is:
//
//	if errors.Is(err, errcode.BudgetExceeded) { … }
package errcode

import "errors"

// Code is a stable routing code of the contract, spelled exactly as the seed spells it.
type Code string

// The contract's codes, in the order the seed's type declaration lists them.
const (
	InvalidConfig    Code = "SESSION_REFERENCE_INVALID_CONFIG"
	InvalidReference Code = "SESSION_REFERENCE_INVALID_REFERENCE"
	SelfReference    Code = "SESSION_REFERENCE_SELF_REFERENCE"
	TooMany          Code = "SESSION_REFERENCE_TOO_MANY"
	ReadFailed       Code = "SESSION_REFERENCE_READ_FAILED"
	BudgetExceeded   Code = "SESSION_REFERENCE_BUDGET_EXCEEDED"
	Cancelled        Code = "SESSION_REFERENCE_CANCELLED"
)

// All lists every contract code.
var All = []Code{InvalidConfig, InvalidReference, SelfReference, TooMany, ReadFailed, BudgetExceeded, Cancelled}

// Error makes a Code usable as an errors.Is target.
func (c Code) Error() string { return string(c) }

// Valid reports whether c is one of the contract's codes.
func (c Code) Valid() bool {
	for _, k := range All {
		if c == k {
			return true
		}
	}
	return false
}

// Error is a session-reference failure: the seed's SessionReferenceError. Message is the
// human-readable diagnosis (its wording is implementation-defined); Code is the contract;
// Err is the optional cause.
type Error struct {
	Code    Code
	Message string
	Err     error
}

// New returns an *Error with the given code and message.
func New(code Code, message string) *Error { return &Error{Code: code, Message: message} }

// Wrap returns an *Error with the given code and message that unwraps to cause.
func Wrap(code Code, message string, cause error) *Error {
	return &Error{Code: code, Message: message, Err: cause}
}

// Error implements the error interface.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is matches the error's own Code, so errors.Is(err, errcode.TooMany) works through wrapping.
func (e *Error) Is(target error) bool {
	c, ok := target.(Code)
	return ok && c == e.Code
}

// Of returns the contract code carried by err, or "" when err carries none: a plain error
// (the seed's TypeError or Error) maps to a null code on the wire.
func Of(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// TypeError is a failure the seed raises as a JavaScript TypeError or Error rather than a
// session-reference error, mostly for an argument of the wrong JavaScript type: it carries no
// contract code (Of returns "", a null code on the wire) and its message is the one the seed's
// runtime gives.
type TypeError struct{ Msg string }

// Error implements the error interface.
func (e *TypeError) Error() string { return e.Msg }
