package pairing

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// history commits versions of a few documents, so a repack stores most of them
// as deltas, and returns every blob hash with its content as git prints it. The
// history is one `git fast-import`, which leaves its objects loose (below
// fastimport.unpackLimit), as `git add` and `git commit` would; the blobs are one
// `git cat-file --batch` over what `git rev-list --objects --all` lists.
func history(t *testing.T, root string) map[string]string {
	t.Helper()
	head, err := os.ReadFile(filepath.Join(root, ".git", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	branch, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
	if !ok {
		t.Fatalf("HEAD is not a branch: %q", head)
	}
	var stream bytes.Buffer
	data := func(s string) { fmt.Fprintf(&stream, "data %d\n%s\n", len(s), s) }
	base := strings.Repeat("A line of the guide that stays the same across versions.\n", 200)
	for v := 0; v < 12; v++ {
		fmt.Fprintf(&stream, "commit %s\ncommitter t <t@example.com> %d +0000\n", branch, 1700000000+v)
		data(fmt.Sprint(v))
		stream.WriteString("M 100644 inline guide.md\n")
		data(base + fmt.Sprintf("version %d\n", v) + base[:v*97])
		stream.WriteString("M 100644 inline guide.zh.md\n")
		data(strings.Repeat("指南的一行。\n", 100+v))
		stream.WriteString("\n")
	}
	gitStdin(t, root, stream.String(), "-c", "fastimport.unpackLimit=1000", "fast-import", "--quiet")
	if m, _ := filepath.Glob(filepath.Join(root, ".git", "objects", "pack", "*.pack")); len(m) != 0 {
		t.Fatalf("fast-import left a pack, not loose objects: %v", m)
	}
	objects := gitIn(t, root, "rev-list", "--objects", "--all")
	var oids strings.Builder
	for _, line := range strings.Split(objects, "\n") {
		oid, _, _ := strings.Cut(line, " ")
		oids.WriteString(oid + "\n")
	}
	// --batch prints "<oid> <type> <size>\n<content>\n" for each object asked.
	out := bytes.NewBufferString(gitStdin(t, root, oids.String(), "cat-file", "--batch"))
	blobs := map[string]string{}
	for out.Len() > 0 {
		header, err := out.ReadString('\n')
		var oid, typ string
		var size int
		if _, serr := fmt.Sscanf(header, "%s %s %d\n", &oid, &typ, &size); err != nil || serr != nil || size+1 > out.Len() {
			t.Fatalf("git cat-file --batch: bad entry %q", header)
		}
		content := out.Next(size + 1)
		if typ == "blob" {
			blobs[oid] = string(content[:size])
		}
	}
	if len(blobs) != 24 {
		t.Fatalf("%d blobs in the history, want 24", len(blobs))
	}
	return blobs
}

// gitStdin runs git in root as gitIn does, with stdin as its input, and returns
// its output untrimmed.
func gitStdin(t *testing.T, root, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// Blobs read from loose objects, from a pack with OFS_DELTA chains and from one
// with REF_DELTA bases equal what git cat-file prints, in both object formats.
func TestReadBlobMatchesGit(t *testing.T) {
	isolateGit(t)
	for _, format := range []ObjectFormat{SHA1, SHA256} {
		root := gitRepo(t, format)
		blobs := history(t, root)
		check := func(stage string, want ObjectSource) {
			repo, err := FindRepo(root)
			if err != nil {
				t.Fatal(err)
			}
			for oid, content := range blobs {
				got, src, err := repo.objects().readBlob(oid)
				if err != nil || string(got) != content || src != want {
					t.Errorf("%s %s: %s: got %d bytes from %q, %v; want %d bytes from %q", format, stage, oid, len(got), src, err, len(content), want)
				}
			}
		}
		check("loose", FromLoose)
		gitIn(t, root, "repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50")
		gitIn(t, root, "prune-packed")
		if n := strings.Count(gitIn(t, root, "verify-pack", "-v", packPath(t, root)), "chain length = "); n == 0 {
			t.Fatalf("%s: the pack holds no deltas; the test would not test them", format)
		}
		check("ofs-delta pack", FromPack)
		// pack-objects without --delta-base-offset writes REF_DELTA entries.
		pack := packPath(t, root)
		list := gitIn(t, root, "rev-list", "--objects", "--all")
		gitStdin(t, root, list+"\n", "pack-objects", "-q", "--window=50", "--depth=50", filepath.Join(root, ".git", "objects", "pack", "pack"))
		os.Remove(pack)
		os.Remove(strings.TrimSuffix(pack, ".pack") + ".idx")
		os.Remove(strings.TrimSuffix(pack, ".pack") + ".rev")
		if n := strings.Count(gitIn(t, root, "verify-pack", "-v", packPath(t, root)), "chain length = "); n == 0 {
			t.Fatalf("%s: the REF_DELTA pack holds no deltas", format)
		}
		check("ref-delta pack", FromPack)
	}
}

func packPath(t *testing.T, root string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(root, ".git", "objects", "pack", "pack-*.pack"))
	if len(m) != 1 {
		t.Fatalf("want one pack, found %v", m)
	}
	return m[0]
}

// Corrupt or hostile object files give an error, never a panic or a wrong blob.
func TestReadBlobCorrupt(t *testing.T) {
	isolateGit(t)
	root := gitRepo(t, SHA1)
	writeFile(t, filepath.Join(root, "f.md"), "hello\n")
	writeFile(t, filepath.Join(root, "g.md"), "other\n")
	written := gitInLines(t, root, 2, "hash-object", "-w", "--", "f.md", "g.md")
	oid, other := written[0], written[1]
	loose := filepath.Join(root, ".git", "objects", oid[:2], oid[2:])
	data, _ := os.ReadFile(loose)
	os.Chmod(loose, 0o644)
	for name, b := range map[string][]byte{
		"truncated": data[:len(data)/2],
		"garbage":   []byte("not zlib at all"),
		"empty":     nil,
	} {
		os.WriteFile(loose, b, 0o644)
		repo, _ := FindRepo(root)
		if _, _, err := repo.objects().readBlob(oid); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	// Another object's bytes under this name: the hash check catches it.
	otherData, _ := os.ReadFile(filepath.Join(root, ".git", "objects", other[:2], other[2:]))
	os.WriteFile(loose, otherData, 0o644)
	repo, _ := FindRepo(root)
	if _, _, err := repo.objects().readBlob(oid); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("swapped object: %v, want corrupt", err)
	}
	os.Remove(loose)
	if _, _, err := repo.objects().readBlob(oid); !errors.Is(err, errNoObject) {
		t.Errorf("missing object: %v", err)
	}
}

func TestApplyDeltaRejectsHostileInput(t *testing.T) {
	base := []byte("hello world")
	for name, d := range map[string][]byte{
		"empty":            nil,
		"wrong base size":  {5, 5},
		"copy past base":   {11, 4, 0x91, 8, 10},
		"insert past end":  {11, 2, 5, 'a', 'b'},
		"reserved opcode":  {11, 1, 0},
		"short target":     {11, 5, 0x90, 2},
		"huge target size": {11, 0xff, 0xff, 0xff, 0xff, 0x7f},
	} {
		if out, err := applyDelta(base, d); err == nil {
			t.Errorf("%s: got %q, want an error", name, out)
		}
	}
	out, err := applyDelta(base, []byte{11, 8, 0x90, 5, 3, '!', '!', '!'})
	if err != nil || !bytes.Equal(out, []byte("hello!!!")) {
		t.Errorf("valid delta: %q %v", out, err)
	}
}
