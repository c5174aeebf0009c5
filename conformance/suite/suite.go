// Package suite holds what the three parts of a run (the features, the fixtures and the
// properties) share: one Selection of their checks, and the one way a check that is not run
// is reported (NotCovered).
package suite

import (
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing/fstest"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/tagexpr"
)

// Part is one part of a certification run: the features (package steps), the fixtures
// (package cases) or the properties (package properties). The runner treats the three
// alike: it gives each the run's Selection and collects the cases it reports.
type Part interface {
	// Name is the part's name, the first element of its checks' names ("fixtures").
	Name() string
	// Unit says what the part counts, plural ("fixture cases"), for a report's note.
	Unit() string
	// Run makes the checks sel selects against c and returns one Case per selected check,
	// calling progress (when not nil) with each as it ends. An error is a defect of the kit's
	// own data (a fixture that does not load), never of the implementation.
	Run(ctx context.Context, c *adapter.Client, sel Selection, progress func(result.Case)) ([]result.Case, error)
	// List gives the checks Run would report for sel, in the same order, as values, without
	// running anything: those Skip matches included. Its error is Run's for the same data.
	List(sel Selection) ([]Check, error)
}

// Check is one check of a part, known before anything runs: what the reports name it by,
// what it checks, and where it is defined.
type Check struct {
	Part, Area, Name string
	// Requirements are the spec ids it checks (SR-URI-3); Traps the porting traps it is
	// built to catch.
	Requirements, Traps []string
	// Source is where it is defined (zero for a property).
	Source result.Source
}

// ID is the check's name as --run, --skip and the reports name it: "part/name".
func (c Check) ID() string { return c.Part + "/" + c.Name }

// Case returns the check's result with status st and message msg, as a run reports a check
// it does not run.
func (c Check) Case(st result.Status, msg string) result.Case {
	return result.Case{Part: c.Part, Area: c.Area, Name: c.Name, Requirements: slices.Clone(c.Requirements),
		Traps: slices.Clone(c.Traps), Source: c.Source, Status: st, Message: msg}
}

// Skipped is the message of a selected check that Selection.Skip kept from running (--skip).
const Skipped = "skipped (--skip)"

// Selection chooses the checks of a run, the same way in every part. A check is named
// "part/name" as the reports name it ("fixtures/uri-decode/padding"). The zero value selects
// every check of the default profile.
//
// A Selection built as a literal behaves as one from NewSelection: its expressions are
// compiled on first use; one that does not compile selects nothing (NewSelection reports it).
type Selection struct {
	// Profile is the contract release certified; the zero value is protocol.DefaultProfile.
	Profile protocol.Profile
	// Tags is a tag expression (package tagexpr: Cucumber's syntax, or godog's older one)
	// over each check's tags; empty selects every check.
	Tags string
	// Match is the --run expression: a regular expression over "part/name", unanchored like
	// go test -run; empty selects every check.
	Match string
	// Skip is a regular expression over the same names: the selected checks it matches are
	// reported not covered, with the message Skipped, without being run.
	Skip string
	// Shard and Shards split a run deterministically: shard K of N (1-based) takes every
	// Nth check of the run (see InShard; the caller sets Only). Zero means unsharded.
	Shard, Shards int
	// Units, when not nil, are the units of one part this selection takes (a feature or
	// fixture file's path, a property's name): the caller's shard of that part.
	Units []string
	// Only, when not nil, holds the "part/name" of the checks this selection takes: the
	// caller's shard of the run (see Check.ID).
	Only map[string]bool
	// Stop, when set, is asked before each selected check that Skip leaves: a reason other
	// than "" reports the check not covered with that reason, without running it (the
	// runner's --max-fail).
	Stop func() string
	// Take, when set, is asked once per selected check, in run order, as it comes to run
	// and before Skip and Stop: false leaves the check out of the run and of its results
	// (SkipReason says NotTaken). A Go test's subtests answer it (go test -run).
	Take func(part, name string) bool
}

type compiled struct {
	err       error
	tags      tagexpr.Expr
	run, skip *regexp.Regexp
	profile   protocol.Profile
}

// cache holds compiled selections by their expressions, so a literal Selection is compiled
// once, not per check.
var cache sync.Map // [4]string -> *compiled

