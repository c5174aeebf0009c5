package conformance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemasResolve checks spec/schema: every file is a JSON Schema with $schema and $id, and
// every $ref names an existing file and definition. (schema_validation_test.go validates the
// fixtures and a full run's traffic against them with a 2020-12 validator.)
func TestSchemasResolve(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../spec/schema/*.schema.json")
	if len(files) < 4 {
		t.Fatalf("schemas: %v", files)
	}
	docs := map[string]map[string]any{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if doc["$schema"] == nil || !strings.HasSuffix(doc["$id"].(string), filepath.Base(f)) {
			t.Errorf("%s: $schema or $id missing", f)
		}
		docs[filepath.Base(f)] = doc
	}
	for name, doc := range docs {
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				if ref, ok := x["$ref"].(string); ok {
					file, frag, _ := strings.Cut(ref, "#")
					target := doc
					if file != "" {
						target = docs[file]
					}
					if target == nil {
						t.Errorf("%s: $ref %q names no schema file", name, ref)
					} else if frag != "" {
						defs, _ := target["$defs"].(map[string]any)
						if _, ok := defs[strings.TrimPrefix(frag, "/$defs/")]; !ok {
							t.Errorf("%s: $ref %q names no definition", name, ref)
						}
					}
				}
				for _, e := range x {
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(doc)
	}
}
