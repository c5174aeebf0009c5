//go:build ignore

// classes.js for Go's regexp (RE2 syntax, default flags).
package main

import (
	"fmt"
	"regexp"
	"strings"
)

func main() {
	for _, c := range [][2]string{{"s", `\s`}, {"dot", `.`}, {"w", `\w`}, {"d", `\d`}} {
		re := regexp.MustCompile(`^` + c[1] + `$`)
		var out []string
		start := -1
		for cp := 0; cp <= 0x110000; cp++ {
			ok := cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF) && re.MatchString(string(rune(cp)))
			if ok && start < 0 {
				start = cp
			}
			if !ok && start >= 0 {
				if start == cp-1 {
					out = append(out, fmt.Sprintf("%x", start))
				} else {
					out = append(out, fmt.Sprintf("%x-%x", start, cp-1))
				}
				start = -1
			}
		}
		fmt.Printf("%s: %s\n", c[0], strings.Join(out, " "))
	}
}
