// Package readmetest keeps the example outputs the READMEs quote true: a test runs what the
// README shows and Match checks that every quoted line is still what the run prints, so a
// count or a verdict's wording cannot go stale in README.md or README.zh.md.
package readmetest

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Block returns the ```text block of the README at path that contains marker.
func Block(path, marker string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	rest := string(b)
	for {
		i := strings.Index(rest, "```text\n")
		if i < 0 {
			return "", fmt.Errorf("%s: no ```text block holds %q", path, marker)
		}
		rest = rest[i+len("```text\n"):]
		j := strings.Index(rest, "```")
		if j < 0 {
			return "", fmt.Errorf("%s: an unterminated ```text block", path)
		}
		if block := rest[:j]; strings.Contains(block, marker) {
			return block, nil
		}
		rest = rest[j+3:]
	}
}

// What changes from run to run, or with every fixture change, and is shown as an example:
// durations, rapid seeds, the fixture hash (the README shows a prefix).
var variable = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\b\d+\.\d+s\b`), "D"},
	{regexp.MustCompile(`seed \d+`), "seed N"},
	{regexp.MustCompile(`sha256 [0-9a-f]+…?`), "sha256 H"},
}

func normalize(l string) string {
	for _, v := range variable {
		l = v.re.ReplaceAllString(l, v.with)
	}
	return strings.TrimRight(l, " ")
}

// Match checks that every line of block but the "…" elisions appears in output, in order,
// once durations, seeds and the fixture hash are set aside; it returns the first line that
// does not.
func Match(block, output string) error {
	got := strings.Split(output, "\n")
	for i := range got {
		got[i] = normalize(got[i])
	}
	at := 0
	for _, l := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		if strings.TrimSpace(l) == "…" {
			continue
		}
		want := normalize(l)
		found := false
		for ; at < len(got); at++ {
			if got[at] == want {
				found, at = true, at+1
				break
			}
		}
		if !found {
			return fmt.Errorf("the README's line %q is not what the run prints (in this order); the run:\n%s", l, output)
		}
	}
	return nil
}
