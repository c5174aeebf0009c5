// Package steps runs the Gherkin features (features/) against an adapter with godog, strict.
//
// The step definitions speak the features' domain language (a session, a mention, a
// snapshot) and translate it to protocol requests: a Given builds the world document, the
// target agent, the configuration and the cancellation; a When names one request, sent when
// the first Then needs its outcome; a Then checks that outcome. Every scenario gets a fresh
// state.
package steps

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
)

// Options select and observe a run of the features.
type Options struct {
	// Selection selects the scenarios: its Tags over each scenario's tags (package tagexpr:
	// "@SR-URI-1 and not @slow"), its Run and Skip over "features/" and the scenario's
	// name, its Units over the feature files' paths, its profile over the profile tags.
	Selection suite.Selection
	// Progress, when set, is called with each scenario's result as it finishes.
	Progress func(result.Case)
	// Messages, when set, receives the run as Cucumber Messages (NDJSON), written when the
	// run ends; scenarios Select leaves out are left out.
	Messages io.Writer
}

// Part is the features part of a run (suite.Part): FS holds the feature files, Messages, when
// set, receives the run as Cucumber Messages (see Options).
type Part struct {
	FS       fs.FS
	Messages io.Writer
}

var _ suite.Part = Part{}

// Name implements suite.Part.
func (Part) Name() string { return "features" }

// Unit implements suite.Part.
func (Part) Unit() string { return "scenarios" }

// Run implements suite.Part.
func (p Part) Run(ctx context.Context, c *adapter.Client, sel suite.Selection, progress func(result.Case)) ([]result.Case, error) {
	return Run(ctx, c, p.FS, Options{Selection: sel, Progress: progress, Messages: p.Messages})
}

// Skipped is the message of a check that a skip list kept from running (--skip).
const Skipped = suite.Skipped

// The profile tags: a scenario tagged with one applies to that release only
// (protocol.Profile.Tag).
var (
	TagProfile001 = protocol.Profile001.Tag()
	TagProfile010 = protocol.Profile010.Tag()
)

// Feature tags: a scenario tagged with one needs the adapter to declare that feature.
var featureTags = map[string]string{
	"@" + protocol.FeatureLoneSurrogates: protocol.FeatureLoneSurrogates,
	"@" + protocol.FeatureHost:           protocol.FeatureHost,
}

// ProfileTags returns the tag expression that selects the scenarios of profile, combined
// with the user's expression tags (godog syntax: "," separates alternatives, "&&" joins):
// those tagged for another release are left out.
func ProfileTags(tags string, profile protocol.Profile) string {
	var ex []string
	for _, p := range protocol.Profiles {
		if p != profile.Or() {
			ex = append(ex, "~"+p.Tag())
		}
	}
	exclude := strings.Join(ex, " && ")
	if strings.TrimSpace(tags) == "" {
		return exclude
	}
	groups := strings.Split(tags, ",")
	for i, g := range groups {
		groups[i] = strings.TrimSpace(g) + " && " + exclude
	}
	return strings.Join(groups, ",")
}

// pickleTags returns the names of a scenario's tags, its feature's included.
func pickleTags(s *godog.Scenario) []string {
	out := make([]string, len(s.Tags))
	for i, t := range s.Tags {
		out[i] = t.Name
	}
	return out
}

// part is the part of a run the features are.
const part = "features"

// defineAll makes every scenario define every step, not only those it can match (register):
// for the test that both give the same results.
var defineAll bool

// anyStep matches every step text: the one definition of a scenario the selection leaves out.
var anyStep = regexp.MustCompile(``)

