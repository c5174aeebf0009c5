package kits

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestREADMELineCounts: the sizes the Java and Rust kits' READMEs give ("Lines (`wc -l`): the
// kit N; the example port M") are wc -l of the kit's sources and of the example's; they had
// fallen 137 and 164 lines behind the kits.
func TestREADMELineCounts(t *testing.T) {
	for _, k := range []struct{ kit, kitSrc, example, ext string }{
		{"java", "java/src", "java/example/src", ".java"},
		{"rust", "rust/kit/src", "rust/example/src", ".rs"},
	} {
		readme, err := os.ReadFile(filepath.Join("..", k.kit, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile("Lines \\(`wc -l`\\): the kit ([0-9]+(?:,[0-9]{3})*); the example port ([0-9]+(?:,[0-9]{3})*)").FindSubmatch(readme)
		if m == nil {
			t.Errorf("%s/README.md gives no line counts", k.kit)
			continue
		}
		for _, c := range []struct {
			what, dir string
			said      []byte
		}{{"kit", k.kitSrc, m[1]}, {"example port", k.example, m[2]}} {
			said, _ := strconv.Atoi(strings.ReplaceAll(string(c.said), ",", ""))
			if n := lines(t, filepath.Join("..", c.dir), k.ext); n != said {
				t.Errorf("%s/README.md: the %s has %d lines (%s files under %s), the README says %s", k.kit, c.what, n, k.ext, c.dir, c.said)
			}
		}
	}
}

// lines counts the newlines of the files named *ext under dir, as wc -l does.
func lines(t *testing.T, dir, ext string) int {
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ext) {
			return err
		}
		b, err := os.ReadFile(path)
		n += bytes.Count(b, []byte("\n"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
