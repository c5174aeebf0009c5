// Package differential compares two implementations of the session-reference contract on
// rapid-generated requests (conformance/gen) for every protocol op, and turns each difference
// into a shrunk, ready-to-commit fixture (spec/fixtures.md).
//
// Two answers agree when compare.Agree says so: results as JSON values, errors by code
// (messages are implementation-defined), a failed prepare's reads included. The context
// message's id is left out by every adapter. Of the two sides, A is the implementation under
// test and B the one trusted: a written fixture's want is B's answer.
package differential

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing/fstest"
	"time"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/properties"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Ops lists every op a differential run can generate requests for, in run order.
var Ops = []string{
	protocol.OpURIEncode, protocol.OpURIDecode, protocol.OpMentionFormat, protocol.OpMentionParse,
	protocol.OpConfig, protocol.OpCandidates, protocol.OpPrepare, protocol.OpHostSend,
}

// DefaultChecks is the number of generated requests per op when Options.Checks is 0.
const DefaultChecks = 1000

// Surrogates says whether generated strings may hold lone surrogates.
type Surrogates int

const (
	// SurrogatesAuto sends lone surrogates only when both sides declare the
	// lone-surrogates feature.
	SurrogatesAuto Surrogates = iota
	// SurrogatesAlways sends them regardless of the declared features.
	SurrogatesAlways
	// SurrogatesNever sends none.
	SurrogatesNever
)

// Options configure a differential run.
type Options struct {
	// Ops are the ops to run, from Ops; empty means every op both sides can answer
	// (host.send only when both declare the host feature).
	Ops []string
	// Checks is the number of generated requests per op; 0 means DefaultChecks.
	Checks int
	// Seed is rapid's base seed; 0 picks one. Result.Seed names the one used.
	Seed uint64
	// ShrinkTime bounds the minimisation of a difference; 0 keeps rapid's default (30 s).
	ShrinkTime time.Duration
	// Surrogates selects lone surrogates in generated strings.
	Surrogates Surrogates
	// Profile is the contract release the run is for (recorded in fixtures of
	// profile-dependent ops); empty means protocol.DefaultProfile.
	Profile protocol.Profile
	// NoCorpus leaves out the fixture corpus (gen.Corpus) that each op replays before it
	// generates requests: the run then measures the generators alone.
	NoCorpus bool
	// Progress, when set, is called with each op's result as it finishes.
	Progress func(OpResult)
	// Semantics are the contract's building blocks the named-state coverage re-runs
	// (Classify); conformance/refadapter.Semantics is the reference's. Nil measures no
	// coverage: OpResult.States stays nil.
	Semantics Semantics
}

// Result is the outcome of a differential run.
type Result struct {
	Seed           uint64
	LoneSurrogates bool
	Ops            []OpResult
	Elapsed        time.Duration
}

// OpResult is the outcome for one op.
type OpResult struct {
	Op string
	// Corpus is the number of fixture-corpus requests (gen.Corpus) both sides answered and that
	// were compared, up to and including the first one that differed.
	Corpus int
	// Requests is the number of generated requests both sides answered and that were
	// compared, up to and including the first one that differed.
	Requests int
	// Shrinks is the number of requests compared while shrinking a difference.
	Shrinks int
	// Unsupported counts requests either side answered ADAPTER_UNSUPPORTED; they are not
	// compared.
	Unsupported int
	// NeedLoneSurrogates counts requests not compared because the request or B's answer holds
	// a lone surrogate while the run is without them (Options.Surrogates): as a certification
	// leaves such a check not covered for an adapter not declaring the feature.
	NeedLoneSurrogates int
	// NotCovered, when set, says why the op was not run at all.
	NotCovered string
	// Transport, when set, is a transport failure (crash, hang, protocol violation) that
	// stopped the op; TransportRequest is the request line that caused it.
	Transport, TransportRequest string
	// Difference is the minimal difference found, or nil.
	Difference *Difference
	// States counts the compared requests that reached each named state (Classify), before
	// any shrinking; Coverage lists them against States. It is nil when the run measured no
	// coverage (Options.Semantics nil).
	States map[string]int
	// UnsupportedExamples are shrunk examples of the requests answered
	// ADAPTER_UNSUPPORTED, one per group of answers (side and message), largest group first.
	UnsupportedExamples []UnsupportedExample
	Elapsed             time.Duration
}

// Differences returns the ops' differences, in run order.
func (r Result) Differences() []*Difference {
	var out []*Difference
	for _, o := range r.Ops {
		if o.Difference != nil {
			out = append(out, o.Difference)
		}
	}
	return out
}

// Transport returns the first transport failure of the run, or "".
func (r Result) Transport() string {
	for _, o := range r.Ops {
		if o.Transport != "" {
			return o.Op + ": " + o.Transport
		}
	}
	return ""
}

