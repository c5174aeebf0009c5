package cases_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
)

// Where the contract writes a medial "σ", a port with no final-sigma rule answers as the
// contract does: only the other trap can explain a difference there.
func ExamplePartTraps() {
	traps := []string{"TRAP-CASE-FINAL-SIGMA-PROPERTIES", "TRAP-CASE-FINAL-SIGMA-MISSING"}
	fmt.Println(cases.PartTraps(traps, cases.ChunkPart{Query: "A0Σ", Title: "a0σ"}))
	fmt.Println(cases.PartTraps(traps, cases.ChunkPart{Query: "AΣ", Title: "aς"}))
	// Output:
	// [TRAP-CASE-FINAL-SIGMA-PROPERTIES]
	// [TRAP-CASE-FINAL-SIGMA-PROPERTIES TRAP-CASE-FINAL-SIGMA-MISSING]
}
