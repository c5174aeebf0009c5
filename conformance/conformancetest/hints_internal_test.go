package conformancetest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// jsonDraft encodes URIs with encoding/json, which escapes <, > and & (TRAP-JSON-ESCAPES).
type jsonDraft struct{}

func (jsonDraft) Features() []goport.Feature { return nil }
func (jsonDraft) EncodeURI(id string) string {
	b, _ := json.Marshal(id)
	return "dsh-session:" + base64.RawURLEncoding.EncodeToString(b)
}
func (jsonDraft) DecodeURI(string) (string, error)      { return "", errors.ErrUnsupported }
func (jsonDraft) FormatMention(goport.Reference) string { panic(errors.ErrUnsupported) }
func (jsonDraft) ParseMentions(string) (goport.ParsedText, error) {
	return goport.ParsedText{}, errors.ErrUnsupported
}
func (jsonDraft) NewService(goport.SessionStore, goport.Config) (goport.Service, error) {
	return nil, errors.ErrUnsupported
}

// TestFailuresAsTheyHappenNameTheirTrap: a go test subtest reports its failure from the run's
// progress, before the runner adds the report's trap hints at the end; without them a Go port
// whose encoding/json escaped "<" saw two base64 strings and no word of the trap the runner's
// own report names.
func TestFailuresAsTheyHappenNameTheirTrap(t *testing.T) {
	b, r, err := setup(jsonDraft{}, Options{Match: "^fixtures/traps-uri-encode/json-html-characters$"})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []result.Case
	r.Progress = func(c result.Case) { mu.Lock(); got = append(got, c); mu.Unlock() }
	if _, err := runContext(context.Background(), b, r); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Status != result.Fail {
		t.Fatalf("progress saw %+v, want the one check failed", got)
	}
	want := conformance.TrapHints([]string{"TRAP-JSON-ESCAPES"}, "go")
	if len(got[0].TrapHints) == 0 || got[0].TrapHints[0] != want[0] {
		t.Errorf("trap hints %q, want %q", got[0].TrapHints, want)
	}
	if d := detail(got[0]); !strings.Contains(d, "\nhint: "+want[0]) {
		t.Errorf("the subtest's failure does not give the hint:\n%s", d)
	}
}