// Compared returns the total number of compared requests, corpus and generated.
func (r Result) Compared() int {
	n := 0
	for _, o := range r.Ops {
		n += o.Corpus + o.Requests
	}
	return n
}

// Difference is one request on which the two sides disagree, shrunk by rapid.
type Difference struct {
	Op      string
	Request protocol.Request  // id 0
	A, B    protocol.Response // ids 0
	// Diff is compare.Diff(B, A): "(-B +A)", i.e. (-want +got) for the written fixture, as JSON.
	Diff string
	// Fault is what differs: "result" (both succeeded), "code" (both failed with other
	// codes), "reads" (same code, other reads of a prepare), "lists" (same code, other listing
	// calls of a candidates), or "outcome" (one succeeded, one failed).
	Fault string
	// Source is empty for a generated request (shrunk by rapid); for a fixture-corpus
	// request it names the fixture case (and the input of a chunked case), Traps its porting
	// traps and Requirements its spec ids.
	Source       string
	Traps        []string
	Requirements []string
}

// Run generates Options.Checks requests for each op, sends each to a then b, and compares
// their answers. A difference is shrunk to a minimal request and the op moves on; a transport
// failure of either side stops that op. Run is not safe to call concurrently with other rapid
// checks in the process (rapid is configured through global flags).
func Run(ctx context.Context, a, b *adapter.Client, opts Options) Result {
	start := time.Now()
	seed := properties.Seed(properties.Options{Seed: opts.Seed})
	res := Result{Seed: seed}
	switch opts.Surrogates {
	case SurrogatesAlways:
		res.LoneSurrogates = true
	case SurrogatesAuto:
		res.LoneSurrogates = a.Supports(protocol.FeatureLoneSurrogates) && b.Supports(protocol.FeatureLoneSurrogates)
	}
	ops := opts.Ops
	if len(ops) == 0 {
		for _, op := range Ops {
			if op != protocol.OpHostSend || (a.Supports(protocol.FeatureHost) && b.Supports(protocol.FeatureHost)) {
				ops = append(ops, op)
			}
		}
	}
	checks := opts.Checks
	if checks <= 0 {
		checks = DefaultChecks
	}
	popts := properties.Options{Checks: checks, ShrinkTime: opts.ShrinkTime}
	g := gen.Options{LoneSurrogates: res.LoneSurrogates}
	for _, op := range ops {
		var or OpResult
		switch {
		case ctx.Err() != nil:
			or = OpResult{Op: op, NotCovered: "interrupted"}
		case op == protocol.OpHostSend && !(a.Supports(protocol.FeatureHost) && b.Supports(protocol.FeatureHost)):
			or = OpResult{Op: op, NotCovered: "both sides must declare the host feature"}
		default:
			or = runOp(ctx, a, b, op, g, popts, seed, opts)
		}
		if opts.Progress != nil {
			opts.Progress(or)
		}
		res.Ops = append(res.Ops, or)
	}
	res.Elapsed = time.Since(start)
	return res
}

// needsLoneSurrogates reports whether a request is out of a run without lone surrogates:
// its args or B's answer (the one a difference takes as wanted) hold one, the rule by which
// a fixture case needs the feature (cases.File.Features). The generators avoid such args;
// an answer can still hold one, such as the id a valid ASCII URI decodes to.
func needsLoneSurrogates(g gen.Options, args *wire.Object, rb protocol.Response) bool {
	if g.LoneSurrogates {
		return false
	}
	if wire.HasLoneSurrogate(args) || rb.OK && wire.HasLoneSurrogate(rb.Result) {
		return true
	}
	return rb.Err != nil && rb.Err.Extra != nil && wire.HasLoneSurrogate(rb.Err.Extra)
}

// stop ends one iteration without failing it.
type stop struct{}

