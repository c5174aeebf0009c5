package conformancetest_test

import (
	"context"
	"errors"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest"
	"github.com/sessionref-kit/sessionref-kit/conformance/conformancetest/internal/uriport"
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/internal/refport"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
)

// The reference, written as a port against the Go API, is certified as a port would be:
// every check a subtest, nothing failed.
func TestReferencePort(t *testing.T) {
	t.Parallel()
	rep := conformancetest.TestPort(t, refport.Port{})
	if rep.Totals.Fail != 0 || rep.Totals.Error != 0 {
		t.Errorf("the reference as a port: %d failed, %d errors", rep.Totals.Fail, rep.Totals.Error)
	}
	if all, err := conformance.List(context.Background(), conformance.Runner{}); err == nil && len(rep.Cases) == len(all) && rep.Totals.Pass < 1000 {
		t.Errorf("only %d checks passed through the Go API", rep.Totals.Pass)
	}
}

// goAPIReason reports whether a not-covered reason names something the Go API cannot carry,
// rather than a generic "unsupported".
func goAPIReason(why string) bool {
	return strings.HasPrefix(why, "not expressible in the Go API: ") || strings.HasPrefix(why, "the port does not declare goport.FeatureHost")
}

// The reference through the Go API agrees with the reference over the wire, check by check:
// a check the reference passes passes through the Go API, or is not covered because its
// request cannot be expressed in Go's types (saying what), never failed.
func TestReferencePortAgrees(t *testing.T) {
	t.Parallel()
	for _, profile := range protocol.Profiles {
		t.Run(string(profile), func(t *testing.T) { agrees(t, profile) })
	}
}

