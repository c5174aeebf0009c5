package result_test

import (
	"fmt"
	"strings"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

func ExampleClip() {
	got := `{"id":1,"ok":true,"result":"` + strings.Repeat("A", 20_000_000) + `"}`
	fmt.Println(result.Clip(got, 40))
	// Output: {"id":1,"ok":true,"result":"AAAAAAAAAAAA… 20.0 MB dropped
}
