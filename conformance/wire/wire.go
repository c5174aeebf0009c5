// Package wire holds the kit's JSON values: what the adapter protocol (spec/protocol.md)
// carries between the kit and an implementation, read the way JSON.parse reads it and written
// the way JSON.stringify writes it.
//
// A value is nil (null), bool, float64, Number (a number kept as the text it is written
// with), string, []any or *Object. A string is a JavaScript string, a sequence of UTF-16 code
// units that may hold lone surrogates, kept in a Go string as canonical WTF-8: UTF-8, plus the
// three-byte form ED A0..BF xx for a lone surrogate, a surrogate pair always written as its
// four-byte code point. Well-formed strings are therefore plain UTF-8, and equal JavaScript
// strings are equal Go strings.
//
// The kit reads and writes the wire with this package alone, not with the reference's JSON
// code: a fault in the reference's codec cannot hide itself by being on both sides of a
// comparison (conformance/refadapter checks that the two agree).
package wire

import (
	"cmp"
	"fmt"
	"iter"
	"slices"
	"strconv"
)

// Value is a JSON value as described in the package documentation.
type Value = any

// Object is a JSON object as JSON.parse makes it: keys in JavaScript's property order
// (array-index keys in ascending numeric order, then the others in the order first set), and
// a key set twice keeps its first place and its last value.
//
// An Object also remembers the order its keys were first set (KeysAsSet), which is the order
// of a JSON text it was parsed from. Marked with KeepOrder, it is written in that order: a
// text JSON.stringify never writes (`{"b":1,"1":2}`), which JSON.parse reads back as the same
// object, as a Number is a text JSON.stringify never writes for the same double. The kit
// sends such a text to check that an implementation orders a caller's object as JavaScript
// does, not as its parser met the keys (TRAP-JSON-KEY-ORDER).
type Object struct {
	keys      []string
	vals      []any
	index     map[string]int // built past a few keys; scanning is cheaper below
	keepOrder bool           // written in the order set (KeepOrder)
}

const scanKeys = 8

// NewObject returns an empty Object.
func NewObject() *Object { return &Object{} }

func (o *Object) lookup(key string) int {
	if o == nil {
		return -1
	}
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	return slices.Index(o.keys, key)
}

// newObject returns the object of keys and their values, built at its size: a repeated key
// keeps its first place and its last value, as Set would give. Past scanKeys the index is
// made once at the number of keys and each key costs one map operation, not the lookup,
// insert and repeated growth of n calls to Set.
func newObject(keys []string, vals []any) *Object {
	n := len(keys)
	o := &Object{keys: make([]string, 0, n), vals: make([]any, 0, n)}
	if n <= scanKeys {
		for i, k := range keys {
			o.Set(k, vals[i])
		}
		return o
	}
	o.index = make(map[string]int, n)
	for i, k := range keys {
		if j, ok := o.index[k]; ok {
			o.vals[j] = vals[i]
			continue
		}
		o.index[k] = len(o.keys)
		o.keys = append(o.keys, k)
		o.vals = append(o.vals, vals[i])
	}
	return o
}

// Set sets key to v and returns o, so calls chain.
func (o *Object) Set(key string, v any) *Object {
	if i := o.lookup(key); i >= 0 {
		o.vals[i] = v
		return o
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
	if o.index != nil {
		o.index[key] = len(o.keys) - 1
	} else if len(o.keys) > scanKeys {
		o.index = make(map[string]int, 2*len(o.keys))
		for i, k := range o.keys {
			o.index[k] = i
		}
	}
	return o
}

// Get returns the value of key and whether o has it.
func (o *Object) Get(key string) (any, bool) {
	if i := o.lookup(key); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Has reports whether o has key.
func (o *Object) Has(key string) bool { return o.lookup(key) >= 0 }

// Len returns the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// Keys returns a copy of the keys in JavaScript's property order (Object.keys).
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	order := o.keyOrder()
	if order == nil {
		return slices.Clone(o.keys)
	}
	keys := make([]string, len(order))
	for i, j := range order {
		keys[i] = o.keys[j]
	}
	return keys
}

// KeysAsSet returns a copy of the keys in the order they were first set: for an object
// parsed from JSON text, the order of the text.
func (o *Object) KeysAsSet() []string {
	if o == nil {
		return nil
	}
	return slices.Clone(o.keys)
}

// KeepOrder marks o to be written (Marshal, Append) with its keys in the order they were
// first set rather than in JavaScript's property order, and returns o. Only the text
// changes: Keys, All and Get, and what JSON.parse reads from the text, stay as they are.
func (o *Object) KeepOrder() *Object {
	o.keepOrder = true
	return o
}

// KeepsOrder reports whether o is written in the order its keys were set (KeepOrder).
func (o *Object) KeepsOrder() bool { return o != nil && o.keepOrder }

// KeepOrder marks every object in v (v itself, and those its arrays and objects hold) with
// Object.KeepOrder, in place, and returns v.
func KeepOrder(v any) any {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			KeepOrder(e)
		}
	case *Object:
		if x == nil {
			return v
		}
		x.keepOrder = true
		for _, e := range x.vals {
			KeepOrder(e)
		}
	}
	return v
}

