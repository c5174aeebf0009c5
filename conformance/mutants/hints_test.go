package mutants

import (
	"context"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// speaking is a handler whose hello names language (or drops the bridge's, for "").
type speaking struct {
	adapter.Handler
	language string
}

func (s speaking) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	resp := s.Handler.Handle(ctx, req)
	if req.Op == protocol.OpHello && resp.OK {
		if o, ok := resp.Result.(*wire.Object); ok {
			out := wire.NewObject()
			for _, k := range o.Keys() {
				if k != "language" {
					v, _ := o.Get(k)
					out.Set(k, v)
				}
			}
			if s.language != "" {
				out.Set("language", s.language)
			}
			resp.Result = out
		}
	}
	return resp
}

// A port with Java 17's String.toLowerCase(Locale.ROOT) fails the final-sigma checks: it has
// a rule, decided with other data. No hint may tell it "no final-sigma rule" (what a Java
// port was once told), whether its hello names Java or no language; and every hint names a
// trap that can explain the chunk's first differing input.
func TestHintsAreTrueOfTheLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("certifies a mutant on the case and sigma fixtures (seconds)")
	}
	var java mutant
	for _, m := range trapMutants() {
		if m.name == "trap/java-tolowercase-root-17" {
			java = m
		}
	}
	if java.name == "" {
		t.Fatal("no trap/java-tolowercase-root-17 mutant")
	}
	for _, lang := range []string{"java", ""} {
		r, err := conformance.NewRunner(conformance.Runner{Handler: speaking{java.Handler(), lang},
			Parts: []string{conformance.PartFixtures}, Match: `^fixtures/traps-(sigma|case)/`})
		if err != nil {
			t.Fatal(err)
		}
		rep := r.Run(context.Background())
		sigmaFailures := 0
		for _, c := range rep.Cases {
			if c.Status != result.Fail {
				continue
			}
			if strings.HasPrefix(c.Name, "traps-sigma/") {
				sigmaFailures++
			}
			if len(c.TrapHints) == 0 {
				t.Errorf("language %q: %s failed with no hint", lang, c.Name)
			}
			for _, h := range c.TrapHints {
				if strings.Contains(h, "TRAP-CASE-FINAL-SIGMA-MISSING") || strings.Contains(h, "no final-sigma rule") {
					t.Errorf("language %q: %s hints %q, false of Java", lang, c.Name, h)
				}
				if lang == "" && !strings.Contains(h, "(about ") {
					t.Errorf("no language: %s hints %q without the languages it is about", c.Name, h)
				}
				if lang == "java" && strings.Contains(h, "(about ") {
					t.Errorf("java: %s hints %q with a list of languages", c.Name, h)
				}
			}
		}
		if sigmaFailures == 0 {
			t.Fatalf("language %q: the Java mutant passed every final-sigma check", lang)
		}
	}
}
