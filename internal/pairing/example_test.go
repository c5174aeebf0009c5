package pairing_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/internal/pairing"
)

// Paths are printed the way git quotes them; readable letters stay as they are.
func ExampleQuotePath() {
	fmt.Println(pairing.QuotePath("docs/zh/指南.md"))
	fmt.Println(pairing.QuotePath("evil\x1b[2K\rconfirmed/README.md"))
	fmt.Println(pairing.QuotePath("bad\xffname/README.md"))
	// Output:
	// docs/zh/指南.md
	// "evil\033[2K\rconfirmed/README.md"
	// "bad\377name/README.md"
}
