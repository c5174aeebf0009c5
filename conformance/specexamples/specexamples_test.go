package specexamples_test

import (
	"context"
	"github.com/sessionref-kit/sessionref-kit/internal/adaptertest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/specexamples"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// RequireUpstream is the environment variable that makes the published package's run
// mandatory: with SESSIONREF_REQUIRE_UPSTREAM=1 (.ci/run sets it) a missing node-upstream
// install fails the test instead of skipping it.
const RequireUpstream = "SESSIONREF_REQUIRE_UPSTREAM"

func load(t *testing.T) []specexamples.Example {
	t.Helper()
	ex, err := specexamples.Load(spec.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) < 40 {
		t.Fatalf("only %d examples in the spec", len(ex))
	}
	return ex
}

// TestReference runs every example of the spec against the embedded reference, in each
// release the example holds in.
func TestReference(t *testing.T) {
	ex := load(t)
	for _, profile := range specexamples.Profiles {
		t.Run(profile, func(t *testing.T) {
			c, err := adapter.Connect(context.Background(), adapter.InProcess{H: &refadapter.Reference{Profile: protocol.Profile(profile)}})
			if err != nil {
				t.Fatal(err)
			}
			run(t, c, ex, profile)
		})
	}
}

// TestUpstream runs every example against the published package through the node-upstream
// adapter, in each release it installs. Without the install the test is skipped, visibly,
// unless $SESSIONREF_REQUIRE_UPSTREAM is set.
func TestUpstream(t *testing.T) {
	ex := load(t)
	dir, _ := filepath.Abs("../adapters/node-upstream")
	for _, profile := range specexamples.Profiles {
		t.Run(profile, func(t *testing.T) {
			modules := filepath.Join(dir, "node_modules")
			if profile != cases.Profile001 {
				modules = filepath.Join(dir, "profiles", profile, "node_modules")
			}
			if _, err := os.Stat(modules); err != nil {
				msg := "node-upstream adapter not installed for profile " + profile + ": run npm ci in " + filepath.Dir(modules) + " (see its README)"
				if os.Getenv(RequireUpstream) != "" {
					t.Fatal(msg)
				}
				t.Skip(msg)
			}
			c, _ := adaptertest.Connect(t, []string{"node", filepath.Join(dir, "adapter.js"), "--profile", profile}, "", 20*time.Second)
			// The 0.0.1-rc.1 package has no host wiring (spec: "Not covered by the original").
			run(t, c, ex, profile, func(e specexamples.Example) bool {
				return profile == cases.Profile001 && e.Op == protocol.OpHostSend
			})
		})
	}
}

func run(t *testing.T, c *adapter.Client, ex []specexamples.Example, profile string, without ...func(specexamples.Example) bool) {
	n := 0
	for _, e := range ex {
		if !e.AppliesTo(profile) {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			for _, w := range without {
				if w(e) {
					t.Skipf("%s: the implementation has no %s", e, e.Op)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			skip, fail := e.Run(ctx, c)
			if fail != "" {
				t.Error(fail)
			}
			if skip != "" {
				// Every example must run: the implementations the kit knows declare every
				// feature the examples need.
				t.Errorf("%s: not run: %s", e, skip)
			}
		})
		n++
	}
	if n == 0 {
		t.Errorf("no example holds in profile %s", profile)
	}
}

// TestParseRejects: a block that is not a well-formed example fails loudly, never skipped.
func TestParseRejects(t *testing.T) {
	for name, text := range map[string]string{
		"no op":        "```example\n{}\n→ {\"result\": 1}\n```\n",
		"unknown op":   "```example op=nope\n{}\n→ {\"result\": 1}\n```\n",
		"no arrow":     "```example op=uri.encode\n{}\n```\n",
		"bad args":     "```example op=uri.encode\n{\n→ {\"result\": 1}\n```\n",
		"bad want":     "```example op=uri.encode\n{}\n→ {\"result\": 1, \"error\": null}\n```\n",
		"unknown code": "```example op=uri.encode\n{}\n→ {\"error\": \"NOPE\"}\n```\n",
		"unclosed":     "```example op=uri.encode\n{}\n→ {\"result\": 1}\n",
		"attribute":    "```example op=uri.encode colour=red\n{}\n→ {\"result\": 1}\n```\n",
		"profile":      "```example op=uri.encode profile=9.9\n{}\n→ {\"result\": 1}\n```\n",
	} {
		if _, err := specexamples.Parse("x.md", []byte(text)); err == nil {
			t.Errorf("%s: Parse accepted %q", name, text)
		}
	}
}

func TestParse(t *testing.T) {
	text := "# T\n\n- **SR-A-1** One.\n\n  ```example op=uri.decode profile=0.1.0\n  {\"uri\": \"dsh-session:ImEi\"}\n  → {\"result\": \"a\"}\n  ```\n\n" +
		"## U\n\n```example op=prepare subset req=SR-B-2\n{}\n→\n{\"result\": {\"text\": \"…end\"}}\n```\n"
	ex, err := specexamples.Parse("x.md", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) != 2 {
		t.Fatalf("got %d examples", len(ex))
	}
	if e := ex[0]; e.Requirement != "SR-A-1" || e.Op != "uri.decode" || len(e.Profiles) != 1 || e.Profiles[0] != cases.Profile010 || e.Line != 5 || e.Want.Result != "a" {
		t.Errorf("first: %+v", e)
	}
	if e := ex[1]; e.Requirement != "SR-B-2" || !e.Subset || e.N != 2 {
		t.Errorf("second: %+v", e)
	}
	ok := protocol.Response{OK: true, Result: mustObject(t, `{"text": "the end", "more": 1}`)}
	if d := ex[1].Check(ok); d != "" {
		t.Errorf("subset check: %s", d)
	}
	bad := protocol.Response{OK: true, Result: mustObject(t, `{"text": "the end."}`)}
	if d := ex[1].Check(bad); !strings.Contains(d, "ending in") {
		t.Errorf("subset check of a wrong suffix: %q", d)
	}
}

func mustObject(t *testing.T, s string) any {
	t.Helper()
	ex, err := specexamples.Parse("y.md", []byte("```example op=config\n{}\n→ {\"result\": "+s+"}\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	return ex[0].Want.Result
}
