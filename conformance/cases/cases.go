// Package cases runs the language-neutral fixtures (fixtures/*.yaml) against an adapter.
//
// The fixture format is specified in spec/fixtures.md and spec/schema/fixture.schema.json:
// one YAML file per op, each case an op's arguments, the requirement ids it checks and the
// expected outcome, a result (compared as a JSON value) or an error code (messages are
// implementation-defined), plus the sources a failed prepare read. A JavaScript string that
// YAML cannot hold (one with a lone surrogate) is written {$utf16: [code units]}.
package cases

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Options select and observe a run of the fixtures.
type Options struct {
	// Selection selects the cases: its Tags over each case's requirement ids and area, its
	// Run and Skip over "fixtures/" and the case's full name ("uri-decode/padding"), its
	// Units over the fixture files' names, its profile over the case's profiles.
	Selection suite.Selection
	// Progress, when set, is called with each case's result as it finishes.
	Progress func(result.Case)
	// Oracle, when set, answers as the contract does (the embedded reference): a failing
	// chunked trap case is then re-run input by input to name the first input that differs.
	Oracle adapter.Handler
}

// Skipped is the message of a case that a skip list kept from running (--skip).
const Skipped = suite.Skipped

// Version is the fixture format version this package reads.
const Version = 1

// The contract releases a fixture case may be restricted to, as its profiles list spells
// them (protocol.Profiles).
const (
	Profile001 = string(protocol.Profile001)
	Profile010 = string(protocol.Profile010)
)

// UTF16Key is the key of the mapping that writes a JavaScript string as its UTF-16 code units.
const UTF16Key = "$utf16"

// NumberKey is the key of the mapping that writes a number as the exact JSON text a runner
// sends ({$number: "2.0"}): a port must read what JSON.parse reads from that text.
const NumberKey = "$number"

// File is one fixture file: the cases of one op.
type File struct {
	Name    string // file name in the fixture folder, e.g. "uri-decode.yaml"
	Version int
	Op      string
	Cases   []Case
}

// Case is one fixture case.
type Case struct {
	Name string
	// Line is the line of the case in its file (1-based), for reports; 0 when not read
	// from a file.
	Line         int
	Requirements []string
	// Traps are the porting traps (spec/porting-traps.md) the case is built to catch.
	Traps []string
	// Profiles restricts the case to these contract releases; empty means every release.
	Profiles []string
	// Features are adapter features the case needs besides those implied by its data
	// (a string with a lone surrogate implies lone-surrogates; op host.send implies host).
	Features []string
	// Args are the op's arguments. An object marked with wire.Object.KeepOrder is sent with
	// its keys in the order they were set, not in JavaScript's property order; Parse marks
	// every object of args, so a case is sent in its file's order.
	Args *wire.Object
	Want Want
}

// Want is a case's expected outcome.
type Want struct {
	OK     bool
	Result any
	// Code is the expected error code; "" is null (an error that carries no contract code).
	Code string
	// Reads, when HasReads, are the session ids a failed prepare must have read, in order.
	Reads    []any
	HasReads bool
	// Lists, when HasLists, is how many times a failed candidates must have listed sessions
	// (0: an aborted listing must not start the listing).
	Lists    float64
	HasLists bool
}

// Area returns the op family a fixture op belongs to: uri, mention, config, candidates,
// prepare or host.
func Area(op string) string {
	switch op {
	case protocol.OpURIEncode, protocol.OpURIDecode:
		return "uri"
	case protocol.OpMentionFormat, protocol.OpMentionParse:
		return "mention"
	case protocol.OpHostSend:
		return "host"
	}
	return op
}

// loaded and hashed hold what Load and Hash read from an embedded folder (fixtures.FS): it
// cannot change, so a process reads it once. Callers must not modify the files Load returns.
var loaded, hashed sync.Map // embed.FS -> *once[[]File], *once[string]

// once is the value of a computation made once, by whichever caller comes first.
type once[T any] struct {
	sync.Once
	v   T
	err error
}

func (o *once[T]) get(f func() (T, error)) (T, error) {
	o.Do(func() { o.v, o.err = f() })
	return o.v, o.err
}

