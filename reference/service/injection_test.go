package service_test

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// injectionCorpus reads testdata/injection.txt: one attack text per line, with JSON string
// escapes (\n, \uXXXX, lone surrogates included) decoded.
func injectionCorpus(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/injection.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.ReplaceAll(sc.Text(), `"`, `\"`)
		v, err := jsjson.Parse(`"` + line + `"`)
		if err != nil {
			t.Fatalf("corpus line %q: %v", sc.Text(), err)
		}
		out = append(out, v.(string))
	}
	return out
}

// Snapshot text written to attack the model stays inside the JSON data: the framing tags
// appear once each, no data "<" reaches the prompt, and the JSON parses back to the exact
// attack texts, whether the attack is in a message, the label, the title-derived label,
// the cwd or the session id itself.
func TestPromptInjectionStaysInData(t *testing.T) {
	for _, attack := range injectionCorpus(t) {
		cwd := attack
		world := &sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{{
			Header: sessionquery.Header{ID: attack, CWD: &cwd, CreatedAt: 1},
			Surface: &sessionquery.Surface{Events: []any{
				userEvent(attack), assistantEvent(attack + "\n" + attack),
			}},
		}}}
		svc, err := service.New(world, service.Config{})
		if err != nil {
			t.Fatal(err)
		}
		label := "label " + attack
		p, err := svc.Prepare(context.Background(), service.Agent{ID: "target"}, []any{}, []service.Input{{SessionID: attack, Label: &label}})
		if err != nil {
			t.Fatalf("attack %q: %v", attack, err)
		}
		prompt := p.Context.Text
		if !strings.HasPrefix(prompt, service.PromptPrefix) || !strings.HasSuffix(prompt, service.PromptSuffix) {
			t.Fatalf("attack %q: prompt framing changed", attack)
		}
		for _, tag := range []string{"<referenced-sessions>", "</referenced-sessions>"} {
			if n := strings.Count(prompt, tag); n != 1 {
				t.Errorf("attack %q: %q appears %d times", attack, tag, n)
			}
		}
		data := strings.TrimSuffix(strings.TrimPrefix(prompt, service.PromptPrefix), service.PromptSuffix)
		if strings.Contains(data, "<") {
			t.Errorf("attack %q: a data '<' reached the prompt", attack)
		}
		v, err := jsjson.Parse(data)
		if err != nil {
			t.Fatalf("attack %q: data is not JSON: %v", attack, err)
		}
		src := v.([]any)[0].(*jsjson.Object)
		got := map[string]any{}
		for _, k := range []string{"sessionId", "label", "cwd"} {
			got[k], _ = src.Get(k)
		}
		conv, _ := src.Get("conversation")
		var texts []any
		for _, m := range conv.([]any) {
			x, _ := m.(*jsjson.Object).Get("text")
			texts = append(texts, x)
		}
		got["texts"] = texts
		want := map[string]any{"sessionId": attack, "label": label, "cwd": attack, "texts": []any{attack, attack + "\n" + attack}}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("attack %q: data does not parse back (-want +got)\n%s", attack, d)
		}
	}
}

func userEvent(text string) any {
	block := jsjson.NewObject().Set("type", "text").Set("text", text)
	data := jsjson.NewObject().Set("content", []any{block}).Set("source", jsjson.NewObject().Set("kind", "user"))
	return jsjson.NewObject().Set("type", "user/message").Set("seq", 1.0).Set("data", data)
}

func assistantEvent(text string) any {
	block := jsjson.NewObject().Set("type", "text").Set("text", text)
	msg := jsjson.NewObject().Set("content", []any{block})
	return jsjson.NewObject().Set("type", "assistant/message").Set("seq", 2.0).Set("data", jsjson.NewObject().Set("message", msg))
}
