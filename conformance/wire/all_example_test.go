package wire_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// All walks an object in JavaScript's property order: array-index keys first, ascending.
func ExampleObject_All() {
	o := wire.NewObject().Set("b", 1.0).Set("10", "ten").Set("a", true).Set("2", nil)
	for k, v := range o.All() {
		fmt.Println(k, v)
	}
	// Output:
	// 2 <nil>
	// 10 ten
	// b 1
	// a true
}
