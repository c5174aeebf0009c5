package suite_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// TestLiteralSelectionSelects: a Selection built as a literal selects as NewSelection's does;
// nothing is silently ignored.
func TestLiteralSelectionSelects(t *testing.T) {
	lit := suite.Selection{Tags: "@uri", Match: "^fixtures/uri-", Skip: "padding"}
	built, err := suite.NewSelection(lit)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []suite.Selection{lit, built} {
		if !s.Selects("fixtures", "uri-decode/x", []string{"uri"}) {
			t.Error("uri-decode/x with tag uri not selected")
		}
		if s.Selects("fixtures", "uri-decode/x", []string{"mention"}) {
			t.Error("--tags ignored")
		}
		if s.Selects("fixtures", "mention-parse/x", []string{"uri"}) {
			t.Error("--run ignored")
		}
		if got := s.SkipReason("fixtures", "uri-decode/padding"); got != suite.Skipped {
			t.Errorf("SkipReason = %q, want %q", got, suite.Skipped)
		}
		if got := s.SkipReason("fixtures", "uri-decode/x"); got != "" {
			t.Errorf("SkipReason = %q, want none", got)
		}
	}
}

// TestInvalidSelectionSelectsNothing: an expression that does not compile is an error from
// NewSelection naming its flag, and a literal holding it selects nothing rather than all.
func TestInvalidSelectionSelectsNothing(t *testing.T) {
	for _, tt := range []struct {
		sel  suite.Selection
		flag string
	}{
		{suite.Selection{Match: "("}, "--run"},
		{suite.Selection{Skip: "["}, "--skip"},
		{suite.Selection{Tags: "uri"}, "--tags"},
		{suite.Selection{Profile: "9.9"}, "unknown profile"},
		{suite.Selection{Shard: 3, Shards: 2}, "shard 3/2"},
		{suite.Selection{Shard: 1}, "shard 1/0"},
	} {
		_, err := suite.NewSelection(tt.sel)
		if err == nil || !strings.Contains(err.Error(), tt.flag) {
			t.Errorf("NewSelection(%+v) = %v, want an error naming %s", tt.sel, err, tt.flag)
		}
		if tt.sel.Shards == 0 && tt.sel.Shard == 0 && tt.sel.Selects("fixtures", "uri-decode/x", []string{"@uri"}) {
			t.Errorf("%+v selects a check", tt.sel)
		}
	}
}

func TestSelectionProfile(t *testing.T) {
	s, err := suite.NewSelection(suite.Selection{Profile: "0.1.0"})
	if err != nil || s.Profile != protocol.Profile010 || s.Release() != protocol.Profile010 {
		t.Errorf("NewSelection(0.1.0) = %q (%q), %v; want %q", s.Profile, s.Release(), err, protocol.Profile010)
	}
	if got := (suite.Selection{}).Release(); got != protocol.DefaultProfile {
		t.Errorf("zero Release = %q", got)
	}
}

// TestStopComesAfterSkip: --skip's reason wins over Stop's (--max-fail), and Stop is asked
// only of the checks Skip leaves.
func TestStopComesAfterSkip(t *testing.T) {
	asked := 0
	s := suite.Selection{Skip: "b", Stop: func() string { asked++; return "not run: stopped" }}
	if got := s.SkipReason("features", "b"); got != suite.Skipped || asked != 0 {
		t.Errorf("SkipReason(b) = %q (Stop asked %d times)", got, asked)
	}
	if got := s.SkipReason("features", "a"); got != "not run: stopped" || asked != 1 {
		t.Errorf("SkipReason(a) = %q (Stop asked %d times)", got, asked)
	}
}

// TestShardsPartitionUnits: every unit is in exactly one shard.
func TestShardsPartitionUnits(t *testing.T) {
	for n := 1; n <= 4; n++ {
		for i := range 10 {
			in := 0
			for k := 1; k <= n; k++ {
				if (suite.Selection{Shard: k, Shards: n}).InShard(i) {
					in++
				}
			}
			if in != 1 {
				t.Errorf("unit %d is in %d of %d shards", i, in, n)
			}
		}
	}
	if !(suite.Selection{}).InShard(7) {
		t.Error("an unsharded selection takes every unit")
	}
}

func TestUnits(t *testing.T) {
	fsys := fstest.MapFS{"a.yaml": {Data: []byte("a")}, "b.yaml": {Data: []byte("b")}}
	s := suite.Selection{Units: []string{"b.yaml"}}
	sub, err := s.UnitsOf(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(sub, "b.yaml"); err != nil {
		t.Error(err)
	}
	if _, err := sub.Open("a.yaml"); err == nil {
		t.Error("a.yaml is not a unit of the selection")
	}
	if s.TakesUnit("a.yaml") || !s.TakesUnit("b.yaml") || !(suite.Selection{}).TakesUnit("a.yaml") {
		t.Error("TakesUnit")
	}
	if _, err := (suite.Selection{Units: []string{"missing.yaml"}}).UnitsOf(fsys); err == nil {
		t.Error("a missing unit is an error")
	}
}

func TestNotCoveredAndKitBug(t *testing.T) {
	c := suite.NotCovered(result.Case{Part: "fixtures", Name: "x", Status: result.Pass}, suite.MissingFeature(protocol.FeatureHost))
	if c.Status != result.NotCovered || c.Message != "the adapter does not declare feature host" {
		t.Errorf("NotCovered = %+v", c)
	}
	b := suite.KitBug("fixtures", errString("line 3: bad\nmore"))
	if b.Status != result.FixtureBug || b.Name != "(fixtures)" || b.Message != "line 3: bad" {
		t.Errorf("KitBug = %+v", b)
	}
}

type errString string

func (e errString) Error() string { return string(e) }