func runOp(ctx context.Context, a, b *adapter.Client, op string, g gen.Options, popts properties.Options, seed uint64, opts Options) OpResult {
	start := time.Now()
	or := OpResult{Op: op}
	if opts.Semantics != nil {
		or.States = map[string]int{}
	}
	groups := &unsupportedGroups{}
	if !opts.NoCorpus {
		if d := replayCorpus(ctx, a, b, op, g, string(opts.Profile), &or, groups); d != nil || or.Transport != "" {
			or.Difference = d
			or.Elapsed = time.Since(start)
			return or
		}
	}
	var last *Difference
	failed, log := properties.Check("diff/"+op, popts, seed, func(t *rapid.T) {
		if or.Transport != "" || ctx.Err() != nil {
			return
		}
		req := gen.Request(t, op, g)
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stop); !ok {
					panic(r)
				}
			}
		}()
		ra := call(ctx, a, req, "A", &or)
		rb := call(ctx, b, req, "B", &or)
		if adapter.Unsupported(ra) || adapter.Unsupported(rb) {
			or.Unsupported++
			groups.add(req, ra, rb)
			return
		}
		if needsLoneSurrogates(g, req.Args, rb) {
			or.NeedLoneSurrogates++
			return
		}
		if last == nil {
			or.Requests++
			if opts.Semantics != nil {
				for _, st := range Classify(req, rb, opts.Semantics) {
					or.States[st]++
				}
			}
		} else {
			or.Shrinks++
		}
		if d := compare.Diff(rb, ra); d != "" {
			ra.ID, rb.ID = 0, 0
			last = &Difference{Op: op, Request: protocol.Request{Op: op, Args: req.Args}, A: ra, B: rb, Diff: d, Fault: fault(ra, rb)}
			t.Fatalf("%s: the answers differ (-B +A)\n%s", op, d)
		}
	})
	switch {
	case or.Transport != "":
	case last != nil:
		or.Difference = last
	case failed:
		// rapid failed outside the comparison (a generator panicked): a defect of the kit.
		or.Transport = "kit: " + firstLine(log)
	case or.Requests == 0 && or.Unsupported > 0:
		or.NotCovered = "every request was answered ADAPTER_UNSUPPORTED"
	}
	if or.Transport == "" && ctx.Err() == nil {
		or.UnsupportedExamples = shrinkUnsupported(ctx, a, b, op, g, popts, seed, groups)
	}
	or.Elapsed = time.Since(start)
	return or
}

// replayCorpus sends op's fixture-corpus requests to both sides in fixture order and returns
// the first difference, narrowed to the first differing input when the case is chunked
// (cases.ChunkParts): the corpus cases are small already, so this is their shrinking.
func replayCorpus(ctx context.Context, a, b *adapter.Client, op string, g gen.Options, profile string, or *OpResult, groups *unsupportedGroups) (d *Difference) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stop); !ok {
				panic(r)
			}
			d = nil
		}
	}()
	for _, cr := range gen.Corpus(op, g, profile) {
		if ctx.Err() != nil {
			return nil
		}
		ra := call(ctx, a, cr.Request, "A", or)
		rb := call(ctx, b, cr.Request, "B", or)
		if adapter.Unsupported(ra) || adapter.Unsupported(rb) {
			or.Unsupported++
			groups.add(cr.Request, ra, rb)
			continue
		}
		if needsLoneSurrogates(g, cr.Request.Args, rb) {
			or.NeedLoneSurrogates++
			continue
		}
		or.Corpus++
		if compare.Agree(rb, ra) {
			continue
		}
		req, source := cr.Request, cr.Source
		for i, p := range cases.ChunkParts(op, cr.Request.Args) {
			pr := protocol.Request{Op: op, Args: p.Args}
			pa := call(ctx, a, pr, "A", or)
			pb := call(ctx, b, pr, "B", or)
			or.Shrinks++
			if !adapter.Unsupported(pa) && !adapter.Unsupported(pb) && !compare.Agree(pb, pa) {
				req, ra, rb = pr, pa, pb
				source = fmt.Sprintf("%s, input %d of %d", cr.Source, i+1, len(cases.ChunkParts(op, cr.Request.Args)))
				break
			}
		}
		ra.ID, rb.ID = 0, 0
		return &Difference{Op: op, Request: protocol.Request{Op: op, Args: req.Args}, A: ra, B: rb, Diff: compare.Diff(rb, ra), Fault: fault(ra, rb), Source: source, Traps: cr.Traps, Requirements: cr.Requirements}
	}
	return nil
}

// call sends req; a transport failure is recorded and ends the iteration and the op.
func call(ctx context.Context, c *adapter.Client, req protocol.Request, side string, or *OpResult) protocol.Response {
	resp, err := c.Do(ctx, req.Op, req.Args)
	if err != nil {
		or.Transport = fmt.Sprintf("%s: %s", side, firstLine(err.Error()))
		or.TransportRequest = string(protocol.Request{Op: req.Op, Args: req.Args}.Line())
		panic(stop{})
	}
	return resp
}

func fault(a, b protocol.Response) string {
	switch {
	case a.OK && b.OK:
		return "result"
	case a.OK != b.OK:
		return "outcome"
	case code(a) != code(b):
		return "code"
	case a.Err != nil && a.Err.Extra.Has("lists") || b.Err != nil && b.Err.Extra.Has("lists"):
		return "lists"
	}
	return "reads"
}

