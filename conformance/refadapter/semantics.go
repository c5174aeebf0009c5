package refadapter

import "github.com/sessionref-kit/sessionref-kit/reference/jsstring"

// The contract's string semantics, for the kit's input generators to aim at (which code points
// the contract lowercases, which count as cased or case-ignorable for the final sigma, which
// a mention's `\s` and `.` treat specially). They are the contract's behaviour, not the kit's
// representation of strings (conformance/wire), so the kit takes them from the embedded
// reference, through this wiring, instead of stating them a second time. A generator only aims
// with them; the verdict still compares an implementation's answers with the oracle's.

// Lower is the contract's toLowerCase: Unicode full lowercase mapping with the final-sigma
// context and no locale; lone surrogates are kept.
func Lower(s string) string { return jsstring.ToLower(s) }

// IsCased reports whether r has the Unicode property Cased, as the contract's final sigma reads it.
func IsCased(r rune) bool { return jsstring.IsCased(r) }

// IsCaseIgnorable reports whether r has the Unicode property Case_Ignorable, as the contract's
// final sigma reads it.
func IsCaseIgnorable(r rune) bool { return jsstring.IsCaseIgnorable(r) }

// IsSpace reports whether the contract's regular-expression class `\s` matches r.
func IsSpace(r rune) bool { return jsstring.IsSpace(r) }

// IsLineTerminator reports whether r is an ECMAScript LineTerminator, which the contract's
// regular-expression `.` does not match.
func IsLineTerminator(r rune) bool { return jsstring.IsLineTerminator(r) }
