package html

import (
	"strings"
	"testing"
)

func TestRenderSpec(t *testing.T) {
	src := "# Title\n\n## Session URI\n\nText with `a<b` and **bold** and [a link](#session-uri) and [x](dsh-session:…).\n\n" +
		"- **SR-URI-1** Encoding MUST produce `dsh-session:`, see SR-URI-2\n  and more.\n- **SR-URI-2** Decoding.\n\n" +
		"  ```text\n  ## not a heading\n  <tag>\n  ```\n\n| a | b \\| c |\n|---|---|\n| `x|y` | <i> |\n"
	blocks := renderSpec(src)
	var reqs []string
	var all strings.Builder
	for _, b := range blocks {
		if b.Req != "" {
			reqs = append(reqs, b.Req)
		}
		all.WriteString(b.HTML + "\n")
	}
	got := all.String()
	if strings.Join(reqs, " ") != "SR-URI-1 SR-URI-2" {
		t.Errorf("requirements %v", reqs)
	}
	for _, want := range []string{
		`<h3 id="session-uri">Session URI</h3>`,
		`<code>a&lt;b</code>`, `<strong>bold</strong>`, `<a href="#session-uri">a link</a>`, `[x](dsh-session:…)`,
		`Encoding MUST produce <code>dsh-session:</code>, see <a href="#spec-SR-URI-2">SR-URI-2</a> and more.`,
		"<pre><code>## not a heading\n&lt;tag&gt;</code></pre>",
		`<th scope="col">b | c</th>`, `<td><code>x|y</code></td><td>&lt;i&gt;</td>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered spec lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<i>") || strings.Contains(got, "<tag>") {
		t.Errorf("raw markup from the source:\n%s", got)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Profile 0.1.0-rc.8":                     "profile-010-rc8",
		"Where the README and the code disagree": "where-the-readme-and-the-code-disagree",
		"JavaScript string model":                "javascript-string-model",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCompactJSON(t *testing.T) {
	in := "{\n  \"a\" : \"x y\\\" z\\\\\",\n  \"b\": [ 1, 2 ]\n}"
	if got, want := compactJSON([]byte(in)), `{"a":"x y\" z\\","b":[1,2]}`; got != want {
		t.Errorf("compactJSON = %s, want %s", got, want)
	}
}
