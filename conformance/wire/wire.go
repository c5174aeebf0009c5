// Package wire holds the kit's JSON values: what the adapter protocol (spec/protocol.md)
// carries between the kit and an implementation. Objects keep their keys in order, a number
// may keep the text it was written as (Number), and a string is a JavaScript string (UTF-16
// code units, lone surrogates included) held in a Go string as WTF-8.
//
// STAGING: for the first step of the move these names stand for the reference's value
// libraries; the kit's own codec replaces them.
package wire

import (
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

type (
	Value       = jsjson.Value
	Object      = jsjson.Object
	Number      = jsjson.Number
	Arg         = jsjson.Arg
	SyntaxError = jsjson.SyntaxError
	Builder     = jsstring.Builder
)

const MaxDepth = jsjson.MaxDepth

var (
	Given              = jsjson.Given
	Parse              = jsjson.Parse
	NewObject          = jsjson.NewObject
	Append             = jsjson.Append
	Marshal            = jsjson.Marshal
	Clone              = jsjson.Clone
	TypeOf             = jsjson.TypeOf
	Plain              = jsjson.Plain
	Quote              = jsjson.Quote
	AppendString       = jsjson.AppendString
	StringSize         = jsjson.StringSize
	AppendNumber       = jsjson.AppendNumber
	NumberString       = jsjson.NumberString
	AppendNumberString = jsjson.AppendNumberString

	DecodeRune     = jsstring.DecodeRune
	DecodeLastRune = jsstring.DecodeLastRune
	IsSurrogate    = jsstring.IsSurrogate
	AppendRune     = jsstring.AppendRune
	FromUTF16      = jsstring.FromUTF16
	UTF16          = jsstring.UTF16
	Length         = jsstring.Length
	Canonical      = jsstring.Canonical
	Normalize      = jsstring.Normalize
	WellFormed     = jsstring.WellFormed
	ToWellFormed   = jsstring.ToWellFormed
	ByteLength     = jsstring.ByteLength
	Concat         = jsstring.Concat
)
