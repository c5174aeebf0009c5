package steps_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"strings"
	"testing"

	messages "github.com/cucumber/messages/go/v34"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/steps"
)

// TestCucumberMessages runs the @uri scenarios against an implementation that fails some of
// them, with Cucumber Messages on, and checks the NDJSON the way Cucumber's tools read it:
// one envelope a line, every id resolves, one test case per reported scenario, and a
// scenario fails in the messages exactly when it fails in the report.
func TestCucumberMessages(t *testing.T) {
	var buf bytes.Buffer
	selected := func(name string) bool { return !strings.Contains(name, "round-trips") }
	// Every scenario but "Every JavaScript string round-trips: …" (a regexp has no "not").
	res := run(t, wrong{op: protocol.OpURIEncode, h: &refadapter.Reference{}}, nil, steps.Options{Selection: suite.Selection{Tags: "@uri", Match: "^features/(?:[^E]|E[^v])"}, Messages: &buf})

	var envs []*messages.Envelope
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e messages.Envelope
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d is not an envelope: %v", len(envs)+1, err)
		}
		envs = append(envs, &e)
	}
	if len(envs) == 0 || envs[0].Meta == nil || envs[0].Meta.ProtocolVersion != steps.MessagesProtocolVersion {
		t.Fatalf("the first envelope is not meta: %+v", envs)
	}
	last := envs[len(envs)-1].TestRunFinished
	if last == nil || last.Success {
		t.Fatalf("the last envelope is not a failed testRunFinished: %+v", envs[len(envs)-1])
	}
	pickles := map[string]*messages.Pickle{}
	pickleSteps := map[string]bool{}
	cases := map[string]*messages.TestCase{}
	steps := map[string]bool{}
	started := map[string]string{} // testCaseStarted id -> pickle name
	failed := map[string]bool{}    // pickle name -> a step failed
	finished := map[string]bool{}
	for _, e := range envs {
		switch {
		case e.Pickle != nil:
			pickles[e.Pickle.Id] = e.Pickle
			for _, s := range e.Pickle.Steps {
				pickleSteps[s.Id] = true
			}
		case e.TestCase != nil:
			if pickles[e.TestCase.PickleId] == nil {
				t.Errorf("testCase %s names no pickle", e.TestCase.Id)
			}
			for _, s := range e.TestCase.TestSteps {
				if !pickleSteps[s.PickleStepId] {
					t.Errorf("testStep %s names no pickle step", s.Id)
				}
				steps[s.Id] = true
			}
			cases[e.TestCase.Id] = e.TestCase
		case e.TestCaseStarted != nil:
			tc := cases[e.TestCaseStarted.TestCaseId]
			if tc == nil {
				t.Fatalf("testCaseStarted %s names no test case", e.TestCaseStarted.Id)
			}
			started[e.TestCaseStarted.Id] = pickles[tc.PickleId].Name
		case e.TestStepFinished != nil:
			name, ok := started[e.TestStepFinished.TestCaseStartedId]
			if !ok || !steps[e.TestStepFinished.TestStepId] {
				t.Errorf("testStepFinished names an unknown case or step: %+v", e.TestStepFinished)
			}
			if e.TestStepFinished.TestStepResult.Status == messages.TestStepResultStatus_FAILED {
				failed[name] = true
			}
		case e.TestCaseFinished != nil:
			finished[e.TestCaseFinished.TestCaseStartedId] = true
		}
	}
	if len(cases) != len(res) || len(started) != len(res) || len(finished) != len(res) {
		t.Errorf("%d test cases, %d started, %d finished, for %d scenarios reported", len(cases), len(started), len(finished), len(res))
	}
	nfail := 0
	for _, r := range res {
		if selected(r.Name) != true {
			t.Errorf("%s: reported though not selected", r.Name)
		}
		if (r.Status == result.Fail) != failed[r.Name] {
			t.Errorf("%s: %s in the report, failed %v in the messages", r.Name, r.Status, failed[r.Name])
		}
		if r.Status == result.Fail {
			nfail++
		}
	}
	if nfail == 0 {
		t.Error("no scenario failed: the test checks nothing")
	}
}
