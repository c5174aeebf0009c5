package conformance_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
	"github.com/sessionref-kit/sessionref-kit/spec"
)

// schemaSet compiles the embedded spec/schema files with a JSON Schema 2020-12 validator. Each
// file is registered under its $id, so the relative $refs between them resolve offline.
type schemaSet struct {
	c   *jsonschema.Compiler
	ids map[string]string // file name -> $id
}

func loadSchemas(t *testing.T) *schemaSet {
	t.Helper()
	files, err := fs.Glob(spec.Schemas, "schema/*.schema.json")
	if err != nil || len(files) < 5 {
		t.Fatalf("embedded schemas: %v %v", files, err)
	}
	s := &schemaSet{c: jsonschema.NewCompiler(), ids: map[string]string{}}
	s.c.DefaultDraft(jsonschema.Draft2020)
	for _, f := range files {
		b, err := fs.ReadFile(spec.Schemas, f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if id == "" {
			t.Fatalf("%s: no $id", f)
		}
		if err := s.c.AddResource(id, doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		s.ids[path.Base(f)] = id
	}
	// Compile every file up front: a schema that does not compile fails here, not later.
	for name := range s.ids {
		s.get(t, name, "")
	}
	return s
}

// get compiles file name (e.g. "request.schema.json"), or the subschema at JSON pointer frag.
func (s *schemaSet) get(t *testing.T, name, frag string) *jsonschema.Schema {
	t.Helper()
	id, ok := s.ids[name]
	if !ok {
		t.Fatalf("no schema %s", name)
	}
	if frag != "" {
		id += "#" + frag
	}
	sch, err := s.c.Compile(id)
	if err != nil {
		t.Fatalf("compile %s: %v", id, err)
	}
	return sch
}

// has reports whether request.schema.json defines $defs/def.
func (s *schemaSet) has(def string) bool {
	_, err := s.c.Compile(s.ids["request.schema.json"] + "#/$defs/" + def)
	return err == nil
}

func parseJSON(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	return v
}

// yamlToJSON turns a value decoded by yaml.v3 into the validator's generic JSON values: every
// mapping becomes a map[string]any.
func yamlToJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = yamlToJSON(e)
		}
		return m
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = yamlToJSON(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = yamlToJSON(e)
		}
		return l
	}
	return v
}

func loadFixture(t *testing.T, fsys fs.FS, name string) any {
	t.Helper()
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return yamlToJSON(v)
}

// TestFixturesMatchSchema validates every fixtures/*.yaml against fixture.schema.json.
func TestFixturesMatchSchema(t *testing.T) {
	t.Parallel()
	sch := loadSchemas(t).get(t, "fixture.schema.json", "")
	files, err := fs.Glob(fixtures.FS, "*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	cases := 0
	for _, f := range files {
		doc := loadFixture(t, fixtures.FS, f)
		if err := sch.Validate(doc); err != nil {
			t.Errorf("%s does not match fixture.schema.json: %v", f, err)
			continue
		}
		cs, _ := doc.(map[string]any)["cases"].([]any)
		cases += len(cs)
	}
	t.Logf("%d fixture files, %d cases valid", len(files), cases)
}

// exchange is one recorded request and its response, as the JSON lines of the wire.
type exchange struct {
	op        string
	req, resp []byte
}

// recordingHandler wraps a Handler and records every exchange as JSON text.
type recordingHandler struct {
	h adapter.Handler

	mu   sync.Mutex
	ex   []exchange
	errs []string
}

func (r *recordingHandler) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	reqLine, reqErr := wire.Marshal(req.Value()) // before the handler: it may not mutate what we saw
	resp := r.h.Handle(ctx, req)
	respLine, respErr := wire.Marshal(resp.Value())
	r.mu.Lock()
	defer r.mu.Unlock()
	if reqErr != nil || respErr != nil {
		r.errs = append(r.errs, fmt.Sprintf("%s: marshal: request %v, response %v", req.Op, reqErr, respErr))
	} else {
		r.ex = append(r.ex, exchange{op: req.Op, req: reqLine, resp: respLine})
	}
	return resp
}

