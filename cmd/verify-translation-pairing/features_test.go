package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"
)

// TestFeatures runs testdata/features in strict mode: an undefined or pending step
// fails the test.
func TestFeatures(t *testing.T) {
	suite := godog.TestSuite{
		Name:                "verify-translation-pairing",
		ScenarioInitializer: initializeScenario(t),
		Options: &godog.Options{
			Format:   "pretty",
			Paths:    []string{"testdata/features"},
			Strict:   true,
			TestingT: t,
		},
	}
	if suite.Run() != 0 {
		t.Fatal("feature scenarios failed")
	}
}

// world is one scenario's state; godog builds a fresh one per scenario.
type world struct {
	t        *testing.T
	root     string
	code     int
	stdout   string
	stderr   string
	snapshot map[string]string // record contents before the last run
}

func initializeScenario(t *testing.T) func(*godog.ScenarioContext) {
	return func(sc *godog.ScenarioContext) {
		w := &world{t: t}
		sc.Step(`^a git repository$`, func() error { return w.gitRepository("") })
		sc.Step(`^a git repository using (sha1|sha256)$`, w.gitRepository)
		sc.Step(`^the file "((?:[^"\\]|\\.)*)" contains "((?:[^"\\]|\\.)*)"$`, w.fileContains)
		sc.Step(`^the file "([^"]*)" is deleted$`, w.fileDeleted)
		sc.Step(`^the file "([^"]*)" is a symbolic link to a file outside the repository$`, w.symlinkOut)
		sc.Step(`^the pair in "([^"]*)" is recorded$`, w.pairRecorded)
		sc.Step(`^the git setting "([^"]*)" is "([^"]*)"$`, w.gitSetting)
		sc.Step(`^I run "verify-translation-pairing ?([^"]*)"$`, w.iRun)
		sc.Step(`^the exit status is (\d+)$`, w.exitStatus)
		sc.Step(`^the output contains "((?:[^"\\]|\\.)*)"$`, w.outputContains)
		sc.Step(`^the error output contains "((?:[^"\\]|\\.)*)"$`, w.errorContains)
		sc.Step(`^the output is:$`, w.outputIs)
		sc.Step(`^the record "([^"]*)" holds the git hash of "([^"]*)"$`, w.recordHolds)
		sc.Step(`^the record "([^"]*)" starts with "((?:[^"\\]|\\.)*)"$`, w.recordStartsWith)
		sc.Step(`^the record "([^"]*)" is unchanged$`, w.recordUnchanged)
	}
}

// unescape turns the \n of a step's quoted text into a newline.
func unescape(s string) (string, error) {
	u, err := strconv.Unquote(`"` + s + `"`)
	if err != nil {
		return "", fmt.Errorf("bad escape in %q: %w", s, err)
	}
	return u, nil
}

func (w *world) gitRepository(format string) error {
	w.root = newRepo(w.t, format)
	return nil
}

func (w *world) path(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }

func (w *world) fileContains(rel, text string) error {
	data, err := unescape(text)
	if err != nil {
		return err
	}
	// A path may spell control characters as escapes too (\u001b, \r).
	if rel, err = unescape(rel); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(w.path(rel)), 0o755); err != nil {
		return err
	}
	return os.WriteFile(w.path(rel), []byte(data), 0o644)
}

func (w *world) fileDeleted(rel string) error { return os.Remove(w.path(rel)) }

func (w *world) symlinkOut(rel string) error {
	target := filepath.Join(w.t.TempDir(), "outside.md")
	if err := os.WriteFile(target, []byte("outside\n"), 0o644); err != nil {
		return err
	}
	os.Remove(w.path(rel))
	return os.Symlink(target, w.path(rel))
}

func (w *world) gitSetting(key, value string) error {
	gitCmd(w.t, w.root, "config", key, value)
	return nil
}

func (w *world) pairRecorded(folder string) error {
	record(w.t, w.root, folder, "README.md", "README.zh.md")
	return nil
}

func (w *world) iRun(args string) error {
	w.snapshot = map[string]string{}
	filepath.WalkDir(w.root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "README.i18n.yaml" {
			b, _ := os.ReadFile(p)
			w.snapshot[p] = string(b)
		}
		return nil
	})
	var out, errOut bytes.Buffer
	w.code = run(append([]string{"-C", w.root}, strings.Fields(args)...), strings.NewReader(""), &out, &errOut)
	w.stdout, w.stderr = out.String(), errOut.String()
	return nil
}

func (w *world) exitStatus(want int) error {
	if w.code != want {
		return fmt.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", w.code, want, w.stdout, w.stderr)
	}
	return nil
}

func (w *world) outputContains(text string) error {
	want, err := unescape(text)
	if err != nil {
		return err
	}
	if !strings.Contains(w.stdout, want) {
		return fmt.Errorf("output lacks %q:\n%s", want, w.stdout)
	}
	return nil
}

func (w *world) errorContains(text string) error {
	if !strings.Contains(w.stderr, text) {
		return fmt.Errorf("error output lacks %q:\n%s", text, w.stderr)
	}
	return nil
}

func (w *world) outputIs(doc *godog.DocString) error {
	if diff := cmp.Diff(doc.Content+"\n", w.stdout); diff != "" {
		return fmt.Errorf("output (-want +got):\n%s", diff)
	}
	return nil
}

func (w *world) recordHolds(rec, side string) error {
	data, err := os.ReadFile(w.path(rec))
	if err != nil {
		return err
	}
	want := filepath.Base(side) + ": " + hashObject(w.t, w.root, side) + "\n"
	if !strings.Contains(string(data), want) {
		return fmt.Errorf("record lacks %q:\n%s", want, data)
	}
	return nil
}

func (w *world) recordStartsWith(rec, text string) error {
	want, err := unescape(text)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(w.path(rec))
	if err != nil {
		return err
	}
	if !strings.HasPrefix(string(data), want) {
		return fmt.Errorf("record does not start with %q:\n%s", want, data)
	}
	return nil
}

func (w *world) recordUnchanged(rec string) error {
	data, err := os.ReadFile(w.path(rec))
	if err != nil {
		return err
	}
	if before, ok := w.snapshot[w.path(rec)]; !ok || before != string(data) {
		return fmt.Errorf("record changed from %q to %q", before, data)
	}
	return nil
}
