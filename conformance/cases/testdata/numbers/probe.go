//go:build ignore

// Go's defaults for a double, one input (16 hex digits, the IEEE 754 bits) a line:
// strconv.FormatFloat(x, 'g', -1, 64) and encoding/json.Marshal(x), tab-separated.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		bits, err := strconv.ParseUint(in.Text(), 16, 64)
		if err != nil {
			panic(err)
		}
		x := math.Float64frombits(bits)
		j, _ := json.Marshal(x)
		fmt.Fprintf(out, "%s\t%s\n", strconv.FormatFloat(x, 'g', -1, 64), j)
	}
}
