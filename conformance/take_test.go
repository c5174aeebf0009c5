package conformance_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// Runner.Take is asked once per listed check, in list order; a check it leaves out is
// neither run nor reported (a --skip one included), and each one it takes reaches Progress
// before Take is asked again.
func TestTakeAskedInListOrder(t *testing.T) {
	r := conformance.Runner{Match: "uri|mention-format|features/.*label", Skip: "fixtures/uri-decode/"}
	listed, err := conformance.List(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	var asked, taken, reported []string
	pending := ""
	r.Take = func(part, name string) bool {
		if pending != "" {
			t.Errorf("Take asked for %s/%s before %s reached Progress", part, name, pending)
		}
		id := part + "/" + name
		asked = append(asked, id)
		if len(asked)%3 == 0 {
			return false
		}
		taken, pending = append(taken, id), id
		return true
	}
	r.Progress = func(c result.Case) {
		if id := c.Part + "/" + c.Name; id != pending {
			t.Errorf("Progress with %s, want %q", id, pending)
		}
		pending = ""
	}
	rep := r.Run(context.Background())
	var want []string
	skipped := 0
	for _, c := range listed {
		want = append(want, c.Part+"/"+c.Name)
	}
	if !slices.Equal(asked, want) {
		t.Fatalf("Take asked for %d checks, want the %d listed, in order:\n%v\n%v", len(asked), len(want), asked, want)
	}
	for _, c := range rep.Cases {
		reported = append(reported, c.Part+"/"+c.Name)
		if c.Message == suite.Skipped {
			skipped++
		}
	}
	if !slices.Equal(reported, taken) {
		t.Errorf("reported %d checks, want the %d taken:\n%v\n%v", len(reported), len(taken), reported, taken)
	}
	parts := map[string]bool{}
	for _, c := range listed {
		parts[c.Part] = true
	}
	if len(parts) != 3 || skipped == 0 || len(taken) == len(asked) || len(taken) == 0 {
		t.Errorf("%d taken of %d, %d skipped: the test selects too little", len(taken), len(asked), skipped)
	}
}

// Take chooses checks as they come, after the run's own selection: here only the fixtures
// of uri.decode's padding, which then run and are reported as any others.
func ExampleRunner_take() {
	r := conformance.Runner{
		Match: "fixtures/uri-decode/",
		Take:  func(part, name string) bool { return strings.Contains(name, "padding") },
	}
	rep := r.Run(context.Background())
	fmt.Println(len(rep.Cases) > 0, rep.Totals.Total == len(rep.Cases), rep.Totals.Fail)
	for _, c := range rep.Cases {
		if !strings.Contains(c.Name, "padding") {
			fmt.Println("not taken, but reported:", c.Name)
		}
	}
	// Output: true true 0
}