// TestTrafficMatchesSchemas runs the embedded reference through the runner and validates every
// request and response against request.schema.json and response.schema.json, each successful
// result against request.schema.json#/$defs/result.OP, and hello against hello.schema.json.
func TestTrafficMatchesSchemas(t *testing.T) {
	t.Parallel()
	s := loadSchemas(t)
	reqSch := s.get(t, "request.schema.json", "")
	respSch := s.get(t, "response.schema.json", "")
	helloSch := s.get(t, "hello.schema.json", "")
	worldSch := s.get(t, "world.schema.json", "")

	rec := &recordingHandler{h: &refadapter.Reference{}}
	// 5 checks per property: every property's messages, and the property part's share of
	// the traffic stays near the fixtures' and features' (at 20, 4 times as many).
	rep := mustRunner(t, conformance.Runner{Handler: rec, Checks: 5, Seed: 7}).Run(context.Background())
	if rep.Unusable != "" {
		t.Fatalf("reference unusable: %s", rep.Unusable)
	}
	for _, p := range rep.Parts {
		if p.Note != "" {
			t.Errorf("part %s: %s", p.Name, p.Note)
		}
	}
	// The runner never sends world.define (only bench does); send it, and a candidates
	// request naming the stored world, through the same recorder so both shapes are checked.
	worldDoc, err := wire.Parse(`{"sessions":[{"header":{"id":"s-1","cwd":"/r","createdAt":1},"title":"t"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	agent := wire.NewObject().Set("id", "me").Set("cwd", "/r")
	for i, req := range []protocol.Request{
		{ID: 1 << 40, Op: protocol.OpWorldDefine, Args: wire.NewObject().Set("key", "w1").Set("world", worldDoc)},
		{ID: 1<<40 + 1, Op: protocol.OpCandidates, Args: wire.NewObject().Set("world", protocol.WorldRef("w1")).Set("agent", agent)},
	} {
		if resp := rec.Handle(ctx, req); !resp.OK {
			t.Fatalf("extra request %d (%s) failed: %v", i, req.Op, resp.Err)
		}
	}
	for _, e := range rec.errs {
		t.Error(e)
	}
	if len(rec.ex) < 100 {
		t.Fatalf("only %d exchanges recorded", len(rec.ex))
	}

	const maxReports = 20 // per kind, so one schema defect does not drown the log
	failures := map[string]int{}
	fail := func(kind string, e exchange, err error) {
		failures[kind]++
		if failures[kind] <= maxReports {
			t.Errorf("%s (op %s) rejected:\nrequest:  %.2000s\nresponse: %.2000s\n%v", kind, e.op, e.req, e.resp, err)
		}
	}
	ops := map[string]int{}
	var nReq, nResp, nErr, nResult, nHello, nWorld int
	for _, e := range rec.ex {
		ops[e.op]++
		req := parseJSON(t, e.req)
		resp := parseJSON(t, e.resp)
		nReq++
		if err := reqSch.Validate(req); err != nil {
			fail("request", e, err)
		}
		nResp++
		if err := respSch.Validate(resp); err != nil {
			fail("response", e, err)
		}
		args, _ := req.(map[string]any)["args"].(map[string]any)
		// request.schema.json checks a world through $defs/world (world.schema.json or a
		// world.define reference); count the full documents it so checked.
		if w, ok := args["world"].(map[string]any); ok {
			if _, isRef := w["$ref"]; !isRef && reqSch.Validate(req) == nil {
				if err := worldSch.Validate(w); err != nil {
					fail("world", e, err)
				}
				nWorld++
			}
		}
		r, _ := resp.(map[string]any)
		if r["ok"] != true {
			nErr++
			continue
		}
		if def := "result." + e.op; s.has(def) {
			nResult++
			if err := s.get(t, "request.schema.json", "/$defs/"+def).Validate(r["result"]); err != nil {
				fail(def, e, err)
			}
		}
		if e.op == protocol.OpHello {
			nHello++
			if err := helloSch.Validate(map[string]any{"request": args, "result": r["result"]}); err != nil {
				fail("hello", e, err)
			}
		}
	}
	var opList []string
	for op, n := range ops {
		opList = append(opList, fmt.Sprintf("%s=%d", op, n))
	}
	sort.Strings(opList)
	t.Logf("validated %d requests, %d responses (%d errors), %d results, %d hello, %d worlds (%s)",
		nReq, nResp, nErr, nResult, nHello, nWorld, strings.Join(opList, " "))
	for kind, n := range failures {
		t.Errorf("%d %s messages rejected", n, kind)
	}
	for _, op := range []string{"hello", "world.define", "uri.encode", "uri.decode", "mention.format", "mention.parse", "config", "candidates", "prepare", "host.send"} {
		if ops[op] == 0 {
			t.Errorf("the run sent no %s request", op)
		}
	}
	if nHello != 1 || nWorld == 0 {
		t.Errorf("hello validated %d times, %d worlds", nHello, nWorld)
	}
}

// TestSchemasRejectBrokenMessages shows each schema can fail: a valid message passes, and the
// same message broken in one way is rejected.
func TestSchemasRejectBrokenMessages(t *testing.T) {
	t.Parallel()
	s := loadSchemas(t)
	const world = `{"sessions":[{"header":{"id":"s","createdAt":1},"title":"t","surface":{"capturedThroughSeq":1,"events":[{"type":"user/message","seq":1,"data":{}}]}}]}`
	const hello = `{"request":{"protocol":1},"result":{"protocol":1,"name":"n","version":"1","spec":"0.0.1-rc.1","features":["host"]}}`
	const rep = `{"$schema":"https://sessionref-kit.dev/schema/report/1/report.schema.json","version":1,"kit":"0.1.0","spec":"0.0.1-rc.1","adapter":"a","seed":1,"checks":5,"restarts":0,"started":"2026-01-01T00:00:00Z","elapsedNs":1,"verdict":{"code":1,"summary":"s"},"totals":{"total":1,"pass":0,"fail":1,"notCovered":0,"error":0,"fixtureBug":0},"parts":[],"areas":[],"requirements":[],"cases":[{"part":"fixtures","area":"uri","name":"uri-decode/x","requirements":["SR-URI-3"],"status":"fail","rerun":"^fixtures/uri-decode/x$","file":"fixtures/uri-decode.yaml","line":3,"input":{"id":2,"op":"uri.decode","args":{"uri":"u"}},"want":{"id":2,"ok":true,"result":"a"},"got":{"id":2,"ok":true,"result":"b"},"diff":{"want":"w","got":"g","lines":"- w\n+ g\n","first":"$.result: want \"a\", got \"b\""},"durationNs":1}]}`
	const fixture = `{"version":1,"op":"uri.decode","cases":[{"name":"c","requirements":["SR-URI-4"],"args":{"uri":{"$utf16":[97,55296]}},"want":{"error":"SESSION_REFERENCE_INVALID_REFERENCE"}}]}`
	tests := []struct {
		schema, frag string
		valid        bool
		doc          string
	}{
		{"request.schema.json", "", true, `{"id":1,"op":"uri.encode","args":{"sessionId":"a"}}`},
		{"request.schema.json", "", false, `{"id":1,"op":"uri.encode"}`},
		{"request.schema.json", "", false, `{"id":1.5,"op":"uri.encode","args":{}}`},
		{"request.schema.json", "", false, `{"id":1,"op":"uri.nope","args":{}}`},
		{"request.schema.json", "", false, `{"id":1,"op":"uri.encode","args":{},"extra":1}`},
		{"request.schema.json", "", true, `{"id":2,"op":"candidates","args":{"world":` + world + `,"agent":{"id":"a"}}}`},
		{"request.schema.json", "", true, `{"id":2,"op":"candidates","args":{"world":{"$ref":"k"},"agent":{"id":"a"}}}`},
		{"request.schema.json", "", false, `{"id":2,"op":"candidates","args":{"agent":{"id":"a"}}}`},
		{"request.schema.json", "", false, `{"id":2,"op":"candidates","args":{"world":{"sessions":[{"header":{"id":"s"}}]},"agent":{"id":"a"}}}`},
		{"request.schema.json", "", false, `{"id":2,"op":"prepare","args":{"world":` + world + `,"agent":{"id":"a"},"cancel":"later"}}`},
		{"request.schema.json", "", false, `{"id":3,"op":"host.send","args":{"world":` + world + `,"agent":{"id":"a"},"text":"x","mutations":[{"op":"drop","sessionId":"s"}]}}`},
		{"request.schema.json", "", false, `{"id":4,"op":"hello","args":{"protocol":2}}`},

		{"response.schema.json", "", true, `{"id":1,"ok":true,"result":"dsh-session:ImEi","elapsedNs":5}`},
		{"response.schema.json", "", true, `{"id":null,"ok":false,"error":{"code":null,"message":"m"}}`},
		{"response.schema.json", "", true, `{"id":1,"ok":false,"error":{"code":"SESSION_REFERENCE_READ_FAILED","message":"m","reads":["s"]}}`},
		{"response.schema.json", "", false, `{"id":1,"ok":true,"error":{"code":null,"message":"m"}}`},
		{"response.schema.json", "", false, `{"id":1,"ok":false,"error":{"code":"SESSION_REFERENCE_NOPE","message":"m"}}`},
		{"response.schema.json", "", false, `{"id":1,"ok":false,"error":{"code":null}}`},
		{"response.schema.json", "", false, `{"id":1,"ok":false,"error":{"code":null,"message":"m","reads":[1]}}`},
		{"response.schema.json", "", false, `{"id":null,"ok":true,"result":1}`},
		{"request.schema.json", "/$defs/result.uri.encode", false, `"dsh-session:a=="`},
		{"request.schema.json", "/$defs/result.candidates", false, `{"candidates":[{"sessionId":"s","label":"l"}],"titleReads":[]}`},

		{"hello.schema.json", "", true, hello},
		{"hello.schema.json", "", false, strings.Replace(hello, `"protocol":1}`, `"protocol":2}`, 1)},
		{"hello.schema.json", "", false, strings.Replace(hello, `["host"]`, `["host","host"]`, 1)},
		{"hello.schema.json", "", false, strings.Replace(hello, `["host"]`, `["teleport"]`, 1)},
		{"hello.schema.json", "", false, strings.Replace(hello, `"spec":"0.0.1-rc.1",`, ``, 1)},
		{"hello.schema.json", "", true, strings.Replace(hello, `"spec":"0.0.1-rc.1",`, `"spec":"0.0.1-rc.1","language":"java",`, 1)},
		{"hello.schema.json", "", false, strings.Replace(hello, `"spec":"0.0.1-rc.1",`, `"spec":"0.0.1-rc.1","language":"",`, 1)},
		{"hello.schema.json", "", false, strings.Replace(hello, `"spec":"0.0.1-rc.1",`, `"spec":"0.0.1-rc.1","language":7,`, 1)},

		{"world.schema.json", "", true, world},
		{"world.schema.json", "", false, strings.Replace(world, `"id":"s",`, ``, 1)},
		{"world.schema.json", "", false, strings.Replace(world, `"title":"t"`, `"title":1`, 1)},
		// An event may be any value (the implementation rejects what is no event), but an
		// event's type, when it has one, is a string.
		{"world.schema.json", "", true, strings.Replace(world, `"type":"user/message",`, ``, 1)},
		{"world.schema.json", "", false, strings.Replace(world, `"type":"user/message"`, `"type":5`, 1)},
		{"world.schema.json", "", false, strings.Replace(world, `{"sessions"`, `{"extra":1,"sessions"`, 1)},

		{"report.schema.json", "", true, rep},
		{"report.schema.json", "", false, strings.Replace(rep, `"version":1`, `"version":2`, 1)},
		{"report.schema.json", "", false, strings.Replace(rep, `"status":"fail"`, `"status":"failed"`, 1)},
		{"report.schema.json", "", false, strings.Replace(rep, `"line":3`, `"line":0`, 1)},
		{"report.schema.json", "", false, strings.Replace(rep, `"rerun":"^fixtures/uri-decode/x$",`, ``, 1)},
		{"report.schema.json", "", false, strings.Replace(rep, `"SR-URI-3"`, `"URI-3"`, 1)},
		{"report.schema.json", "", false, strings.Replace(rep, `"first":`, `"firstDiff":`, 1)},
		{"report.schema.json", "", false, strings.Replace(rep, `"verdict":{"code":1`, `"verdict":{"code":5`, 1)},

		{"fixture.schema.json", "", true, fixture},
		{"fixture.schema.json", "", false, strings.Replace(fixture, `"version":1`, `"version":2`, 1)},
		{"fixture.schema.json", "", false, strings.Replace(fixture, `"SR-URI-4"`, `"URI-4"`, 1)},
		{"fixture.schema.json", "", false, strings.Replace(fixture, `55296`, `70000`, 1)},
		{"fixture.schema.json", "", false, strings.Replace(fixture, `,"want":{"error":"SESSION_REFERENCE_INVALID_REFERENCE"}`, ``, 1)},
		{"fixture.schema.json", "", false, strings.Replace(fixture, `{"error":"SESSION_REFERENCE_INVALID_REFERENCE"}`, `{"error":null,"result":1}`, 1)},
		{"fixture.schema.json", "", false, strings.Replace(fixture, `"uri.decode"`, `"world.define"`, 1)},
	}
	rejected := map[string]bool{}
	for i, tc := range tests {
		err := s.get(t, tc.schema, tc.frag).Validate(parseJSON(t, []byte(tc.doc)))
		if tc.valid && err != nil {
			t.Errorf("#%d %s%s rejects a valid message %s: %v", i, tc.schema, tc.frag, tc.doc, err)
		}
		if !tc.valid && err == nil {
			t.Errorf("#%d %s%s accepts a broken message %s", i, tc.schema, tc.frag, tc.doc)
		}
		if !tc.valid {
			rejected[tc.schema] = true
		}
	}
	for name := range s.ids {
		if !rejected[name] {
			t.Errorf("no broken message for %s", name)
		}
	}

	// A real fixture file, broken, is rejected too.
	files, _ := fs.Glob(fixtures.FS, "*.yaml")
	if !slices.Contains(files, "prepare.yaml") {
		t.Fatalf("no prepare.yaml in %v", files)
	}
	doc := loadFixture(t, fixtures.FS, "prepare.yaml").(map[string]any)
	c0 := doc["cases"].([]any)[0].(map[string]any)
	c0["want"] = map[string]any{"error": "SESSION_REFERENCE_BUDGET_EXCEEDED", "result": nil}
	if s.get(t, "fixture.schema.json", "").Validate(doc) == nil {
		t.Error("fixture.schema.json accepts prepare.yaml with a case wanting both result and error")
	}
}
