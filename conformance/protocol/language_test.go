package protocol_test

import (
	"fmt"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
)

func TestParseLanguage(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		known    bool
	}{
		{"java", "java", true},
		{" Java ", "java", true},
		{"C#", "csharp", true},
		{"c++", "cpp", true},
		{"golang", "go", true},
		{"TS", "typescript", true},
		{"zig", "zig", false},
		{"", "", false},
	} {
		got, known := protocol.ParseLanguage(tc.in)
		if got != tc.want || known != tc.known {
			t.Errorf("ParseLanguage(%q) = %q, %v; want %q, %v", tc.in, got, known, tc.want, tc.known)
		}
	}
}

func ExampleParseLanguage() {
	fmt.Println(protocol.ParseLanguage("Kotlin"))
	fmt.Println(protocol.ParseLanguage("F#"))
	// Output:
	// kotlin true
	// csharp true
}