func code(r protocol.Response) string {
	if r.Err == nil {
		return ""
	}
	return r.Err.Code
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Hash returns 8 hex digits of the SHA-256 of the request line: the difference's short name.
func (d *Difference) Hash() string {
	sum := sha256.Sum256(d.Request.Line())
	return hex.EncodeToString(sum[:4])
}

// FileName is the fixture file's name: "diff-<op>-<fault>-<hash>.yaml", the op's dots as
// dashes, e.g. "diff-uri-encode-result-1a2b3c4d.yaml".
func (d *Difference) FileName() string {
	return fmt.Sprintf("diff-%s-%s-%s.yaml", strings.ReplaceAll(d.Op, ".", "-"), d.Fault, d.Hash())
}

// requirements are the spec ids a difference of each op is filed under until a maintainer
// names the precise one: the op's first requirement.
var requirements = map[string]string{
	protocol.OpURIEncode:     "SR-URI-1",
	protocol.OpURIDecode:     "SR-URI-2",
	protocol.OpMentionFormat: "SR-MENTION-1",
	protocol.OpMentionParse:  "SR-MENTION-4",
	protocol.OpConfig:        "SR-CONF-1",
	protocol.OpCandidates:    "SR-CAND-1",
	protocol.OpPrepare:       "SR-PREP-1",
	protocol.OpHostSend:      "SR-HOST-1",
}

// Fixture returns the difference as a fixture file of one case: the shrunk request as args,
// B's answer as want (a failed prepare's reads and a failed candidates' lists included).
// Only host.send differs between releases, so only its case is restricted to profile
// (empty: protocol.Spec).
func (d *Difference) Fixture(profile string) cases.File {
	w := cases.Want{OK: d.B.OK, Result: d.B.Result}
	if !d.B.OK && d.B.Err != nil {
		w.Code = d.B.Err.Code
		if r, ok := d.B.Err.Extra.Get("reads"); ok {
			if list, ok := r.([]any); ok {
				w.Reads, w.HasReads = list, true
			}
		}
		if l, ok := d.B.Err.Extra.Get("lists"); ok {
			if n, ok := l.(float64); ok {
				w.Lists, w.HasLists = n, true
			}
		}
	}
	c := cases.Case{
		Name:         fmt.Sprintf("%s-differs-%s", d.Fault, d.Hash()),
		Requirements: []string{requirements[d.Op]},
		Traps:        d.Traps,
		Args:         d.Request.Args,
		Want:         w,
	}
	if len(d.Requirements) > 0 {
		c.Requirements = d.Requirements
	}
	if d.Op == protocol.OpHostSend {
		if profile == "" {
			profile = protocol.Spec
		}
		c.Profiles = []string{cases.NormalizeProfile(profile)}
	}
	return cases.File{Name: d.FileName(), Version: cases.Version, Op: d.Op, Cases: []cases.Case{c}}
}

// Marshal writes the fixture file (Fixture) with a comment header naming both sides and
// their answers and the seed that found it. The header is ASCII: every other character is
// written as a \uXXXX escape, so no YAML reader sees a line break or a BOM in a comment.
func (d *Difference) Marshal(profile, nameA, nameB string, seed uint64) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("differential: cannot write fixture: %v", r)
		}
	}()
	la, _ := d.A.Line()
	lb, _ := d.B.Line()
	origin := "the request is the minimal one rapid shrank to."
	if d.Source != "" {
		origin = "the request is fixture " + d.Source + "."
		if len(d.Traps) > 0 {
			origin = fmt.Sprintf("the request is fixture %s (%s).", d.Source, strings.Join(d.Traps, ", "))
		}
	}
	header := fmt.Sprintf(`Found by conformance-runner diff (seed %d, profile %s).
want is B's answer; %s
A (%s) answered: %s
B (%s) answered: %s
(-B +A):
%s`, seed, cases.NormalizeProfile(profile), origin, nameA, la, nameB, lb, strings.TrimRight(d.Diff, "\n"))
	return cases.Marshal(d.Fixture(profile), asciiComment(header)), nil
}

// asciiComment escapes every character outside printable ASCII (tabs and no-break spaces
// become spaces), line breaks kept.
func asciiComment(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r >= 0x20 && r < 0x7F:
			b.WriteRune(r)
		case r == '\t' || r == '\u00a0': // go-cmp indents with non-breaking spaces
			b.WriteByte(' ')
		case r > 0xFFFF:
			fmt.Fprintf(&b, `\U%08X`, r)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	return b.String()
}

// CheckFixture runs the one-file fixture data (as written by Marshal) against c with the
// kit's fixture runner and returns the result of each case: a written difference must pass
// against B and fail against A.
func CheckFixture(ctx context.Context, c *adapter.Client, name string, data []byte, profile string) ([]result.Case, error) {
	fsys := fstest.MapFS{name: &fstest.MapFile{Data: data}}
	if _, err := cases.Parse(name, data); err != nil {
		return nil, err
	}
	return cases.Run(ctx, c, fsys, cases.Options{Selection: suite.Selection{Profile: protocol.Profile(profile)}})
}

// Known reports whether op is one of Ops.
func Known(op string) bool { return slices.Contains(Ops, op) }
