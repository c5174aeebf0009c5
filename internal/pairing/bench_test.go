package pairing

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A 4 MB document with CRLF line ends under core.autocrlf: read, converted, hashed.
func BenchmarkSideBlobAutocrlf(b *testing.B) {
	root := b.TempDir()
	doc := strings.Repeat("A line of a translated guide, long enough to be typical.\r\n", 70000)
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	if os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n\tautocrlf = true\n"), 0o644) != nil ||
		os.WriteFile(filepath.Join(root, "guide.md"), []byte(doc), 0o644) != nil {
		b.Fatal("setup")
	}
	repo, err := FindRepo(root)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := repo.sideBlob("guide.md"); err != nil {
			b.Fatal(err)
		}
	}
}

// A diff of two 5000-line versions 200 lines apart.
func BenchmarkDiffBlobs(b *testing.B) {
	var old, cur strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&old, "line %d\n", i)
		if i%25 == 0 {
			fmt.Fprintf(&cur, "changed %d\n", i)
		} else {
			fmt.Fprintf(&cur, "line %d\n", i)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		diffBlobs("guide.md", []byte(old.String()), []byte(cur.String()))
	}
}