// embedded counts how often a process reads its embedded folders, for the test that it
// does so once: loads and hashes of the folder, and parses of its YAML (0 while the
// compiled form is up to date).
var embedded struct{ loads, yamlParses, hashes atomic.Int64 }

// Load reads every *.yaml file of fsys, in name order, from its compiled form (CompiledName)
// when that is up to date. The result is shared between calls for an embed.FS: treat it as
// read-only.
func Load(fsys fs.FS) ([]File, error) {
	e, ok := fsys.(embed.FS)
	if !ok {
		files, _, err := load(fsys)
		return files, err
	}
	o, _ := loaded.LoadOrStore(e, new(once[[]File]))
	return o.(*once[[]File]).get(func() ([]File, error) {
		embedded.loads.Add(1)
		files, compiled, err := load(fsys)
		if !compiled {
			embedded.yamlParses.Add(1)
		}
		return files, err
	})
}

// load reads fsys, and reports whether it read the compiled form.
func load(fsys fs.FS) ([]File, bool, error) {
	if h, err := Hash(fsys); err == nil {
		if files, ok := loadCompiled(fsys, h); ok {
			return files, true, nil
		}
	}
	files, err := loadYAML(fsys)
	return files, false, err
}

// loadYAML parses every *.yaml file of fsys.
func loadYAML(fsys fs.FS) ([]File, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var files []File
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		f, err := Parse(name, data)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// Parse reads one fixture file.
func Parse(name string, data []byte) (File, error) {
	f := File{Name: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return f, fmt.Errorf("%s: %w", name, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return f, fmt.Errorf("%s: not a mapping", name)
	}
	root := doc.Content[0]
	errf := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, n.Line, fmt.Sprintf(format, args...))
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "version":
			if err := v.Decode(&f.Version); err != nil || f.Version != Version {
				return f, errf(v, "version must be %d", Version)
			}
		case "op":
			f.Op = v.Value
		case "cases":
			if v.Kind != yaml.SequenceNode {
				return f, errf(v, "cases is not a list")
			}
			for _, cn := range v.Content {
				c, err := parseCase(cn, errf)
				if err != nil {
					return f, err
				}
				f.Cases = append(f.Cases, c)
			}
		default:
			return f, errf(k, "unknown key %q", k.Value)
		}
	}
	if f.Version != Version || f.Op == "" {
		return f, fmt.Errorf("%s: version and op are required", name)
	}
	seen := map[string]bool{}
	for _, c := range f.Cases {
		if seen[c.Name] {
			return f, fmt.Errorf("%s: duplicate case name %q", name, c.Name)
		}
		seen[c.Name] = true
	}
	return f, nil
}

func parseCase(n *yaml.Node, errf func(*yaml.Node, string, ...any) error) (Case, error) {
	c := Case{Line: n.Line}
	if n.Kind != yaml.MappingNode {
		return c, errf(n, "case is not a mapping")
	}
	var haveArgs, haveWant bool
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var err error
		switch k.Value {
		case "name":
			c.Name = v.Value
		case "requirements":
			err = v.Decode(&c.Requirements)
		case "traps":
			err = v.Decode(&c.Traps)
		case "profiles":
			err = v.Decode(&c.Profiles)
		case "features":
			err = v.Decode(&c.Features)
		case "args":
			var a any
			if a, err = Value(v); err == nil {
				var ok bool
				if c.Args, ok = a.(*wire.Object); !ok {
					err = fmt.Errorf("args is not a mapping")
				}
				// Sent as the file writes it: keys in the mapping's order (spec/fixtures.md).
				wire.KeepOrder(c.Args)
			}
			haveArgs = true
		case "want":
			c.Want, err = parseWant(v)
			haveWant = true
		default:
			err = fmt.Errorf("unknown key %q", k.Value)
		}
		if err != nil {
			return c, errf(v, "case %q: %v", c.Name, err)
		}
	}
	if c.Name == "" || !haveArgs || !haveWant || len(c.Requirements) == 0 {
		return c, errf(n, "case %q: name, requirements, args and want are required", c.Name)
	}
	return c, nil
}

