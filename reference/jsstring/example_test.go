package jsstring_test

import (
	"fmt"

	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

// A Builder joins a high surrogate with a low one written after it, as "\uD83D" + "\uDE00"
// gives "😀" in JavaScript.
func ExampleBuilder() {
	var b js.Builder
	b.WriteUnit(0xD83D)
	fmt.Printf("%q %d\n", b.String(), js.Length(b.String()))
	b.WriteUnit(0xDE00)
	fmt.Printf("%q %04X\n", b.String(), js.UTF16(b.String()))
	fmt.Println(js.Concat("\xed\xa0\xbd", "\xed\xb8\x80") == "😀")
	// Output:
	// "\xed\xa0\xbd" 1
	// "😀" [D83D DE00]
	// true
}

// ToLower applies Greek final sigma the way String.prototype.toLowerCase does.
func ExampleToLower() {
	fmt.Println(js.ToLower("ΟΔΥΣΣΕΥΣ"))
	fmt.Println(js.ToLower("ΣΑΣ. Σ"))
	fmt.Println(js.ToLower("İ") == "i\u0307")
	// Output:
	// οδυσσευς
	// σας. σ
	// true
}

func ExampleToWellFormed() {
	s := js.FromUTF16([]uint16{'a', 0xD800, 'b'})
	fmt.Printf("%+q %+q %d %v\n", s, js.ToWellFormed(s), js.ByteLength(s), js.WellFormed(s))
	// Output:
	// "a\xed\xa0\x80b" "a\ufffdb" 5 false
}