// All yields the keys and their values in JavaScript's property order, as Keys and Get
// would, without copying the keys: converting a large document walks it once.
func (o *Object) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		if o == nil {
			return
		}
		if order := o.keyOrder(); order != nil {
			for _, j := range order {
				if !yield(o.keys[j], o.vals[j]) {
					return
				}
			}
			return
		}
		for i, k := range o.keys {
			if !yield(k, o.vals[i]) {
				return
			}
		}
	}
}

// Values yields the values in the order their keys were set, not in property order: for a
// walk that does not depend on the order (a search), it spares the sort of the keys that
// All and Keys make when some are array indexes.
func (o *Object) Values() iter.Seq[any] {
	return func(yield func(any) bool) {
		if o == nil {
			return
		}
		for _, v := range o.vals {
			if !yield(v) {
				return
			}
		}
	}
}

// keyOrder returns the positions of the keys in property order, or nil when that is the
// order they were set in (no key is an array index), which spares the common case a sort.
func (o *Object) keyOrder() []int {
	if o == nil || !slices.ContainsFunc(o.keys, isIndexKey) {
		return nil
	}
	order := make([]int, len(o.keys))
	for i := range order {
		order[i] = i
	}
	// Stable: the other keys keep their order; the index keys go first, by value.
	slices.SortStableFunc(order, func(a, b int) int {
		ia, aok := indexKey(o.keys[a])
		ib, bok := indexKey(o.keys[b])
		switch {
		case aok && bok:
			return cmp.Compare(ia, ib)
		case aok:
			return -1
		case bok:
			return 1
		}
		return 0
	})
	return order
}

func isIndexKey(k string) bool { _, ok := indexKey(k); return ok }

// indexKey reports whether k is an array index, the canonical decimal form of an integer
// from 0 to 2³²−2, which JavaScript lists before the other keys.
func indexKey(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || k[0] < '0' || k[0] > '9' || (k[0] == '0' && len(k) > 1) {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return n, err == nil && n <= 1<<32-2
}

// Number is a JSON number kept as the text it is written with ("2.0", "1e1", "-0"), so the
// kit can send a number in a form JSON.stringify never writes. Marshal writes it verbatim;
// Parse never returns one; ParseExact returns every number as one.
type Number string

// Float64 returns the double JSON.parse reads from n, or an error when n is not a JSON number.
func (n Number) Float64() (float64, error) {
	v, err := Parse(string(n))
	if f, ok := v.(float64); ok && err == nil {
		return f, nil
	}
	return 0, fmt.Errorf("wire: %q is not a JSON number", string(n))
}

// Arg is a request argument: Set false when the request leaves it out (JavaScript's
// undefined), else Value, null included.
type Arg struct {
	Set   bool
	Value any
}

// Given returns the Arg that is set to v.
func Given(v any) Arg { return Arg{Set: true, Value: v} }

// Clone returns a deep copy of v.
func Clone(v any) any { return mapLeaves(v, nil) }

// Plain returns v with every Number replaced by the double it reads as, the value a reader of
// v's JSON text gets; v is not changed.
func Plain(v any) any {
	return mapLeaves(v, func(e any) any {
		if n, ok := e.(Number); ok {
			f, _ := n.Float64()
			return f
		}
		return e
	})
}

// mapLeaves copies the arrays and objects of v, and replaces each other value by leaf(value)
// when leaf is not nil.
func mapLeaves(v any, leaf func(any) any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapLeaves(e, leaf)
		}
		return out
	case *Object:
		if x == nil {
			return x
		}
		out := &Object{keys: slices.Clone(x.keys), vals: make([]any, len(x.vals)), keepOrder: x.keepOrder}
		for i, e := range x.vals {
			out.vals[i] = mapLeaves(e, leaf)
		}
		if x.index != nil {
			out.index = make(map[string]int, len(x.index))
			for k, i := range x.index {
				out.index[k] = i
			}
		}
		return out
	}
	if leaf == nil {
		return v
	}
	return leaf(v)
}
