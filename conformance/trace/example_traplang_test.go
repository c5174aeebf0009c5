package trace_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/trace"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// A trap's table says which languages' defaults fall into it: Java decides final sigma (with
// other data), Go does not decide it at all.
func ExampleTrap_Applies() {
	traps, _ := trace.Traps(spec.FS)
	for _, t := range traps {
		if t.ID != "TRAP-CASE-FINAL-SIGMA-MISSING" {
			continue
		}
		for _, lang := range []string{"java", "go"} {
			applies, _ := t.Applies(lang)
			fmt.Println(lang, applies)
		}
		fmt.Println(t.About())
	}
	// Output:
	// java false
	// go true
	// [Go Rust C#/.NET Swift Ruby C++ (std)]
}
