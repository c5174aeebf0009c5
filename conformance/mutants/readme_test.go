package mutants

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestREADMEMutantCount: the number of mutants the READMEs say diff finds (TestDiffFindsEveryMutant
// runs every one) is the number there are; it said 101 while there were 126.
func TestREADMEMutantCount(t *testing.T) {
	n := strconv.Itoa(len(allMutants()))
	for name, want := range map[string]string{ // line breaks anywhere between the words
		"../../README.md":    `each of the kit's\s+` + n + `\s+mutants`,
		"../../README.zh.md": `全部\s*` + n + `\s*个\s*变异体`,
	} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(want).Match(b) {
			t.Errorf("%s does not match %q: there are %s mutants", name, want, n)
		}
	}
}
