package uri_test

import (
	"errors"
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

func ExampleEncode() {
	fmt.Println(uri.Encode("a"))
	fmt.Println(uri.Encode(""))
	fmt.Println(uri.Encode("s-1/é"))
	// Output:
	// dsh-session:ImEi
	// dsh-session:IiI
	// dsh-session:InMtMS_DqSI
}

func ExampleDecode() {
	id, err := uri.Decode("dsh-session:InMtMS_DqSI")
	fmt.Printf("%q %v\n", id, err)
	// Output:
	// "s-1/é" <nil>
}

// A padded payload is not the canonical URI of any id.
func ExampleDecode_rejected() {
	_, err := uri.Decode("dsh-session:IiI=")
	fmt.Println(err)
	fmt.Println(errors.Is(err, errcode.InvalidReference))
	// Output:
	// invalid session reference URI "dsh-session:IiI="
	// true
}