func parseWant(n *yaml.Node) (Want, error) {
	var w Want
	v, err := Value(n)
	if err != nil {
		return w, err
	}
	o, ok := v.(*wire.Object)
	if !ok {
		return w, fmt.Errorf("want is not a mapping")
	}
	res, hasResult := o.Get("result")
	code, hasError := o.Get("error")
	if hasResult == hasError {
		return w, fmt.Errorf("want needs exactly one of result and error")
	}
	for _, k := range o.Keys() {
		if k != "result" && k != "error" && k != "reads" && k != "lists" {
			return w, fmt.Errorf("want: unknown key %q", k)
		}
	}
	if hasResult {
		if o.Has("reads") || o.Has("lists") {
			return w, fmt.Errorf("want: reads and lists go with error; a result holds its own reads")
		}
		return Want{OK: true, Result: res}, nil
	}
	switch c := code.(type) {
	case nil:
	case string:
		w.Code = c
	default:
		return w, fmt.Errorf("want.error is neither a code nor null")
	}
	if r, ok := o.Get("reads"); ok {
		if w.Reads, ok = r.([]any); !ok {
			return w, fmt.Errorf("want.reads is not a list")
		}
		w.HasReads = true
	}
	if l, ok := o.Get("lists"); ok {
		if w.Lists, ok = l.(float64); !ok {
			return w, fmt.Errorf("want.lists is not a number")
		}
		w.HasLists = true
	}
	return w, nil
}

// Value converts a YAML node to a JSON value as package jsjson represents it: mappings are
// *wire.Object in document order, numbers float64, and a mapping whose one key is $utf16
// the JavaScript string of those UTF-16 code units.
func Value(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return nil, fmt.Errorf("line %d: empty document", n.Line)
		}
		return Value(n.Content[0])
	case yaml.AliasNode:
		return Value(n.Alias)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			v, err := Value(e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		if len(n.Content) == 2 && n.Content[0].Value == UTF16Key {
			return utf16Value(n.Content[1])
		}
		if len(n.Content) == 2 && n.Content[0].Value == NumberKey {
			num := wire.Number(n.Content[1].Value)
			if _, err := num.Float64(); err != nil || n.Content[1].ShortTag() != "!!str" {
				return nil, fmt.Errorf("line %d: %s is not the text of a JSON number", n.Line, NumberKey)
			}
			return num, nil
		}
		o := wire.NewObject()
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" && k.ShortTag() != "!!int" {
				return nil, fmt.Errorf("line %d: mapping key is not a string", k.Line)
			}
			if o.Has(k.Value) {
				return nil, fmt.Errorf("line %d: duplicate key %q", k.Line, k.Value)
			}
			v, err := Value(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			o.Set(k.Value, v)
		}
		return o, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!str":
			return n.Value, nil
		case "!!bool":
			var b bool
			err := n.Decode(&b)
			return b, err
		case "!!int", "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				return nil, fmt.Errorf("line %d: %v", n.Line, err)
			}
			return f, nil
		}
		return nil, fmt.Errorf("line %d: unsupported scalar tag %s", n.Line, n.ShortTag())
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

func utf16Value(n *yaml.Node) (string, error) {
	var units []int64
	if err := n.Decode(&units); err != nil {
		return "", fmt.Errorf("line %d: %s is not a list of code units", n.Line, UTF16Key)
	}
	u := make([]uint16, len(units))
	for i, x := range units {
		if x < 0 || x > 0xFFFF {
			return "", fmt.Errorf("line %d: code unit %d out of range", n.Line, x)
		}
		u[i] = uint16(x)
	}
	return wire.FromUTF16(u), nil
}

// Request returns the protocol request of the case (id 0: the client numbers requests).
func (f File) Request(c Case) protocol.Request {
	return protocol.Request{Op: f.Op, Args: c.Args}
}

