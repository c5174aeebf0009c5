//go:build ignore

// Same output as case.js, with strings.ToLower of the running Go.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for cp := rune(0); cp <= 0x10FFFF; cp++ {
		if cp >= 0xD800 && cp <= 0xDFFF {
			continue
		}
		c := string(cp)
		l := strings.ToLower(c)
		a, b := 0, 0
		if strings.HasSuffix(strings.ToLower("A"+c+"\u03a3"), "\u03c2") {
			a = 1
		}
		if []rune(strings.ToLower("A\u03a3" + c))[1] == '\u03c3' {
			b = 1
		}
		if l != c || a == 1 || b == 1 {
			h := []string{}
			for _, x := range l {
				h = append(h, fmt.Sprintf("%X", x))
			}
			fmt.Fprintf(w, "%X\t%s\t%d%d\n", cp, strings.Join(h, " "), a, b)
		}
	}
}
