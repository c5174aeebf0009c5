package jsjson

import (
	"fmt"
	"sort"
	"strconv"
)

// A Value is what JSON.parse returns, in Go: nil (null), bool, float64, string (WTF-8, see
// package jsstring), []any, or *Object. Functions here take and return Values as any.
type Value = any

// Object is a JavaScript object made by JSON.parse: its keys keep JavaScript's property order
// (array-index keys ascending, then the others in the order first written), and a key written
// twice keeps its first place and its last value.
type Object struct {
	keys []string
	vals []any          // vals[i] is the value of keys[i]
	idx  map[string]int // key → index, only past smallObject keys: a map per small object
	// would be most of the memory of a parsed world (a million sessions, two objects each)
}

// smallObject is the number of keys an Object finds by scanning its key list.
const smallObject = 8

// NewObject returns an empty Object.
func NewObject() *Object { return &Object{} }

// NewObjectSize returns an empty Object with room for n keys, for a caller that knows how
// many it will set (a conversion from another representation of the same object).
func NewObjectSize(n int) *Object {
	return &Object{keys: make([]string, 0, n), vals: make([]any, 0, n)}
}

func (o *Object) find(key string) int {
	if o.idx != nil {
		if i, ok := o.idx[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range o.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Set writes key, as an assignment to a JavaScript object property does.
func (o *Object) Set(key string, v any) *Object {
	if i := o.find(key); i >= 0 {
		o.vals[i] = v
		return o
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
	switch {
	case o.idx != nil:
		o.idx[key] = len(o.keys) - 1
	case len(o.keys) > smallObject:
		o.idx = make(map[string]int, len(o.keys))
		for i, k := range o.keys {
			o.idx[k] = i
		}
	}
	return o
}

// Get returns the value of key and whether the object has it.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	if i := o.find(key); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Has reports whether the object has key.
func (o *Object) Has(key string) bool { _, ok := o.Get(key); return ok }

// Len returns the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// Keys returns the keys in JavaScript property order (Object.keys).
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	if !o.hasIndexKey() {
		return append([]string(nil), o.keys...)
	}
	var idx, rest []string
	for _, k := range o.keys {
		if _, ok := arrayIndex(k); ok {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(idx) == 0 {
		return append([]string(nil), o.keys...)
	}
	sort.Slice(idx, func(i, j int) bool {
		a, _ := arrayIndex(idx[i])
		b, _ := arrayIndex(idx[j])
		return a < b
	})
	return append(idx, rest...)
}

// hasIndexKey reports whether a key is an array index, without allocating.
func (o *Object) hasIndexKey() bool {
	for _, k := range o.keys {
		if k != "" && k[0] >= '0' && k[0] <= '9' {
			if _, ok := arrayIndex(k); ok {
				return true
			}
		}
	}
	return false
}

// arrayIndex reports whether k is the canonical decimal form of an integer in [0, 2^32-2]:
// the keys that JavaScript orders first.
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false // before ParseUint, whose error allocates
		}
	}
	n, err := strconv.ParseUint(k, 10, 64)
	if err != nil || n > 1<<32-2 {
		return 0, false
	}
	return n, true
}

// Append appends JSON.stringify(v) for a Value. It fails only on a Go value that is not a
// Value.
func Append(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case float64:
		return AppendNumber(dst, x), nil
	case Number:
		if _, err := x.Float64(); err != nil {
			return dst, err
		}
		return append(dst, x...), nil
	case int:
		return AppendNumber(dst, float64(x)), nil
	case string:
		return AppendString(dst, x), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = Append(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case *Object:
		dst = append(dst, '{')
		keys := x.keys // no copy: nothing writes into them here
		if x.hasIndexKey() {
			keys = x.Keys()
		}
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, k)
			dst = append(dst, ':')
			v, _ := x.Get(k)
			var err error
			if dst, err = Append(dst, v); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	return dst, fmt.Errorf("jsjson: %T is not a JSON value", v)
}

// Marshal returns JSON.stringify(v) for a Value.
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// Clone returns a deep copy of v: structuredClone of a JSON value.
func Clone(v any) any { return deepCopy(v, nil) }

// deepCopy copies v's arrays and objects, replacing each other value by leaf(value) when leaf
// is set.
func deepCopy(v any, leaf func(any) any) any {
	switch x := v.(type) {
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = deepCopy(e, leaf)
		}
		return c
	case *Object:
		c := &Object{keys: append([]string(nil), x.keys...), vals: make([]any, len(x.vals))}
		for i, e := range x.vals {
			c.vals[i] = deepCopy(e, leaf)
		}
		if x.idx != nil {
			c.idx = make(map[string]int, len(x.idx))
			for k, i := range x.idx {
				c.idx[k] = i
			}
		}
		return c
	}
	if leaf != nil {
		return leaf(v)
	}
	return v
}

// TypeOf returns JavaScript's typeof for a Value: "object" for null, arrays and objects.
func TypeOf(v any) string {
	switch v.(type) {
	case bool:
		return "boolean"
	case float64, int, Number:
		return "number"
	case string:
		return "string"
	}
	return "object"
}

// Number is a JSON number kept as the text it is written with ("2.0", "1e2", "-0"), as
// encoding/json's Number is. Append writes it verbatim, so a writer can put on the wire a
// number in a form JSON.stringify never produces; Parse never returns one.
type Number string

// Float64 returns the double that JSON.parse reads from n, or an error when n is not a JSON
// number.
func (n Number) Float64() (float64, error) {
	v, err := Parse(string(n))
	if f, ok := v.(float64); ok && err == nil {
		return f, nil
	}
	return 0, fmt.Errorf("jsjson: %q is not a JSON number", string(n))
}

// Plain returns v with every Number replaced by the double it reads as: the value a reader
// of v's JSON text gets. v itself is not changed; a v without a Number is returned as it is.
func Plain(v any) any {
	if !hasNumber(v) {
		return v
	}
	return deepCopy(v, func(e any) any {
		if n, ok := e.(Number); ok {
			f, _ := n.Float64()
			return f
		}
		return e
	})
}

func hasNumber(v any) bool {
	switch x := v.(type) {
	case Number:
		return true
	case []any:
		for _, e := range x {
			if hasNumber(e) {
				return true
			}
		}
	case *Object:
		if x == nil {
			return false
		}
		for _, e := range x.vals {
			if hasNumber(e) {
				return true
			}
		}
	}
	return false
}