// Run runs every selected scenario of the features in fsys against c and returns one Case per
// scenario (Part "features"). An error means the features could not be run at all.
func Run(ctx context.Context, c *adapter.Client, fsys fs.FS, opts Options) (_ []result.Case, err error) {
	sel := opts.Selection
	if err := sel.Err(); err != nil {
		return nil, err
	}
	if fsys, err = sel.UnitsOf(fsys); err != nil {
		return nil, err
	}
	var (
		mu   sync.Mutex
		out  []result.Case
		srcs = sources(fsys)
	)
	record := func(rc result.Case) {
		mu.Lock()
		out = append(out, rc)
		mu.Unlock()
		if opts.Progress != nil {
			opts.Progress(rc)
		}
	}
	// The user's expression is matched here, not by godog, whose filter knows only its older
	// syntax; godog still drops the other profile's scenarios.
	suite := godog.TestSuite{
		Name: "sessionref-kit",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			st := &state{ctx: ctx, c: c, profile: string(sel.Release()), sources: srcs}
			sc.Before(func(gctx context.Context, s *godog.Scenario) (context.Context, error) {
				// godog matches the first step after the before hooks: the steps this
				// scenario can match are defined in time, and only those (register).
				if !sel.Selects(part, s.Name, pickleTags(s)) {
					// Not selected: skipped, and not reported. Its steps need no definitions
					// of their own, only one that any text matches: undefined, they would
					// cost godog a snippet each (a third more for a narrow selection).
					sc.Step(anyStep, func() {})
					st.done = true
					return gctx, godog.ErrSkip
				}
				why := sel.SkipReason(part, s.Name)
				if why == suite.NotTaken {
					sc.Step(anyStep, func() {}) // as a scenario not selected
					st.done = true
					return gctx, godog.ErrSkip
				}
				var texts []string
				if !defineAll {
					texts = make([]string, len(s.Steps))
					for i, step := range s.Steps {
						texts[i] = step.Text
					}
				}
				st.register(sc, texts)
				st.begin(s)
				if why != "" {
					st.notCovered = why
					return gctx, godog.ErrSkip
				}
				return gctx, nil
			})
			sc.After(func(gctx context.Context, s *godog.Scenario, err error) (context.Context, error) {
				if rc, ok := st.finish(s, err); ok {
					record(rc.Clipped()) // bounded, whatever the adapter answered
				}
				return gctx, nil
			})
		},
		Options: &godog.Options{
			FS:             fsys,
			Paths:          []string{"."},
			Strict:         true,
			Tags:           ProfileTags("", sel.Release()),
			Format:         "progress",
			Output:         io.Discard,
			NoColors:       true,
			DefaultContext: ctx,
			Concurrency:    1,
		},
	}
	if opts.Messages != nil {
		name, m, done := newMessagesRun(opts.Messages, func(p *messages.Pickle) bool {
			tags := make([]string, len(p.Tags))
			for i, t := range p.Tags {
				tags[i] = t.Name
			}
			return sel.Selects(part, p.Name, tags)
		})
		defer done()
		suite.Name, suite.Options.Format, suite.Options.Output = name, messagesFormat, io.Discard
		defer func() {
			if err == nil && m.err != nil {
				err = m.err
			}
		}()
	}
	if status := suite.Run(); status == 2 {
		return out, errParse
	}
	return out, nil
}

// begin records the scenario's identity and what it needs of the adapter.
func (st *state) begin(s *godog.Scenario) {
	st.start = time.Now()
	st.rc = result.Case{Part: part, Area: strings.TrimSuffix(path.Base(s.Uri), ".feature"), Name: s.Name}
	st.rc.Source = st.sources[st.rc.Area+"\x00"+s.Name]
	for _, t := range s.Tags {
		if strings.HasPrefix(t.Name, "@SR-") && !slices.Contains(st.rc.Requirements, t.Name[1:]) {
			st.rc.Requirements = append(st.rc.Requirements, t.Name[1:])
		}
		if f, ok := featureTags[t.Name]; ok && !st.c.Supports(f) && st.notCovered == "" {
			st.notCovered = suite.MissingFeature(f)
		}
	}
}

// finish turns the scenario's outcome into a Case, once.
func (st *state) finish(s *godog.Scenario, err error) (result.Case, bool) {
	if st.done {
		return result.Case{}, false
	}
	st.done = true
	if st.rc.Name == "" {
		st.begin(s)
	}
	rc := st.rc
	rc.Duration = time.Since(st.start)
	rc.Input, rc.Got = st.lastInput, st.lastGot
	switch {
	case st.transport != nil:
		rc.Status, rc.Message = result.Error, st.transport.Error()
	case st.notCovered != "":
		rc.Status, rc.Message = result.NotCovered, st.notCovered
	case err != nil && !errors.Is(err, godog.ErrSkip):
		rc.Status, rc.Message = result.Fail, firstLine(err.Error())
		var de *diffError
		if errors.As(err, &de) {
			rc.Diff = de.diff
			rc.Message = de.what + " differs" // the reports show the diff
			rc.Want, rc.Got = de.want, de.got
		}
	default:
		rc.Status = result.Pass
	}
	return rc, true
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// diffError is a failed expectation: both sides and how they differ (compare.Explain).
type diffError struct {
	what      string
	diff      *compare.Difference
	want, got result.Value
}

func (e *diffError) Error() string { return fmt.Sprintf("%s (-want +got):\n%s", e.what, e.diff) }