func (s Selection) compiled() *compiled {
	key := [4]string{string(s.Profile), s.Tags, s.Match, s.Skip}
	if c, ok := cache.Load(key); ok {
		return c.(*compiled)
	}
	c := &compiled{}
	c.profile, c.err = s.profile()
	if c.err == nil {
		if c.tags, c.err = tagexpr.Parse(s.Tags); c.err != nil {
			c.err = fmt.Errorf("--tags: %v", c.err)
		}
	}
	for _, re := range []struct {
		flag, src string
		dst       **regexp.Regexp
	}{{"--run", s.Match, &c.run}, {"--skip", s.Skip, &c.skip}} {
		if c.err == nil && re.src != "" {
			if *re.dst, c.err = regexp.Compile(re.src); c.err != nil {
				c.err = fmt.Errorf("%s: %v", re.flag, c.err)
			}
		}
	}
	cache.Store(key, c)
	return c
}

func (s Selection) profile() (protocol.Profile, error) {
	if s.Profile == "" {
		return protocol.DefaultProfile, nil
	}
	return protocol.ParseProfile(string(s.Profile))
}

// NewSelection checks s and returns it with its profile in canonical form ("0.1.0" is
// "0.1.0-rc.8"). Its errors name the flag at fault.
func NewSelection(s Selection) (Selection, error) {
	c := s.compiled()
	if c.err != nil {
		return s, c.err
	}
	if s.Shards < 0 || s.Shard < 0 || (s.Shards == 0) != (s.Shard == 0) || s.Shard > s.Shards {
		return s, fmt.Errorf("shard %d/%d: want K/N with 1 <= K <= N", s.Shard, s.Shards)
	}
	s.Profile = c.profile
	return s, nil
}

// Err returns why s selects nothing, or nil.
func (s Selection) Err() error { return s.compiled().err }

// Release returns the contract release certified.
func (s Selection) Release() protocol.Profile {
	if c := s.compiled(); c.err == nil {
		return c.profile
	}
	return s.Profile
}

// Selects reports whether the check part/name, with tags, is selected: its tags satisfy
// Tags, its name matches Match, and Only (when set) holds it.
func (s Selection) Selects(part, name string, tags []string) bool {
	c := s.compiled()
	return c.err == nil && c.tags.Match(tags) && (c.run == nil || c.run.MatchString(part+"/"+name)) &&
		(s.Only == nil || s.Only[part+"/"+name])
}

// Skips reports whether Skip matches part/name.
func (s Selection) Skips(part, name string) bool {
	c := s.compiled()
	return c.skip != nil && c.skip.MatchString(part+"/"+name)
}

// NotTaken is SkipReason's answer for a check Take leaves out: the part neither runs nor
// reports it.
const NotTaken = "\x00not taken"

// SkipReason returns why a selected check part/name is not run: NotTaken when Take leaves it
// out, else Skipped when Skip matches it, else Stop's reason, else "" (it runs).
func (s Selection) SkipReason(part, name string) string {
	if s.Take != nil && !s.Take(part, name) {
		return NotTaken
	}
	if s.Skips(part, name) {
		return Skipped
	}
	if s.Stop != nil {
		return s.Stop()
	}
	return ""
}

// InShard reports whether the check at index i of a run's checks (every part's, in run
// order) is in this shard: check i belongs to shard i mod N, so shards differ by one check
// at most and their union is the whole run.
func (s Selection) InShard(i int) bool { return s.Shards == 0 || i%s.Shards == s.Shard-1 }

// TakesUnit reports whether unit (a file's path, a property's name) is one of Units.
func (s Selection) TakesUnit(unit string) bool {
	return s.Units == nil || slices.Contains(s.Units, unit)
}

// UnitsOf returns fsys restricted to Units (fsys itself when Units is nil).
func (s Selection) UnitsOf(fsys fs.FS) (fs.FS, error) {
	if s.Units == nil {
		return fsys, nil
	}
	m := fstest.MapFS{}
	for _, f := range s.Units {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		m[f] = &fstest.MapFile{Data: b}
	}
	return m, nil
}

// NotCovered returns c reported not covered for reason, the one way every part reports a
// check it does not run or cannot judge (skipped, a feature the adapter does not declare,
// an op it answers ADAPTER_UNSUPPORTED, --max-fail reached).
func NotCovered(c result.Case, reason string) result.Case {
	c.Status, c.Message = result.NotCovered, reason
	return c
}

// KitBug returns the check that reports the kit's own data broken in part: a fixture bug,
// never non-conformance.
func KitBug(part string, err error) result.Case {
	return result.Case{Part: part, Area: "kit", Name: "(" + part + ")", Status: result.FixtureBug, Message: oneLine(err.Error())}
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// MissingFeature is the reason a check needing feature is not covered by an adapter that
// does not declare it in its hello.
func MissingFeature(feature string) string {
	return "the adapter does not declare feature " + feature
}
