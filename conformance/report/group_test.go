package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// Failures that differ the same way on different inputs are one group, shown by its smallest
// example; checks not sent to a given-up adapter are one group whatever their op; the text
// report of 24 such failures stays within a screen.
func TestGroups(t *testing.T) {
	r := &Report{Spec: "0.0.1-rc.1", Command: []string{"node", "my adapter.js"}}
	for i := range 24 {
		id := strings.Repeat("x", 24-i)
		r.Cases = append(r.Cases, exchange(result.Case{
			Part: "fixtures", Area: "uri", Name: fmt.Sprintf("uri-decode/c%d", i), Status: result.Fail,
			Requirements: []string{"SR-URI-6"}, Message: "want error SESSION_REFERENCE_INVALID_REFERENCE, got a result"},
			fmt.Sprintf(`{"id":%d,"op":"uri.decode","args":{"uri":"%s"}}`, i, id),
			fmt.Sprintf(`{"id":%d,"ok":false,"error":{"code":"SESSION_REFERENCE_INVALID_REFERENCE","message":""}}`, i),
			fmt.Sprintf(`{"id":%d,"ok":true,"result":"%s"}`, i, id),
		))
	}
	r.Cases = append(r.Cases,
		exchange(result.Case{Part: "fixtures", Area: "uri", Name: "uri-encode/a", Status: result.Fail, Message: "result differs"},
			`{"id":1,"op":"uri.encode","args":{"sessionId":"a"}}`, `{"id":1,"ok":true,"result":"dsh-session:ImEi"}`, `{"id":1,"ok":true,"result":"dsh-session:ImEiA"}`),
		exchange(result.Case{Part: "fixtures", Area: "uri", Name: "uri-encode/b", Status: result.Fail, Message: "result differs"},
			`{"id":2,"op":"uri.encode","args":{"sessionId":"bb"}}`, `{"id":2,"ok":true,"result":"dsh-session:ImJiIg"}`, `{"id":2,"ok":true,"result":"dsh-session:ImJiIgA"}`),
		result.Case{Part: "features", Area: "prepare", Name: "s1", Status: result.Error, Message: "adapter prepare: not sent: 2 calls timed out"},
		result.Case{Part: "features", Area: "config", Name: "s2", Status: result.Error, Message: "adapter config: not sent: 2 calls timed out"},
		result.Case{Part: "fixtures", Area: "uri", Name: "s3", Status: result.Error, Message: "not run: adapter unusable: 2 calls timed out"},
	)
	r.Finish()
	gs := r.Groups()
	var got []string
	for _, g := range gs {
		got = append(got, fmt.Sprintf("%s %d %s", g.Status, len(g.Cases), g.Example.Name))
	}
	want := []string{"fail 24 uri-decode/c23", "fail 2 uri-encode/a", "error 3 s1"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("groups %q, want %q", got, want)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if n := strings.Count(text, "\n"); n > 40 {
		t.Errorf("%d lines for three causes:\n%s", n, text)
	}
	for _, s := range []string{
		"FAIL 24 checks, one cause: $.error: want {\"code\":\"SESSION_REFERENCE_INVALID_REFERENCE\"}, got nothing\n",
		"  smallest: fixtures uri-decode/c23: ",
		"    rerun: conformance-runner --profile 0.0.1-rc.1 --run '^fixtures/uri-decode/c23$' -- node 'my adapter.js'\n",
		"  and 23 more: fixtures/uri-decode/c0, ",
		"ERROR 3 checks, one cause: not run: the adapter was given up on",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("no %q in\n%s", s, text)
		}
	}
	// -v keeps every failure in full.
	b.Reset()
	r.WriteTextWith(&b, TextOptions{Verbose: true})
	if n := strings.Count(b.String(), "\nFAIL fixtures uri-decode/"); n != 24 {
		t.Errorf("-v shows %d of the 24 failures in full", n)
	}
}

func TestRerunLine(t *testing.T) {
	cs := result.Case{Part: "properties", Name: "uri/round-trip", Seed: 7}
	for _, tt := range []struct {
		r    Report
		want string
	}{
		{Report{Spec: "0.1.0-rc.8", Command: []string{"node", "it's.js"}, Dir: "/a b", Checks: 100},
			`conformance-runner --dir '/a b' --profile 0.1.0-rc.8 --run '^properties/uri/round-trip$' --seed 7 --checks 100 -- node 'it'\''s.js'`},
		{Report{Spec: "0.0.1-rc.1", Adapter: "embedded reference (in-process)", Checks: 5},
			`conformance-runner --profile 0.0.1-rc.1 --run '^properties/uri/round-trip$' --seed 7 --checks 5`},
		// a JSON report from before Command was recorded: the command line it names
		{Report{Spec: "0.0.1-rc.1", Adapter: "node adapter.js", Checks: 5},
			`conformance-runner --profile 0.0.1-rc.1 --run '^properties/uri/round-trip$' --seed 7 --checks 5 --adapter 'node adapter.js'`},
	} {
		if got := tt.r.Rerun(cs); got != tt.want {
			t.Errorf("Rerun = %s\nwant    %s", got, tt.want)
		}
		d := tt.r.Document()
		if got := d.Rerun(DocCase{Part: cs.Part, Name: cs.Name, Seed: cs.Seed}); got != tt.want {
			t.Errorf("Document.Rerun = %s\nwant             %s", got, tt.want)
		}
	}
}
