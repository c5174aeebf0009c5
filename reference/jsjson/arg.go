package jsjson

// Arg is an argument as a JavaScript function receives it: Set false is undefined (absent
// from the request); Set true passes Value, any Value, null included. The *Value forms of
// the reference's functions take Args, so a caller can pass arguments of the wrong type and
// get the seed's exact outcome.
type Arg struct {
	Set   bool
	Value any
}

// Given returns a set Arg.
func Given(v any) Arg { return Arg{Set: true, Value: v} }