func agrees(t *testing.T, profile protocol.Profile) {
	const seed, checks = 0x5eed, 10
	ctx := context.Background()
	port, err := conformancetest.Certify(ctx, refport.Port{}, conformancetest.Options{Seed: seed, Checks: checks, Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	r, err := conformance.NewRunner(conformance.Runner{Seed: seed, Checks: checks, Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	wire := r.Run(ctx)
	if wire.Verdict.Code != report.ExitConformant {
		t.Fatalf("the reference: %s", wire.Verdict.Summary)
	}
	if len(port.Cases) != len(wire.Cases) {
		t.Fatalf("%d checks through the Go API, %d over the wire", len(port.Cases), len(wire.Cases))
	}
	reasons := map[string]int{}
	for i, w := range wire.Cases {
		p := port.Cases[i]
		if p.Part != w.Part || p.Name != w.Name {
			t.Fatalf("check %d: %s/%s through the Go API, %s/%s over the wire", i, p.Part, p.Name, w.Part, w.Name)
		}
		switch {
		case p.Status == w.Status:
		case w.Status == result.Pass && p.Status == result.NotCovered && goAPIReason(p.Message):
			reasons[p.Message]++
		default:
			t.Errorf("%s/%s: %s over the wire, %s through the Go API: %s", w.Part, w.Name, w.Status, p.Status, p.Message)
		}
	}
	t.Logf("over the wire %d passed; through the Go API %d passed, %d not covered (%d distinct reasons)",
		wire.Totals.Pass, port.Totals.Pass, port.Totals.NotCovered, len(reasons))
	if port.Totals.Pass < wire.Totals.Pass*9/10 {
		t.Errorf("only %d of %d checks pass through the Go API", port.Totals.Pass, wire.Totals.Pass)
	}
}

// plainPort is the reference with plain UTF-8 strings: it does not declare lone surrogates.
type plainPort struct{ refport.Port }

func (plainPort) Features() []goport.Feature { return nil }

// A port that does not declare a feature is not covered by what needs it, never failed.
func TestUndeclaredFeatureIsNotCovered(t *testing.T) {
	t.Parallel()
	rep, err := conformancetest.Certify(context.Background(), plainPort{}, conformancetest.Options{Seed: 7, Checks: 10})
	if err != nil {
		t.Fatal(err)
	}
	lone := 0
	for _, c := range rep.Cases {
		switch {
		case c.Status == result.Fail || c.Status == result.Error:
			t.Errorf("%s/%s: %s: %s", c.Part, c.Name, c.Status, c.Message)
		case c.Status == result.NotCovered && strings.Contains(c.Message, "FeatureLoneSurrogates"):
			lone++
		}
	}
	if lone == 0 {
		t.Error("no check was reported not covered for want of FeatureLoneSurrogates")
	}
	if rep.Verdict.Code != report.ExitConformant {
		t.Errorf("verdict %d: %s", rep.Verdict.Code, rep.Verdict.Summary)
	}
	rep, err = conformancetest.Certify(context.Background(), plainPort{}, conformancetest.Options{Seed: 7, Checks: 10, RequireAll: true, Match: "^fixtures/uri-"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict.Code != report.ExitNotConformant || rep.Totals.NotCovered == 0 {
		t.Errorf("RequireAll with not-covered checks: verdict %d: %s", rep.Verdict.Code, rep.Verdict.Summary)
	}
}

// The reason for a request Go's types cannot carry says what cannot be expressed.
func TestInexpressibleReason(t *testing.T) {
	t.Parallel()
	rep, err := conformancetest.Certify(context.Background(), typedPort{refport.Port{}}, conformancetest.Options{Match: "^fixtures/(mention-format-stryker/numeric-label|prepare/null-label|config/)"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"mention-format-stryker/numeric-label": "not expressible in the Go API: label is a number, not a string",
		"prepare/null-label":                   "not expressible in the Go API: references[0].label is null, not a string",
	}
	for _, c := range rep.Cases {
		if w, ok := want[c.Name]; ok {
			if c.Status != result.NotCovered || c.Message != w {
				t.Errorf("%s: %s %q, want not covered %q", c.Name, c.Status, c.Message, w)
			}
			delete(want, c.Name)
		}
	}
	for name := range want {
		t.Errorf("%s was not run", name)
	}
}

// typedPort is a port without the escape hatch (goport.ValuePort, goport.ValueService): the
// embedded interfaces hide the reference port's Value methods.
type typedPort struct{ goport.Port }

func (p typedPort) NewService(store goport.SessionStore, cfg goport.Config) (goport.Service, error) {
	svc, err := p.Port.NewService(store, cfg)
	if err != nil {
		return nil, err
	}
	return typedService{svc}, nil
}

type typedService struct{ goport.Service }

// The escape hatch carries what the Go types cannot: through it the reference port answers
// the checks a typed port leaves not covered, as the reference does, and only those go to it.
func TestValuePortCoversInexpressibleChecks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	opts := conformancetest.Options{Seed: 0x5eed, Checks: 10}
	typed, err := conformancetest.Certify(ctx, typedPort{refport.Port{}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	values, err := conformancetest.Certify(ctx, refport.Port{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if values.Totals.Fail != 0 || values.Totals.Error != 0 {
		t.Errorf("with the escape hatch: %d failed, %d errors", values.Totals.Fail, values.Totals.Error)
	}
	for _, c := range values.Cases {
		// refport.Port has no host wiring (refport.HostPort has).
		if c.Status == result.NotCovered && !strings.HasPrefix(c.Message, "the port does not declare goport.FeatureHost") {
			t.Errorf("%s/%s: not covered with the escape hatch: %s", c.Part, c.Name, c.Message)
		}
	}
	moved := 0
	for i, c := range typed.Cases {
		v := values.Cases[i]
		switch {
		case c.Status == v.Status:
		case c.Status == result.NotCovered && strings.HasPrefix(c.Message, "not expressible in the Go API: ") && v.Status == result.Pass:
			moved++
		default:
			t.Errorf("%s/%s: %s typed, %s with the escape hatch", c.Part, c.Name, c.Status, v.Status)
		}
	}
	if moved < 100 {
		t.Errorf("the escape hatch covered %d checks a typed port cannot, want over 100", moved)
	}
	t.Logf("typed: %d passed, %d not covered; with the escape hatch: %d passed, %d not covered (%d checks moved)",
		typed.Totals.Pass, typed.Totals.NotCovered, values.Totals.Pass, values.Totals.NotCovered, moved)
}

// wrongPort is a plausible porting mistake: mention labels not escaped.
type wrongPort struct{ refport.Port }

func (wrongPort) FormatMention(ref goport.Reference) string {
	return "@[" + ref.Label.Or(ref.SessionID) + "](" + contract.URI(ref.SessionID) + ")"
}

// TestWrongPortHelper certifies wrongPort when TestWrongPortFails runs this test binary.
func TestWrongPortHelper(t *testing.T) {
	t.Parallel()
	if os.Getenv("CONFORMANCETEST_WRONG_PORT") != "1" {
		t.Skip("run by TestWrongPortFails, in a process of its own")
	}
	conformancetest.TestPort(t, wrongPort{})
}

// A wrong port fails, in the subtest of the check that catches it, with the request, the
// answers and their diff; and go test -run runs only the checks it selects.
func TestWrongPortFails(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestWrongPortHelper$/^fixtures$/^mention-format$/", "-test.v")
	cmd.Env = append(os.Environ(), "CONFORMANCETEST_WRONG_PORT=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the wrong port passed:\n%s", out)
	}
	text := string(out)
	for _, want := range []string{
		"--- FAIL: TestWrongPortHelper/fixtures/mention-format/",
		"diff (-want +got):",
		"input: ",
		// where the check is defined, not the kit's testport.go, and go test's rerun line
		"    fixtures/mention-format.yaml:",
		"rerun: go test -run '^TestWrongPortHelper$/^fixtures$/^mention-format$/",
		"TestWrongPortHelper: conformancetest: covered 11 of ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q:\n%s", want, text)
		}
	}
	// Only the selected checks ran: the mention-format fixtures, nothing of the other parts.
	m := regexp.MustCompile(`conformancetest: (\d+) checks run \(of \d+; go test -run chose\): (\d+) passed, (\d+) failed`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no closing line:\n%s", text)
	}
	n, _ := strconv.Atoi(m[1])
	failed, _ := strconv.Atoi(m[3])
	if n != 11 || failed == 0 {
		t.Errorf("%s checks run, %s failed: want the 11 mention-format fixtures, some failed", m[1], m[3])
	}
	if strings.Contains(text, "TestWrongPortHelper/features/") || strings.Contains(text, "TestWrongPortHelper/properties/") {
		t.Errorf("checks outside the selection ran:\n%s", text)
	}
}

// A port without the whole contract says so with errors.ErrUnsupported: its URI checks pass,
// the rest is not covered, with the port's reason.
func TestPartialPort(t *testing.T) {
	t.Parallel()
	rep := conformancetest.TestPortWith(t, uriport.Port{}, conformancetest.Options{Checks: 20, Match: "uri|mention"})
	if rep.Totals.Fail != 0 || rep.Totals.Error != 0 {
		t.Errorf("%d failed, %d errors", rep.Totals.Fail, rep.Totals.Error)
	}
	got := map[string]bool{}
	for _, c := range rep.Cases {
		if c.Status == result.Pass {
			got[c.Area] = true
		}
		if c.Area == "mention" && c.Status != result.NotCovered {
			t.Errorf("%s/%s: %s, want not covered", c.Part, c.Name, c.Status)
		}
	}
	unsupported := 0
	for _, r := range conformancetest.Reasons(rep) {
		if strings.Contains(r.Reason, "the port does not implement") && strings.Contains(r.Reason, errors.ErrUnsupported.Error()) {
			unsupported += r.Checks
		}
	}
	if len(rep.Cases) > 100 && (!got["uri"] || unsupported == 0) {
		t.Errorf("URI checks passed: %v; not covered for errors.ErrUnsupported: %d", got["uri"], unsupported)
	}
}

// deps returns the packages of this module that the package in dir depends on, itself
// included, following imports (tests' too when withTests) through the module's packages.
func deps(t *testing.T, dir string, withTests bool) []string {
	t.Helper()
	const module = "github.com/sessionref-kit/sessionref-kit"
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	seen := map[string]bool{}
	var walk func(path string, tests bool)
	walk = func(path string, tests bool) {
		if seen[path] {
			return
		}
		seen[path] = true
		pkg, err := build.ImportDir(filepath.Join(root, strings.TrimPrefix(path, module)), 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		imports := pkg.Imports
		if tests {
			imports = append(append(imports, pkg.TestImports...), pkg.XTestImports...)
		}
		for _, im := range imports {
			if im == module || strings.HasPrefix(im, module+"/") {
				walk(im, false)
			}
		}
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	walk(module+"/"+filepath.ToSlash(rel), withTests)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, strings.TrimPrefix(p, module+"/"))
	}
	return out
}

// An independent port compiled against the Go API needs no reference type: uriport, which
// implements goport.Port, depends (as go list -deps counts) on no package of this module but
// goport, which imports only the standard library.
func TestPortImportsNoReference(t *testing.T) {
	t.Parallel()
	_, file, _, _ := runtime.Caller(0)
	got := deps(t, filepath.Join(filepath.Dir(file), "internal", "uriport"), false)
	slices.Sort(got)
	if want := []string{"conformance/conformancetest/internal/uriport", "conformance/goport"}; !slices.Equal(got, want) {
		t.Errorf("uriport depends on %v, want only %v", got, want)
	}
	var _ goport.Port = uriport.Port{}
}

// The reference as a port is the one that needs the reference (it converts its types), and
// the scan sees it: the test above could fail.
func TestReferencePortImportsReference(t *testing.T) {
	t.Parallel()
	_, file, _, _ := runtime.Caller(0)
	got := deps(t, filepath.Join(filepath.Dir(file), "..", "internal", "refport"), false)
	if !slices.Contains(got, "reference/service") {
		t.Errorf("refport depends on %v, without reference/service", got)
	}
}

// lenient is a check that the tests of this file can fail: a port whose parser forgets that
// a label escape cannot take a line terminator fails through the Go API.
type lenient struct{ refport.Port }

func (lenient) ParseMentions(text string) (goport.ParsedText, error) {
	return refport.Port{}.ParseMentions(strings.ReplaceAll(text, "\\\n", "\\n"))
}

func TestLenientParserFails(t *testing.T) {
	t.Parallel()
	rep, err := conformancetest.Certify(context.Background(), lenient{}, conformancetest.Options{Checks: 20, Match: "mention"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict.Code != report.ExitNotConformant || rep.Totals.Fail == 0 {
		t.Fatalf("a port with a wrong mention parser was not failed: %+v", rep.Verdict)
	}
}

// BenchmarkCertify times a whole certification of the reference through the Go API (the
// bridge and refport's conversions) beside the reference answering the protocol itself.
func BenchmarkCertify(b *testing.B) {
	opts := conformancetest.Options{Seed: 0x5eed, Checks: 10}
	b.Run("go-api", func(b *testing.B) {
		for b.Loop() {
			if rep, err := conformancetest.Certify(context.Background(), refport.Port{}, opts); err != nil || rep.Totals.Fail != 0 {
				b.Fatal(err, rep.Verdict.Summary)
			}
		}
	})
	b.Run("wire", func(b *testing.B) {
		for b.Loop() {
			r, err := conformance.NewRunner(conformance.Runner{Seed: opts.Seed, Checks: opts.Checks})
			if err != nil {
				b.Fatal(err)
			}
			if rep := r.Run(context.Background()); rep.Totals.Fail != 0 {
				b.Fatal(rep.Verdict.Summary)
			}
		}
	})
}

// storeMistake is the reference over a session store seen through a porting mistake.
type storeMistake struct {
	refport.Port
	view func(goport.SessionStore) goport.SessionStore
}

func (p storeMistake) NewService(s goport.SessionStore, cfg goport.Config) (goport.Service, error) {
	return p.Port.NewService(p.view(s), cfg)
}

// pluginAsUser keeps every plugin's messages, not only compact checkpoints.
type pluginAsUser struct{ goport.SessionStore }

func (s pluginAsUser) ReadSurface(ctx context.Context, id string) (goport.Surface, error) {
	surf, err := s.SessionStore.ReadSurface(ctx, id)
	for _, e := range surf.Events {
		if m := e.Message; m != nil && m.Source != nil && m.Source.Kind == "plugin" && m.Source.Plugin != "compact" {
			m.Source.Kind = "user"
		}
	}
	return surf, err
}

// emptyTitleFallback takes an empty title for no title.
type emptyTitleFallback struct{ goport.SessionStore }

func (s emptyTitleFallback) ReadTitleSnapshots(ctx context.Context, ids []string) ([]goport.TitleSnapshot, error) {
	ts, err := s.SessionStore.ReadTitleSnapshots(ctx, ids)
	for i := range ts {
		if t, ok := ts[i].Title.Get(); ok && t == "" {
			ts[i].Title = goport.Optional[string]{}
		}
	}
	return ts, err
}

// The session store's types carry what projection and candidates read: mistakes made on
// them are caught.
func TestStoreMistakesFail(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		view func(goport.SessionStore) goport.SessionStore
		run  string
	}{
		{"plugin messages kept", func(s goport.SessionStore) goport.SessionStore { return pluginAsUser{s} }, "prepare|projection|retention"},
		{"empty title falls back to the id", func(s goport.SessionStore) goport.SessionStore { return emptyTitleFallback{s} }, "candidates"},
	} {
		// The fixed checks alone: a property that fails here is shrunk for up to the runner's
		// 10 s, through held reads that each wait out their abort grace (0.4 to 16 s of wall
		// for this test, by rapid's seed), and the mistake must be caught without one anyway.
		rep, err := conformancetest.Certify(context.Background(), storeMistake{view: tc.view}, conformancetest.Options{Match: "^(features|fixtures)/.*(" + tc.run + ")"})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Totals.Fail == 0 {
			t.Errorf("%s: not failed: %s", tc.name, rep.Verdict.Summary)
		}
	}
}

// A port with plain UTF-8 strings is never asked for a lone surrogate, by a property either:
// the URI properties draw from a thousand inputs (among them the canonical URI of "\ud800",
// for a port that declares FeatureLoneSurrogates).
func TestPlainPortGetsNoLoneSurrogate(t *testing.T) {
	t.Parallel()
	rep, err := conformancetest.Certify(context.Background(), uriport.Port{}, conformancetest.Options{Match: "^properties/uri", Checks: 1000, Seed: 0x5eed})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Fail != 0 || rep.Totals.Pass == 0 {
		t.Errorf("%s", rep.Verdict.Summary)
	}
}

// utf8Port is the reference as a port whose strings are Go's: any string it would return
// that is not valid UTF-8 (a lone surrogate the kit should not have led it to) fails.
type utf8Port struct{ plainPort }

var errLone = errors.New("a lone surrogate reached a port without FeatureLoneSurrogates")

func valid(ss ...string) error {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return fmt.Errorf("%w: %q", errLone, s)
		}
	}
	return nil
}

func (p utf8Port) DecodeURI(u string) (string, error) {
	id, err := p.plainPort.DecodeURI(u)
	if err == nil {
		err = valid(id)
	}
	return id, err
}

func (p utf8Port) ParseMentions(text string) (goport.ParsedText, error) {
	r, err := p.plainPort.ParseMentions(text)
	for _, m := range r.References {
		if err == nil {
			err = valid(m.SessionID, m.Label)
		}
	}
	return r, err
}

func (p utf8Port) NewService(s goport.SessionStore, cfg goport.Config) (goport.Service, error) {
	svc, err := p.plainPort.NewService(s, cfg)
	if err != nil {
		return nil, err
	}
	return utf8Service{svc}, nil
}

type utf8Service struct{ goport.Service }

func (s utf8Service) ListCandidates(ctx context.Context, a goport.Agent, q string, limit goport.Optional[goport.Int]) ([]goport.Candidate, error) {
	cs, err := s.Service.ListCandidates(ctx, a, q, limit)
	for _, c := range cs {
		if err == nil {
			err = valid(c.SessionID, c.Label, c.CWD.Value)
		}
	}
	return cs, err
}

func (s utf8Service) Prepare(ctx context.Context, a goport.Agent, content goport.Content, refs []goport.Reference) (*goport.Prepared, error) {
	p, err := s.Service.Prepare(ctx, a, content, refs)
	if err == nil && p.Context != nil {
		for _, b := range p.Context.Content {
			if err == nil {
				err = valid(b.Text)
			}
		}
	}
	return p, err
}

// No check leads a port without FeatureLoneSurrogates to a lone surrogate.
func TestNoLoneSurrogateLeaks(t *testing.T) {
	t.Parallel()
	rep, err := conformancetest.Certify(context.Background(), utf8Port{}, conformancetest.Options{Checks: 100, Seed: 0x5eed})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Cases {
		if c.Status == result.Fail || c.Status == result.Error {
			t.Errorf("%s/%s: %s\n%s", c.Part, c.Name, c.Message, c.Got)
		}
	}
}

// nonePort implements nothing: every method says errors.ErrUnsupported.
type nonePort struct{}

func (nonePort) Features() []goport.Feature            { return nil }
func (nonePort) EncodeURI(string) string               { panic(errors.ErrUnsupported) }
func (nonePort) DecodeURI(string) (string, error)      { return "", errors.ErrUnsupported }
func (nonePort) FormatMention(goport.Reference) string { panic(errors.ErrUnsupported) }
func (nonePort) ParseMentions(string) (goport.ParsedText, error) {
	return goport.ParsedText{}, errors.ErrUnsupported
}
func (nonePort) NewService(goport.SessionStore, goport.Config) (goport.Service, error) {
	return nil, errors.ErrUnsupported
}

// TestNothingCertifiedHelper certifies nonePort when TestNothingCertifiedFails runs it.
func TestNothingCertifiedHelper(t *testing.T) {
	if os.Getenv("CONFORMANCETEST_NONE_PORT") != "1" {
		t.Skip("run by TestNothingCertifiedFails, in a process of its own")
	}
	conformancetest.TestPortWith(t, nonePort{}, conformancetest.Options{Match: "^fixtures/uri-", Checks: 1})
}

// A port of which no check passes fails go test, not "ok" with every check skipped, and
// the coverage line shows without -v.
func TestNothingCertifiedFails(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestNothingCertifiedHelper$")
	cmd.Env = append(os.Environ(), "CONFORMANCETEST_NONE_PORT=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a port that implements nothing passed:\n%s", out)
	}
	for _, want := range []string{
		"TestNothingCertifiedHelper: conformancetest: covered 0 of ",
		"nothing of the contract would be certified",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

// The reference port with its host wiring covers the host checks of both releases through
// goport.Host, and names itself in its hello.
func TestReferenceHostPort(t *testing.T) {
	t.Parallel()
	for _, profile := range protocol.Profiles {
		t.Run(string(profile), func(t *testing.T) {
			p := refport.HostPort{DirectFirst: profile != protocol.Spec}
			rep, err := conformancetest.Certify(context.Background(), p, conformancetest.Options{Profile: profile, Tags: "@host", RequireAll: true})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Totals.Pass == 0 || rep.Totals.Fail+rep.Totals.Error+rep.Totals.NotCovered != 0 {
				for _, c := range rep.Cases {
					if c.Status != result.Pass {
						t.Errorf("%s: %s: %s", c.Name, c.Status, c.Message)
					}
				}
				t.Fatalf("host checks through goport.Host: %+v", rep.Totals)
			}
			if rep.Hello == nil || rep.Hello.Name != "refport" || rep.Hello.Version != "reference" {
				t.Errorf("hello %+v, want name refport, version reference", rep.Hello)
			}
		})
	}
}
