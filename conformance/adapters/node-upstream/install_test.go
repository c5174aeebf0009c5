package nodeupstream

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUninstalledProfileNamesItsNpmCi: the README's promise that, without the second npm ci,
// the adapter stops at hello and says which npm ci to run. Node's resolution climbs from the
// profile's folder to the default profile's node_modules, so the uninstalled release used to
// load the other release's package and die on a missing export instead. A fake package tree
// stands in for the first npm ci, so the test needs node but no install.
func TestUninstalledProfileNamesItsNpmCi(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	dir := t.TempDir()
	src, err := os.ReadFile("adapter.js")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"adapter.js": string(src), "profiles/0.1.0-rc.8/package.json": `{"private":true}`}
	for _, name := range []string{"dsh-session-reference", "cordis", "dsh-llm"} {
		pkg := "node_modules/@deepseek-ai/" + name + "/"
		files[pkg+"package.json"] = `{"name":"@deepseek-ai/` + name + `","version":"0.0.1-rc.1","main":"index.js"}`
		files[pkg+"index.js"] = "export class SessionReferenceService {}\nexport class Context {}\n"
	}
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("node", "adapter.js", "--profile", "0.1.0-rc.8")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(`{"id":1,"op":"hello","args":{"protocol":1}}` + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("exit: %v, want status 3 (profile not installed); stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q: want no answer to hello", stdout.String())
	}
	want := `the packages of profile 0.1.0-rc.8 are not installed; run: (cd "` + filepath.Join("profiles", "0.1.0-rc.8") + `" && npm ci)`
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q does not say %q", stderr.String(), want)
	}
}