// Response returns the expected response: a result, or an error with the expected code and,
// when given, reads.
func (w Want) Response() protocol.Response {
	if w.OK {
		return protocol.Response{OK: true, Result: w.Result}
	}
	e := &protocol.Error{Code: w.Code}
	if w.HasReads || w.HasLists {
		e.Extra = wire.NewObject()
	}
	if w.HasReads {
		e.Extra.Set("reads", w.Reads)
	}
	if w.HasLists {
		e.Extra.Set("lists", w.Lists)
	}
	return protocol.Response{Err: e}
}

// Explain compares got with the expected outcome as compare does: results as JSON values,
// errors by code, and the reads of a failed prepare when the case names them. Messages and
// any other error keys are ignored. It returns nil when they agree, else how they differ.
func (w Want) Explain(got protocol.Response) *compare.Difference {
	g := got
	if !got.OK && got.Err != nil {
		e := *got.Err
		e.Extra = nil
		for _, key := range []string{"reads", "lists"} {
			if key == "reads" && !w.HasReads || key == "lists" && !w.HasLists {
				continue
			}
			if v, ok := got.Err.Extra.Get(key); ok {
				if e.Extra == nil {
					e.Extra = wire.NewObject()
				}
				e.Extra.Set(key, v)
			}
		}
		g.Err = &e
	}
	return compare.Explain(w.Response(), g)
}

// Features returns every adapter feature the case needs.
func (f File) Features(c Case) []string {
	need := slices.Clone(c.Features)
	add := func(s string) {
		if !slices.Contains(need, s) {
			need = append(need, s)
		}
	}
	if f.Op == protocol.OpHostSend {
		add(protocol.FeatureHost)
	}
	if wire.HasLoneSurrogate(c.Args) || wire.HasLoneSurrogate(c.Want.Result) || wire.HasLoneSurrogate(c.Want.Reads) {
		add(protocol.FeatureLoneSurrogates)
	}
	return need
}

// NormalizeProfile returns the release a profile option names (protocol.ParseProfile): ""
// is the default release; a name that is no release is returned as it is.
func NormalizeProfile(p string) string {
	if r, err := protocol.ParseProfile(p); err == nil {
		return string(r)
	}
	return p
}

// AppliesTo reports whether the case runs under profile (any spelling
// protocol.ParseProfile reads).
func (c Case) AppliesTo(profile string) bool {
	if len(c.Profiles) == 0 {
		return true
	}
	p, err := protocol.ParseProfile(profile)
	if err != nil {
		return false
	}
	for _, q := range c.Profiles {
		if r, err := protocol.ParseProfile(q); err == nil && r == p {
			return true
		}
	}
	return false
}

// FullName returns a case's name as reported: the file's base name, "/", the case name.
func (f File) FullName(c Case) string {
	return strings.TrimSuffix(path.Base(f.Name), ".yaml") + "/" + c.Name
}

// Part is the fixtures part of a run (suite.Part): FS holds the fixture files, Oracle, when
// set, names the first differing input of a failing chunked trap case (see Options).
type Part struct {
	FS     fs.FS
	Oracle adapter.Handler
}

var _ suite.Part = Part{}

// Name implements suite.Part.
func (Part) Name() string { return "fixtures" }

// Unit implements suite.Part.
func (Part) Unit() string { return "fixture cases" }

// Run implements suite.Part.
func (p Part) Run(ctx context.Context, c *adapter.Client, sel suite.Selection, progress func(result.Case)) ([]result.Case, error) {
	return Run(ctx, c, p.FS, Options{Selection: sel, Progress: progress, Oracle: p.Oracle})
}

