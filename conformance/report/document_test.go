package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

func TestDocument(t *testing.T) {
	r := &report.Report{Kit: "0.1.0", Spec: "0.0.1-rc.1", Adapter: "x"}
	r.Cases = []result.Case{
		exchange(result.Case{Part: "fixtures", Area: "uri", Name: "uri-decode/canonical-ascii", Requirements: []string{"SR-URI-2"}, Status: result.Fail, Message: "result differs",
			Source: result.Source{File: "fixtures/uri-decode.yaml", Line: 17}},
			`{"id":12,"op":"uri.decode","args":{"uri":"dsh-session:ImEi"}}`, `{"id":12,"ok":true,"result":"a"}`, `{"id":12,"ok":true,"result":"b"}`),
		exchange(result.Case{Part: "features", Area: "uri", Name: "An id becomes the base64url of its JSON string", Status: result.Error, Message: "invalid response line",
			Source: result.Source{File: "features/uri.feature", Line: 9, Steps: []string{"When the id \"a\" is encoded", "Then the URI is \"dsh-session:ImEi\""}}},
			`{"id":3,"op":"uri.encode","args":{"sessionId":"a"}}`, "", "not json \xff"),
		{Part: "properties", Area: "uri", Name: "uri/round-trip", Status: result.Pass},
	}
	r.Parts = []report.Part{{Name: "fixtures", Counts: report.CountCases(r.Cases)}}
	r.Finish()
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if err := report.ValidateJSON(buf.Bytes()); err != nil {
		t.Fatalf("the JSON report does not validate against its schema: %v\n%s", err, buf.String())
	}
	d, err := report.ReadDocument(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	fail := d.Cases[0]
	var input struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(fail.Input, &input); err != nil || input.ID != 12 {
		t.Errorf("input %s: not nested as JSON", fail.Input)
	}
	// The location is the one the case carries, from whichever fixtures the run read.
	if fail.File != "fixtures/uri-decode.yaml" || fail.Line != 17 {
		t.Errorf("fixture location %s:%d", fail.File, fail.Line)
	}
	if fail.Diff == nil || fail.Diff.First != `$.result: want "a", got "b"` || fail.Diff.Lines == "" {
		t.Errorf("diff %+v", fail.Diff)
	}
	var got bytes.Buffer
	if err := json.Compact(&got, fail.Got); err != nil || got.String() != `{"id":12,"ok":true,"result":"b"}` {
		t.Errorf("got is not nested as JSON: %s", fail.Got)
	}
	feat := d.Cases[1]
	if feat.Got != nil || feat.GotText != "not json \uFFFD" {
		t.Errorf("an answer that is not JSON: got %s, gotText %q", feat.Got, feat.GotText)
	}
	if feat.File != "features/uri.feature" || feat.Line != 9 || len(feat.Steps) != 2 || !strings.HasPrefix(feat.Steps[0], "When ") {
		t.Errorf("feature location %s:%d steps %q", feat.File, feat.Line, feat.Steps)
	}

	for _, bad := range []string{`{}`, `{"version":2}`, `[]`, `{"version":1}`, strings.Replace(buf.String(), `"status": "fail"`, `"status": "failed"`, 1)} {
		if _, err := report.ReadDocument(strings.NewReader(bad)); !errors.Is(err, report.ErrNotReport) {
			t.Errorf("ReadDocument(%.40q) = %v, want ErrNotReport", bad, err)
		}
	}
}

func TestJUnitMessageNamesCheckAndDifference(t *testing.T) {
	r := &report.Report{Kit: "0.1.0", Spec: "0.0.1-rc.1", Adapter: "x"}
	r.Cases = []result.Case{exchange(result.Case{Part: "fixtures", Area: "uri", Name: "uri-decode/canonical-ascii", Status: result.Fail, Message: "result differs",
		Source: result.Source{File: "fixtures/uri-decode.yaml", Line: 17}}, "", `{"id":0,"ok":true,"result":"a"}`, `{"id":12,"ok":true,"result":"b"}`)}
	r.Parts = []report.Part{{Name: "fixtures", Counts: report.CountCases(r.Cases)}}
	r.Finish()
	var x bytes.Buffer
	if err := r.WriteJUnit(&x); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`file="fixtures/uri-decode.yaml"`, `line="17"`, `message="fixtures/uri-decode/canonical-ascii (fixtures/uri-decode.yaml:17)`, `first difference $.result: want &#34;a&#34;, got &#34;b&#34;"`} {
		if !strings.Contains(x.String(), want) {
			t.Errorf("junit lacks %s:\n%s", want, x.String())
		}
	}
}

func TestMarkdownFailuresFirst(t *testing.T) {
	r := sample(result.Pass, result.Fail)
	var m bytes.Buffer
	if err := r.WriteMarkdown(&m); err != nil {
		t.Fatal(err)
	}
	f, tbl := strings.Index(m.String(), "<details><summary>FAIL"), strings.Index(m.String(), "| part |")
	if f < 0 || tbl < 0 || f > tbl {
		t.Errorf("failures are not before the tables:\n%s", m.String())
	}
}
