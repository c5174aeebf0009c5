package refadapter

import (
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// The kit's JSON values (package wire) and the reference's (package jsjson) are the same JSON
// in two representations, so that neither side's codec vouches for itself. These two
// functions are the one crossing between them.

// ToReference returns the reference's form of a wire value.
func ToReference(v any) any {
	switch x := v.(type) {
	case *wire.Object:
		if x == nil {
			return (*jsjson.Object)(nil)
		}
		// Sized and walked without copying the keys: a world's events are most of a
		// request, and this is where they become the reference's values.
		o := jsjson.NewObjectSize(x.Len())
		for k, e := range x.All() {
			o.Set(k, ToReference(e))
		}
		return o
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = ToReference(e)
		}
		return out
	case wire.Number:
		return jsjson.Number(x)
	}
	return v
}

// FromReference returns the wire form of a reference value.
func FromReference(v any) any {
	switch x := v.(type) {
	case *jsjson.Object:
		if x == nil {
			return (*wire.Object)(nil)
		}
		o := wire.NewObject()
		for _, k := range x.Keys() {
			e, _ := x.Get(k)
			o.Set(k, FromReference(e))
		}
		return o
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = FromReference(e)
		}
		return out
	case jsjson.Number:
		return wire.Number(x)
	}
	return v
}

// request is a protocol request whose arguments the reference reads in its own values; the
// embedded Request keeps the wire form (a world document is read from it).
type request struct {
	protocol.Request
	args *jsjson.Object
}

// worldArg is the argument read only as it came (wireArg), by readWorldArg: in process the
// kit's values, whose events World converts once; over stdio its text (RawArg), decoded once
// into the reference's values. Converting it here too would copy every world twice, most of
// the time of a large request over stdio.
const worldArg = "world"

func newRequest(req protocol.Request) request {
	args := jsjson.NewObjectSize(req.Args.Len())
	for k, v := range req.Args.All() {
		if k != worldArg {
			args.Set(k, ToReference(v))
		}
	}
	return request{Request: req, args: args}
}

// Arg returns an argument in the reference's values; the world is not one (see worldArg).
func (r request) Arg(key string) (any, bool) { return r.args.Get(key) }

// wireArg returns an argument as it came on the wire.
func (r request) wireArg(key string) (any, bool) { return r.Request.Arg(key) }
