package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// oneMissingCheck is a port's run in which one missing check fails 24 fixture cases for one
// cause, and an adapter's hostile text reaches every field a summary shows.
func oneMissingCheck() *Report {
	const evil = "[x](https://e.vil) ![i](https://e.vil/i.png) <img src=x onerror=alert(1)> ```\n</details> www.e.vil a@e.vil"
	r := &Report{Spec: "0.0.1-rc.1", Command: []string{"node", "adapter.js"},
		Hello: &adapter.Hello{Name: evil, Version: "1", Protocol: 1, Spec: "0.0.1-rc.1"}}
	for i := range 24 {
		id := strings.Repeat("x", 24-i)
		r.Cases = append(r.Cases, exchange(result.Case{
			Part: "fixtures", Area: "uri", Name: fmt.Sprintf("uri-decode/c%d %s", i, evil), Status: result.Fail,
			Requirements: []string{"SR-URI-6"}, Message: "want error SESSION_REFERENCE_INVALID_REFERENCE, got a result"},
			fmt.Sprintf(`{"id":%d,"op":"uri.decode","args":{"uri":"%s"}}`, i, id),
			fmt.Sprintf(`{"id":%d,"ok":false,"error":{"code":"SESSION_REFERENCE_INVALID_REFERENCE","message":""}}`, i),
			fmt.Sprintf(`{"id":%d,"ok":true,"result":"%s %s"}`, i, id, strings.ReplaceAll(evil, "\n", `\n`)),
		))
	}
	for i := range 300 {
		r.Cases = append(r.Cases, result.Case{Part: "fixtures", Area: "uri", Name: fmt.Sprintf("uri-decode/ok%d", i), Status: result.Pass})
	}
	r.Parts = []Part{{Name: "fixtures", Counts: CountCases(r.Cases)}}
	r.Finish()
	return r
}

// The step summary groups failures by cause as the text report does: one missing check (24
// failures of one cause) is one block with its count, smallest example and the others by
// name, and the whole summary stays within a screen.
func TestMarkdownGroupsByCause(t *testing.T) {
	r := oneMissingCheck()
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if n := strings.Count(md, "<details>"); n != 1 {
		t.Errorf("%d blocks for one cause, want 1:\n%s", n, md)
	}
	if n := strings.Count(md, "\n"); n > 40 {
		t.Errorf("%d lines for one missing check, want at most 40:\n%s", n, md)
	}
	for _, s := range []string{
		"<details><summary>FAIL 24 checks, one cause&#58; $.error&#58; want {\"code\"&#58;\"SESSION&#95;REFERENCE&#95;INVALID&#95;REFERENCE\"}, got nothing</summary>",
		"  smallest: fixtures uri-decode/c23 ",
		"  and 23 more: fixtures/uri-decode/c0 ",
		"    rerun: conformance-runner --profile 0.0.1-rc.1 --run ",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("no %q in\n%s", s, md)
		}
	}
	// The smallest example and the count are the text report's.
	var txt strings.Builder
	r.WriteText(&txt)
	if !strings.Contains(txt.String(), "FAIL 24 checks, one cause: $.error") {
		t.Errorf("the text report does not group the same way:\n%s", txt.String())
	}
}

// Nothing an adapter supplies becomes live Markdown or HTML in the step summary: no link,
// image, tag, autolink, and no line that closes the code fence or the block.
func TestMarkdownEscapesAdapterText(t *testing.T) {
	for name, r := range map[string]*Report{"grouped": oneMissingCheck(), "single": func() *Report {
		r := oneMissingCheck()
		r.Cases = r.Cases[23:]
		r.Parts = []Part{{Name: "fixtures", Counts: CountCases(r.Cases)}}
		r.Finish()
		return r
	}()} {
		var b strings.Builder
		if err := r.WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		// Outside fenced code: no live link, image, tag or autolink.
		fence := regexp.MustCompile("(?s)\n```\n.*?\n```\n")
		prose := fence.ReplaceAllString(md, "\n")
		for _, l := range strings.Split(prose, "\n") {
			if rest, ok := strings.CutPrefix(l, "<details><summary>"); ok {
				// HTML text: no tag but its own, nothing Markdown would read inside HTML.
				rest, _ = strings.CutSuffix(rest, "</summary>")
				if strings.ContainsAny(rest, "<>[]!`@") || strings.Contains(rest, "://") {
					t.Errorf("%s: summary %q is not escaped HTML text", name, rest)
				}
				continue
			}
			if l == "</details>" {
				continue // the kit's own; the count below says the adapter adds none
			}
			// Markdown text: every ASCII punctuation backslash-escaped.
			if m := liveMarkdown.FindString(l); m != "" {
				t.Errorf("%s: live %q in line %q", name, m, l)
			}
		}
		if strings.Count(prose, "</details>") != strings.Count(prose, "<details>") {
			t.Errorf("%s: an adapter's </details> closes a block:\n%s", name, md)
		}
		// Inside a fence, no line the adapter wrote opens or closes one.
		for _, f := range fence.FindAllString(md, -1) {
			for _, l := range strings.Split(strings.Trim(f, "\n"), "\n")[1:] {
				if l != "```" && strings.HasPrefix(strings.TrimLeft(l, " "), "```") {
					t.Errorf("%s: line %q closes the code fence", name, l)
				}
			}
			if strings.Count(f, "\n```\n") != 1 && !strings.HasSuffix(f, "\n```\n") {
				t.Errorf("%s: fence %q", name, f)
			}
		}
	}
}

// liveMarkdown matches what would render as a link, image, tag or autolink: one of their
// marks not escaped with a backslash.
var liveMarkdown = regexp.MustCompile(`(^|[^\\])(\]\(|<img|</details|://|www\.|@e)`)

// Checks not sent to a given-up adapter are one group, whose cause points at the heading
// (the verdict, which names the reason) rather than at a text report's last line.
func TestMarkdownGivenUpGroup(t *testing.T) {
	r := &Report{Spec: "0.0.1-rc.1", Unusable: "2 calls timed out"}
	for i := range 30 {
		r.Cases = append(r.Cases, result.Case{Part: "fixtures", Area: "uri", Name: fmt.Sprintf("uri-decode/n%d", i), Status: result.Error,
			Message: "adapter uri.decode: not sent: 2 calls timed out"})
	}
	r.Finish()
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if !strings.Contains(md, "<summary>ERROR 30 checks, one cause&#58; not run&#58; the adapter was given up on (the heading says why)</summary>") ||
		!strings.HasPrefix(md, "## ") || !strings.Contains(strings.SplitN(md, "\n", 2)[0], "2 calls timed out") || strings.Count(md, "<details>") != 1 {
		t.Errorf("markdown:\n%s", md)
	}
}

// The summary details at most maxMarkdownGroups groups and counts the rest.
func TestMarkdownBoundsGroups(t *testing.T) {
	r := &Report{Spec: "0.0.1-rc.1"}
	for i := range 25 {
		r.Cases = append(r.Cases, exchange(result.Case{Part: "fixtures", Area: fmt.Sprintf("a%d", i), Name: fmt.Sprintf("c%d", i), Status: result.Fail, Message: "result differs"},
			"", `{"id":1,"ok":true,"result":"a"}`, `{"id":1,"ok":true,"result":"b"}`))
	}
	r.Finish()
	if n := len(r.Groups()); n != 25 {
		t.Fatalf("%d groups, want 25 (one per area)", n)
	}
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "<details>"); n != maxMarkdownGroups || !strings.Contains(b.String(), "…and 5 more groups (5 checks); see the full report.") {
		t.Errorf("%d blocks:\n%s", n, b.String())
	}
}
