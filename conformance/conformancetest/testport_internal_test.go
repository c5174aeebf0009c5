package conformancetest

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// recorder is a testing.TB that records what a check's subtest reports.
type recorder struct {
	testing.TB
	errors, skips []string
	out           strings.Builder
	failed        bool
}

func (r *recorder) Name() string      { return "TestPort/fixtures/uri-decode/a b" }
func (r *recorder) Output() io.Writer { return &r.out }
func (r *recorder) Fail()             { r.failed = true }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skips = append(r.skips, fmt.Sprintf(format, args...))
}

func TestReportCase(t *testing.T) {
	t.Parallel()
	fail := result.Case{Status: result.Fail, Message: "result differs", Input: result.Line([]byte(`{"op":"uri.encode"}`)), Want: result.JSONOf("w"), Got: result.JSONOf("g"),
		Diff: &compare.Difference{Want: `"w"`, Got: `"g"`, Lines: "- \"w\"\n+ \"g\"\n", First: `$: want "w", got "g"`}}
	// A fixture: the failure starts at its file and line, shows want with got's id (the
	// request's, as the fixtures part records it), invisible characters escaped, and ends
	// with the go test line to rerun it.
	located := result.Case{Part: "fixtures", Area: "uri", Name: "uri-decode/stray-bits", Status: result.Fail, Message: "want error, got a result\x1b[2J",
		Input: result.Line([]byte(`{"id":7,"op":"uri.decode","args":{"uri":"a b"}}`)), Want: result.Line([]byte(`{"id":7,"ok":false,"error":{"code":"X","message":""}}`)),
		Got:    result.Line([]byte("{\"id\":7,\"ok\":true,\"result\":\"a\u2028\u200b\u00a0\"}")),
		Source: result.Source{File: "fixtures/uri-decode.yaml", Line: 40}}
	prop := result.Case{Part: "properties", Area: "uri", Name: "uri/round-trip", Status: result.Fail, Seed: 42, Message: "differs (reproduce with --seed 42)"}
	nc := result.Case{Status: result.NotCovered, Message: "not expressible in the Go API: config is null"}
	for _, tc := range []struct {
		name         string
		c            result.Case
		requireAll   bool
		errors, skip string // substrings of the one error or skip reported, "" for none
	}{
		{"pass", result.Case{Status: result.Pass}, true, "", ""},
		{"fail", fail, false, "diff (-want +got):\nfirst difference: $: want \"w\", got \"g\"\n- \"w\"\n+ \"g\"", ""},
		{"located", located, false, "fixtures/uri-decode.yaml:40: ", ""},
		{"located", located, false, `got a result\x1b[2J`, ""},
		{"located", located, false, `want: {"id":7,"ok":false`, ""},
		{"located", located, false, `got: {"id":7,"ok":true,"result":"a\u2028\u200b\u00a0"}`, ""},
		{"located", located, false, `rerun: go test -run '^TestPort$/^fixtures$/^uri-decode$/^a b$' -rapid.seed=9`, ""},
		{"property", prop, false, "(reproduce with -rapid.seed=42)", ""},
		{"property", prop, false, "-rapid.seed=42\n", ""},
		{"error", result.Case{Status: result.Error, Message: "timed out"}, false, "error: timed out", ""},
		{"not covered", nc, false, "", "not covered: not expressible in the Go API: config is null"},
		{"not covered, require-all", nc, true, "not covered (RequireAll): not expressible", ""},
		{"fixture bug", result.Case{Status: result.FixtureBug, Message: "bad yaml"}, true, "", "the kit's fault"},
	} {
		r := &recorder{}
		reportCase(r, tc.c, tc.requireAll, 9)
		if r.failed {
			r.errors = append(r.errors, r.out.String())
		}
		check := func(what string, got []string, want string) {
			if (want == "") != (len(got) == 0) || len(got) > 1 || (want != "" && !strings.Contains(got[0], want)) {
				t.Errorf("%s: %s %q, want one containing %q", tc.name, what, got, want)
			}
		}
		check("errors", r.errors, tc.errors)
		check("skips", r.skips, tc.skip)
	}
}

func TestClosingLineGroupsReasons(t *testing.T) {
	t.Parallel()
	rep := &report.Report{}
	for _, why := range []string{
		"not expressible in the Go API: references[0].label is null, not a string",
		"not expressible in the Go API: references[3].label is a number, not a string",
		`not expressible in the Go API: session "a", surface event 2: content is null, not an array`,
		"the port does not declare goport.FeatureLoneSurrogates",
	} {
		rep.Cases = append(rep.Cases, result.Case{Status: result.NotCovered, Message: why})
	}
	rep.Cases = append(rep.Cases, result.Case{Status: result.Pass}, result.Case{Status: result.Fail})
	got := closing(rep, 10)
	want := "conformancetest: 6 checks run (of 10; go test -run chose): 1 passed, 1 failed, 0 errors, 4 not covered, 0 fixture bugs\n" +
		"  not covered    2: not expressible in the Go API: references[i].label is not a string\n" +
		"  not covered    1: not expressible in the Go API: a surface event: content is not an array\n" +
		"  not covered    1: the port does not declare goport.FeatureLoneSurrogates"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A surface event becomes an Event when the Go types can carry it, an error (so the request
// is not covered) when they cannot; a shape projection rejects but the types carry (an
// unknown type, a message without source) is no error.
func TestEventConversion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		json string
		want string // "" for a conversion, else a substring of the error
		msg  bool   // the Event has a Message
		src  bool   // and it has a Source
	}{
		{`{"type":"user/message","seq":1,"data":{"role":"user","content":[{"type":"text","text":"a"}],"source":{"kind":"user"}}}`, "", true, true},
		{`{"type":"user/message","seq":1,"data":{"role":"user","content":[]}}`, "", true, false},
		{`{"type":"user/message","seq":1}`, "", false, false},
		{`{"type":"assistant/message","seq":1,"data":{"message":{"content":[{"type":"text","text":5}]}}}`, "", true, false},
		{`{"type":"tool/result","seq":1,"data":{"message":"junk"}}`, "", false, false},
		{`{"type":"session/renamed","seq":1}`, "", false, false},
		{`null`, "the event is null", false, false},
		{`{"type":7}`, "type is a number", false, false},
		{`{"type":"user/message","data":"x"}`, "the message is a string", false, false},
		{`{"type":"user/message","data":{"content":null,"source":{"kind":"user"}}}`, "content is null, not an array", false, false},
		{`{"type":"user/message","data":{"content":[null],"source":{"kind":"user"}}}`, "content[0] is null", false, false},
		{`{"type":"user/message","data":{"content":[],"source":"user"}}`, "source is a string", false, false},
	} {
		v, err := wire.Parse(tc.json)
		if err != nil {
			t.Fatal(err)
		}
		e, err := event(v)
		switch {
		case tc.want != "":
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want one containing %q", tc.json, err, tc.want)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.json, err)
		case (e.Message != nil) != tc.msg || (tc.msg && (e.Message.Source != nil) != tc.src):
			t.Errorf("%s: %+v", tc.json, e)
		}
	}
}
