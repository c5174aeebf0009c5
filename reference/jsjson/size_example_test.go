package jsjson_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// NewObjectSize only reserves room: the object starts empty and behaves as NewObject's.
func ExampleNewObjectSize() {
	o := jsjson.NewObjectSize(2).Set("id", "s1").Set("role", "user").Set("extra", 1.0)
	fmt.Println(o.Len(), o.Keys())
	// Output: 3 [id role extra]
}
