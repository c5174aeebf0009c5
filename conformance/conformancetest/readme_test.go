package conformancetest_test

import (
	"os"
	"reflect"
	"regexp"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
)

// TestREADMEOptionNames: the options the READMEs list for TestPortWith are fields of Options
// (they named Run, which is Match).
func TestREADMEOptionNames(t *testing.T) {
	fields := reflect.TypeFor[conformancetest.Options]()
	for name, list := range map[string]*regexp.Regexp{
		"../../README.md":    regexp.MustCompile("TestPortWith` takes options \\(([^)]*)\\)"),
		"../../README.zh.md": regexp.MustCompile("TestPortWith`\\s*接受选项（([^）]*)）"),
	} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m := list.FindSubmatch(b)
		if m == nil {
			t.Errorf("%s: no list of TestPortWith's options (%s)", name, list)
			continue
		}
		names := regexp.MustCompile("`([A-Za-z]+)`").FindAllSubmatch(m[1], -1)
		if len(names) == 0 {
			t.Errorf("%s: TestPortWith's options name nothing: %q", name, m[1])
		}
		for _, n := range names {
			if _, ok := fields.FieldByName(string(n[1])); !ok {
				t.Errorf("%s: TestPortWith's options name %s, which conformancetest.Options does not have", name, n[1])
			}
		}
	}
}