// Run runs every selected fixture case in fsys against c and returns one Case per fixture
// case (Part "fixtures").
//
// An error means the fixtures could not be run at all (a file does not parse, the selection
// is invalid): a defect of the kit's data or of the caller, never of the adapter.
func Run(ctx context.Context, c *adapter.Client, fsys fs.FS, opts Options) ([]result.Case, error) {
	sel := opts.Selection
	picked, err := selectCases(fsys, sel)
	if err != nil {
		return nil, err
	}
	var out []result.Case
	for _, s := range picked {
		f, fc := s.f, s.fc
		why := sel.SkipReason(part, f.FullName(fc))
		if why == suite.NotTaken {
			continue
		}
		if why != "" {
			rc := suite.NotCovered(result.Case{Part: part, Area: Area(f.Op), Name: f.FullName(fc), Requirements: slices.Clone(fc.Requirements), Traps: slices.Clone(fc.Traps), Source: f.source(fc)}, why)
			if opts.Progress != nil {
				opts.Progress(rc)
			}
			out = append(out, rc)
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		rc := runCase(ctx, c, f, fc)
		rc.Source = f.source(fc)
		if rc.Status == result.Fail && len(fc.Traps) > 0 {
			var part *ChunkPart
			rc.Diagnosis, part = diagnose(ctx, c, opts.Oracle, f.Op, fc.Args)
			if part != nil {
				// Only the traps that can explain the input that differs (PartTraps).
				rc.Traps = PartTraps(rc.Traps, *part)
			}
		}
		rc = rc.Clipped() // bounded, whatever the adapter answered
		if opts.Progress != nil {
			opts.Progress(rc)
		}
		out = append(out, rc)
	}
	return out, nil
}

// part is the part of a run the fixtures are.
const part = "fixtures"

func runCase(ctx context.Context, c *adapter.Client, f File, fc Case) result.Case {
	rc := result.Case{Part: part, Area: Area(f.Op), Name: f.FullName(fc), Requirements: slices.Clone(fc.Requirements), Traps: slices.Clone(fc.Traps)}
	req := f.Request(fc)
	for _, feat := range f.Features(fc) {
		if !c.Supports(feat) {
			rc.Input, rc.Want = result.Request(req, nil), result.Answer(fc.Want.Response(), nil)
			return suite.NotCovered(rc, suite.MissingFeature(feat))
		}
	}
	start := time.Now()
	// A copy: the files are shared by every run of the process (Load), and an in-process
	// handler may write to what it is given.
	resp, err := c.Do(ctx, f.Op, wire.Clone(fc.Args).(*wire.Object))
	rc.Duration = time.Since(start)
	if err != nil {
		rc.Input, rc.Want = result.Request(req, nil), result.Answer(fc.Want.Response(), nil)
		rc.Status = result.Error
		rc.Message = err.Error()
		return rc
	}
	// The client numbered the request; the answer echoes that id (the client checks it).
	// (The line is made once, here: a world makes it the costliest part of a passing case.)
	rc.Input = result.Request(req, &resp)
	rc.Want = result.Answer(fc.Want.Response(), &resp)
	rc.Got = result.Answer(resp, nil)
	if adapter.Unsupported(resp) {
		return suite.NotCovered(rc, adapter.UnsupportedReason(f.Op, resp))
	}
	if d := fc.Want.Explain(resp); d != nil {
		rc.Status = result.Fail
		rc.Diff = d
		rc.Message = failMessage(fc.Want, resp)
		return rc
	}
	rc.Status = result.Pass
	return rc
}

func failMessage(w Want, got protocol.Response) string {
	switch {
	case w.OK && !got.OK:
		return fmt.Sprintf("want a result, got error %s", codeString(got.Err))
	case !w.OK && got.OK:
		return fmt.Sprintf("want error %s, got a result", codeName(w.Code))
	case !w.OK:
		if got.Err != nil && got.Err.Code != w.Code {
			return fmt.Sprintf("want error %s, got error %s", codeName(w.Code), codeString(got.Err))
		}
		return "error reads or lists differ"
	}
	return "result differs"
}

func codeString(e *protocol.Error) string {
	if e == nil {
		return "null"
	}
	return codeName(e.Code)
}

func codeName(c string) string {
	if c == "" {
		return "null"
	}
	return c
}

// Hash returns a hex SHA-256 over the fixture files in fsys (names and bytes), reported with
// every run so a verdict names the data it used.
func Hash(fsys fs.FS) (string, error) {
	e, ok := fsys.(embed.FS)
	if !ok {
		return hash(fsys)
	}
	o, _ := hashed.LoadOrStore(e, new(once[string]))
	return o.(*once[string]).get(func() (string, error) {
		embedded.hashes.Add(1)
		return hash(fsys)
	})
}

func hash(fsys fs.FS) (string, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
