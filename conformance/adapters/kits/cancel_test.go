// Package kits holds the tests that run every adapter kit's example port (python, node, java,
// rust) together: here, the cancel fixtures repeated, to show that each kit's cancel modes
// are decided by the calls' outcomes (spec/protocol.md, cancel) and never by scheduling.
package kits

import (
	"context"
	"flag"
	"github.com/sessionref-kit/sessionref-kit/internal/adaptertest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// repeats is how often TestCancelFixturesRepeated sends each case; .ci/run passes 200. The
// test needs each kit's toolchain and builds the Java and Rust examples, so it runs only when
// asked.
var repeats = flag.Int("kits.cancel.repeats", 0, "send each cancel fixture case this many times to each kit's example port (0: skip)")

// kitsFlag limits the run to some kits (comma-separated: python,node,java,rust).
var kitsFlag = flag.String("kits", "python,node,java,rust", "the kits whose example ports TestCancelFixturesRepeated runs")

// tools are the programs each kit's example adapter needs.
var tools = map[string][]string{
	"python": {"python3"},
	"node":   {"node"},
	"java":   {"javac", "java"},
	"rust":   {"cargo"},
}

// Every case of fixtures/prepare-cancel.yaml and fixtures/candidates-cancel.yaml, sent
// *repeats times to one process of each kit's example port, answers as the fixture says every
// time: the racing cases (a failing read beside the held one) are where a rule decided by
// event-loop turns, macrotasks or thread timing answers one way or the other.
func TestCancelFixturesRepeated(t *testing.T) {
	if *repeats <= 0 {
		t.Skip("pass -kits.cancel.repeats N to run (each kit's toolchain is needed; .ci/run passes 200)")
	}
	files, err := cases.Load(fixtures.FS)
	if err != nil {
		t.Fatal(err)
	}
	var picked []cases.File
	for _, f := range files {
		if f.Name == "prepare-cancel.yaml" || f.Name == "candidates-cancel.yaml" {
			picked = append(picked, f)
		}
	}
	if len(picked) != 2 {
		t.Fatalf("found %d of the 2 cancel fixture files", len(picked))
	}
	for _, kit := range strings.Split(*kitsFlag, ",") {
		t.Run(kit, func(t *testing.T) {
			need, ok := tools[kit]
			if !ok {
				t.Fatalf("unknown kit %q (want python, node, java or rust)", kit)
			}
			for _, tool := range need {
				if _, err := exec.LookPath(tool); err != nil {
					t.Fatalf("%s: %v", kit, err)
				}
			}
			script, err := filepath.Abs(filepath.Join("..", kit, "example", "adapter"))
			if err != nil {
				t.Fatal(err)
			}
			// With no input, the script builds the Java and Rust examples and exits, so the
			// timeout below bounds calls, not the build.
			build := exec.Command(script)
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("building the %s example: %v\n%s", kit, err, out)
			}
			c, p := adaptertest.Connect(t, []string{script}, "", 20*time.Second)
			total, wrongAll := 0, 0
			for _, f := range picked {
				for _, fc := range f.Cases {
					wrong, first := 0, ""
					for range *repeats {
						resp, err := c.Do(context.Background(), f.Op, wire.Clone(fc.Args).(*wire.Object))
						if err != nil {
							t.Fatalf("%s: %v\n%s", f.FullName(fc), err, p.Stderr())
						}
						if d := fc.Want.Explain(resp); d != nil {
							if wrong == 0 {
								first = d.String()
							}
							wrong++
						}
					}
					total++
					if wrong > 0 {
						wrongAll++
						t.Errorf("%s: %d/%d answers wrong; the first (-want +got):\n%s", f.FullName(fc), wrong, *repeats, first)
					}
					t.Logf("%s: %d/%d wrong", f.FullName(fc), wrong, *repeats)
				}
			}
			t.Logf("%s: %d of %d cases answered wrong at least once in %d repeats", kit, wrongAll, total, *repeats)
		})
	}
}
