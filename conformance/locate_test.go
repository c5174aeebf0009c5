package conformance_test

import (
	"bytes"
	"context"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/features"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// decodeBreaker answers every uri.decode with a wrong result, so its checks fail and the
// text report shows where each is defined.
type decodeBreaker struct{ ref refadapter.Reference }

func (b *decodeBreaker) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	resp := b.ref.Handle(ctx, req)
	if req.Op == protocol.OpURIDecode && resp.OK {
		resp.Result = "not what the contract says"
	}
	return resp
}

// shifted returns the file name of fsys with n comment lines put before it, alone in an FS.
func shifted(t *testing.T, fsys fs.FS, name string, n int) fstest.MapFS {
	t.Helper()
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{name: {Data: append([]byte(strings.Repeat("# moved down\n", n)), data...)}}
}

// TestLocationsComeFromTheRunsSources: a run of other fixtures and features than the
// embedded ones locates each check in the files it read (the embedded ones' lines would be
// off by the lines put before them), in the JSON report and the text report's "at:" lines.
func TestLocationsComeFromTheRunsSources(t *testing.T) {
	t.Parallel()
	embedded := map[string]result.Source{}
	listed, err := conformance.List(context.Background(), conformance.Runner{Parts: []string{"features", "fixtures"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range listed {
		embedded[c.Part+"/"+c.Name] = c.Source
	}
	const fixShift, featShift = 3, 2
	rep := mustRunner(t, conformance.Runner{
		Parts:    []string{"features", "fixtures"},
		Features: shifted(t, features.FS, "uri.feature", featShift),
		Fixtures: shifted(t, fixtures.FS, "uri-decode.yaml", fixShift),
		Handler:  &decodeBreaker{},
	}).Run(context.Background())
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	failed, at := 0, map[string]bool{}
	for _, c := range rep.Document().Cases {
		e, ok := embedded[c.Part+"/"+c.Name]
		shift := map[string]int{"features": featShift, "fixtures": fixShift}[c.Part]
		if !ok || c.File != e.File || c.Line != e.Line+shift {
			t.Errorf("%s/%s: located at %s:%d, want %s:%d", c.Part, c.Name, c.File, c.Line, e.File, e.Line+shift)
		}
		if c.Status == result.Fail {
			failed++
			at[c.File+":"+strconv.Itoa(c.Line)] = true
		}
	}
	// The text report shows some failures in full (others grouped): each "at:" it shows is
	// a failed check's place in the files the run read.
	shown := 0
	for _, l := range strings.Split(text.String(), "\n") {
		if loc, ok := strings.CutPrefix(strings.TrimSpace(l), "at:"); ok {
			shown++
			if !at[strings.TrimSpace(loc)] {
				t.Errorf("the text report shows %q, no failed check's place", l)
			}
		}
	}
	if len(rep.Document().Cases) < 20 || failed < 5 || shown == 0 {
		t.Errorf("%d checks, %d failed, %d shown with their place: the test proves nothing", len(rep.Document().Cases), failed, shown)
	}
}
