package pairing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestHashFileMatchesGitHashObject(t *testing.T) {
	contents := map[string]string{
		"empty":   "",
		"ascii":   "hello\n",
		"no-eol":  "no newline at end",
		"crlf":    "line one\r\nline two\r\n",
		"chinese": "# 会话引用\n\n中文内容。\n",
		"binary":  "\x00\x01\x02\xff\xfe",
		"large":   strings.Repeat("0123456789abcdef", 1<<14),
	}
	for _, format := range []ObjectFormat{SHA1, SHA256} {
		t.Run(string(format), func(t *testing.T) {
			root := gitRepo(t, format)
			repo, err := FindRepo(root)
			if err != nil {
				t.Fatal(err)
			}
			if repo.Format != format {
				t.Fatalf("FindRepo format = %s, want %s", repo.Format, format)
			}
			var names, files []string
			for name, body := range contents {
				writeFile(t, filepath.Join(root, name+".md"), body)
				names, files = append(names, name), append(files, name+".md")
			}
			// git answers for every file at once: one hash per path, in order, each
			// with the attributes of its own path (or none, with --no-filters).
			wants := gitLines(t, root, len(files), append([]string{"hash-object", "--"}, files...)...)
			raws := gitLines(t, root, len(files), append([]string{"hash-object", "--no-filters", "--"}, files...)...)
			for i, name := range names {
				got, err := HashFile(repo.Format, filepath.Join(root, files[i]))
				if err != nil {
					t.Fatal(err)
				}
				mem, _ := BlobHash(repo.Format, []byte(contents[name]))
				want, raw := wants[i], raws[i]
				if got != want || got != raw || got != mem {
					t.Errorf("%s: HashFile %s, BlobHash %s, git hash-object %s, --no-filters %s", name, got, mem, want, raw)
				}
				if len(got) != format.HexLen() {
					t.Errorf("%s: hash length %d, want %d", name, len(got), format.HexLen())
				}
			}
		})
	}
}

// Any bytes at all hash as git hashes them, in both formats.
func TestHashFileMatchesGitProperty(t *testing.T) {
	roots := map[ObjectFormat]string{SHA1: gitRepo(t, SHA1), SHA256: gitRepo(t, SHA256)}
	// One `git hash-object --no-filters --stdin-paths` per format answers every draw:
	// it reads the file afresh for each path it is given.
	hashers := map[ObjectFormat]*gitBatch{}
	for format, root := range roots {
		hashers[format] = startGitBatch(t, root, "hash-object", "--no-filters", "--stdin-paths")
	}
	rapid.Check(t, func(rt *rapid.T) {
		format := rapid.SampledFrom([]ObjectFormat{SHA1, SHA256}).Draw(rt, "format")
		body := rapid.SliceOfN(rapid.Byte(), 0, 4096).Draw(rt, "body")
		root := roots[format]
		p := filepath.Join(root, "f.md")
		if err := os.WriteFile(p, body, 0o644); err != nil {
			rt.Fatal(err)
		}
		got, err := HashFile(format, p)
		if err != nil {
			rt.Fatal(err)
		}
		if want := hashers[format].ask(rt, "f.md"); got != want {
			rt.Fatalf("HashFile = %s, git hash-object = %s", got, want)
		}
	})
}

func TestHashFileRefusesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	if _, err := HashFile(SHA1, dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory: err = %v, want a 'not a regular file (a directory)' error", err)
	}
	if _, err := HashFile(ObjectFormat("md5"), dir); err == nil {
		t.Error("unknown format: want an error")
	}
}

func TestSeedRecordIsConfirmed(t *testing.T) {
	src := seed(t)
	data, err := os.ReadFile(filepath.Join(src, RecordName))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseRecord(data, SHA1)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rec.Entries {
		got, err := HashFile(SHA1, filepath.Join(src, e.Name))
		if err != nil {
			t.Fatal(err)
		}
		if got != e.Hash {
			t.Errorf("%s: hash %s, recorded %s", e.Name, got, e.Hash)
		}
	}
}
