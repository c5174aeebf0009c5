package cases_test

import (
	"bytes"
	"context"
	"io/fs"
	"math"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// yamlOnly hides the compiled form, so that Load parses the YAML.
type yamlOnly struct{ fs.FS }

func (y yamlOnly) Open(name string) (fs.File, error) {
	if name == cases.CompiledName {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return y.FS.Open(name)
}

// TestCompiledSameCases: the embedded compiled form holds the cases of the YAML, value for
// value.
func TestCompiledSameCases(t *testing.T) {
	compiled, ok := cases.LoadCompiled(fixtures.FS)
	if !ok {
		t.Fatal("the compiled form is stale or unreadable: go generate ./fixtures")
	}
	fromYAML, err := cases.Load(yamlOnly{fixtures.FS})
	if err != nil {
		t.Fatal(err)
	}
	if n := compareFiles(t, compiled, fromYAML); n < 200 {
		t.Errorf("only %d cases compared", n)
	}
}

// trickyFiles are fixture files with every kind of value the encoding keeps apart.
func trickyFiles() fstest.MapFS {
	one := cases.File{Name: "a.yaml", Version: cases.Version, Op: protocol.OpMentionParse, Cases: []cases.Case{
		{Name: "values", Requirements: []string{"SR-MENTION-9"}, Traps: []string{}, Features: []string{"host"},
			Args: o("lone", u(`a\ud800b`), "neg-zero", math.Copysign(0, -1), "big", 123456789012345680000.0, "tiny", 5e-324,
				"num", wire.Number("2.0"), "list", a(true, false, nil, a(), o()), "2", "index key", "1", "first", "", "empty key"),
			Want: cases.Want{OK: true, Result: a(u(`\udfff`), 1.5, nil)}},
		{Name: "null-code", Requirements: []string{"SR-ERR-2"}, Profiles: []string{cases.Profile010}, Args: o(), Want: cases.Want{}},
		{Name: "reads", Requirements: []string{"SR-PREP-1", "SR-ERR-3"}, Args: o("x", 1.0),
			Want: cases.Want{Code: "SESSION_REFERENCE_READ_FAILED", Reads: a(), HasReads: true, Lists: 0, HasLists: true}},
	}}
	two := cases.File{Name: "b.yaml", Version: cases.Version, Op: protocol.OpURIEncode, Cases: []cases.Case{
		{Name: "plain", Requirements: []string{"SR-URI-1"}, Args: o("sessionId", "é"), Want: cases.Want{OK: true, Result: "dsh-session:IsOpIg"}},
	}}
	return fstest.MapFS{
		"a.yaml": {Data: cases.Marshal(one, "")},
		"b.yaml": {Data: cases.Marshal(two, "a header")},
	}
}

// TestCompiledRoundTrip: what Compile writes, Load reads back as the YAML's cases.
func TestCompiledRoundTrip(t *testing.T) {
	fsys := trickyFiles()
	fromYAML, err := cases.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := cases.Compile(fsys)
	if err != nil {
		t.Fatal(err)
	}
	fsys[cases.CompiledName] = &fstest.MapFile{Data: bin}
	compiled, ok := cases.LoadCompiled(fsys)
	if !ok {
		t.Fatal("the compiled form is not read back")
	}
	if n := compareFiles(t, compiled, fromYAML); n != 4 {
		t.Errorf("%d cases compared", n)
	}
	if again, err := cases.Compile(fsys); err != nil || !bytes.Equal(again, bin) {
		t.Errorf("Compile is not deterministic (%v)", err)
	}
}

// TestCompiledStaleIsIgnored: a compiled form made from other YAML is not read.
func TestCompiledStaleIsIgnored(t *testing.T) {
	fsys := trickyFiles()
	bin, err := cases.Compile(fsys)
	if err != nil {
		t.Fatal(err)
	}
	fsys[cases.CompiledName] = &fstest.MapFile{Data: bin}
	two := cases.File{Name: "b.yaml", Version: cases.Version, Op: protocol.OpURIEncode, Cases: []cases.Case{
		{Name: "changed", Requirements: []string{"SR-URI-1"}, Args: o("sessionId", "é"), Want: cases.Want{OK: true, Result: "dsh-session:IsOpIg"}},
	}}
	fsys["b.yaml"] = &fstest.MapFile{Data: cases.Marshal(two, "")}
	if _, ok := cases.LoadCompiled(fsys); ok {
		t.Error("a stale compiled form is read")
	}
	files, err := cases.Load(fsys)
	if err != nil || len(files) != 2 || files[1].Cases[0].Name != "changed" {
		t.Errorf("Load read %+v, %v; want the YAML's cases", files, err)
	}
}

// TestCompiledCorruptIsRejected: a truncated or damaged compiled form is refused or read as
// some cases, never a panic; a truncated one is always refused.
func TestCompiledCorruptIsRejected(t *testing.T) {
	fsys := trickyFiles()
	bin, err := cases.Compile(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(bin); n++ {
		fsys[cases.CompiledName] = &fstest.MapFile{Data: bin[:n]}
		if _, ok := cases.LoadCompiled(fsys); ok {
			t.Fatalf("truncated to %d of %d bytes: read", n, len(bin))
		}
		damaged := bytes.Clone(bin)
		damaged[n] ^= 0xff
		fsys[cases.CompiledName] = &fstest.MapFile{Data: damaged}
		cases.LoadCompiled(fsys)
	}
	fsys[cases.CompiledName] = &fstest.MapFile{Data: append(bytes.Clone(bin), 0)}
	if _, ok := cases.LoadCompiled(fsys); ok {
		t.Error("trailing bytes: read")
	}
}

// TestARunReadsTheFixturesOnce: a process reads the embedded fixtures once, from their
// compiled form, and hashes them once, whatever it runs: a run with every part, its
// reports, a listing. The run is of the @uri checks, in every part: the fixtures are read
// whole whatever the selection, and the whole run would only make more checks.
func TestARunReadsTheFixturesOnce(t *testing.T) {
	rep := conformance.Runner{Checks: 2, Seed: 1, Tags: "@uri"}.Run(context.Background())
	for _, p := range rep.Parts {
		if p.Total == 0 {
			t.Fatalf("part %s ran no check", p.Name)
		}
	}
	if rep.Verdict.Code != report.ExitConformant {
		t.Fatalf("verdict %+v", rep.Verdict)
	}
	var b bytes.Buffer
	for _, w := range []func() error{
		func() error { return rep.WriteJSON(&b) },
		func() error { return rep.WriteText(&b) },
		func() error { return rep.WriteMarkdown(&b) },
		func() error { return rep.WriteJUnit(&b) },
	} {
		if err := w(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conformance.List(context.Background(), conformance.Runner{}); err != nil {
		t.Fatal(err)
	}
	if loads, yamlParses, hashes := cases.EmbeddedReads(); loads != 1 || yamlParses != 0 || hashes != 1 {
		t.Errorf("the embedded fixtures were loaded %d times, their YAML parsed %d times, hashed %d times; want 1, 0, 1", loads, yamlParses, hashes)
	}
}

// compareFiles reports every difference between two readings of the same files and returns
// how many cases it compared.
func compareFiles(t *testing.T, got, want []cases.File) int {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d files, want %d", len(got), len(want))
	}
	n := 0
	for i, w := range want {
		g := got[i]
		if g.Name != w.Name || g.Version != w.Version || g.Op != w.Op || len(g.Cases) != len(w.Cases) {
			t.Errorf("file %s: read %s v%d %s with %d cases", w.Name, g.Name, g.Version, g.Op, len(g.Cases))
			continue
		}
		for j, wc := range w.Cases {
			n++
			if msg := sameCase(g.Cases[j], wc); msg != "" {
				t.Errorf("%s: %s", w.FullName(wc), msg)
			}
		}
	}
	return n
}

func sameCase(a, b cases.Case) string {
	switch {
	case a.Name != b.Name || a.Line != b.Line || b.Line == 0:
		return "name or line differs"
	case !sameStrings(a.Requirements, b.Requirements) || !sameStrings(a.Traps, b.Traps) || !sameStrings(a.Profiles, b.Profiles) || !sameStrings(a.Features, b.Features):
		return "a list differs"
	case !sameValue(a.Args, b.Args):
		return "args differ"
	}
	wa, wb := a.Want, b.Want
	if wa.OK != wb.OK || wa.Code != wb.Code || wa.HasReads != wb.HasReads || wa.HasLists != wb.HasLists || !sameValue(wa.Result, wb.Result) ||
		(wa.Reads == nil) != (wb.Reads == nil) || !sameValue(wa.Reads, wb.Reads) || math.Float64bits(wa.Lists) != math.Float64bits(wb.Lists) {
		return "want differs"
	}
	return ""
}

func sameStrings(a, b []string) bool {
	return (a == nil) == (b == nil) && reflect.DeepEqual(a, b)
}

// sameValue compares two JSON values exactly: Go types, the bits of numbers, the bytes of
// strings, the order of keys.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool, string, wire.Number:
		return a == b
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case *wire.Object:
		y, ok := b.(*wire.Object)
		if !ok || (x == nil) != (y == nil) {
			return false
		}
		kx, ky := x.Keys(), y.Keys()
		if !sameStrings(kx, ky) {
			return false
		}
		for _, k := range kx {
			vx, _ := x.Get(k)
			vy, _ := y.Get(k)
			if !sameValue(vx, vy) {
				return false
			}
		}
		return true
	}
	return false
}
