package main

import (
	"strings"
	"testing"
)

// Re-recording a pair of which only one side changed is a decision: --write
// refuses it and names the flag; with the flag it records, saying what it wrote.
// --stage stages the record it wrote.
func TestOneSidedWriteIsADecision(t *testing.T) {
	root := newRepo(t, "")
	put(t, root, "README.md", "hello\n")
	put(t, root, "README.zh.md", "你好\n")
	record(t, root, ".", "README.md", "README.zh.md")
	before := get(t, root, "README.i18n.yaml")
	put(t, root, "README.md", "hello!\n")
	r := cli(root, "--write", "README.md")
	if r.code != 1 || !strings.Contains(r.stdout, "--write refused: only README.md changed since confirmation: bring README.zh.md along first, or, if README.zh.md needs no change, re-record with: verify-translation-pairing --write --other-side-needs-no-change README.md") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if get(t, root, "README.i18n.yaml") != before {
		t.Fatal("a refused --write changed the record")
	}
	if r := cli(root, "--other-side-needs-no-change", "README.md"); r.code != 2 {
		t.Errorf("the flag without --write: exit %d, want 2", r.code)
	}
	r = cli(root, "--write", "--other-side-needs-no-change", "--stage", "README.md")
	h := hashObject(t, root, "README.md")
	if r.code != 0 || !strings.Contains(r.stdout, "wrote README.md in README.i18n.yaml: ") || !strings.Contains(r.stdout, " -> "+h+"\n") ||
		strings.Contains(r.stdout, "wrote README.zh.md") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if staged := gitCmd(t, root, "diff", "--cached", "--name-only"); staged != "README.i18n.yaml" {
		t.Errorf("staged %q, want the record", staged)
	}
}
