package steps

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/formatters"
	messages "github.com/cucumber/messages/go/v34"
)

// The feature run as Cucumber Messages (github.com/cucumber/messages, NDJSON: one Envelope
// per line), so Cucumber's own tools (the HTML formatter, report servers) can render it.
// godog has no such formatter; this one builds the messages from godog's formatter events.

// MessagesProtocolVersion is the Cucumber Messages version the envelopes follow.
const MessagesProtocolVersion = "34.2.0"

const messagesFormat = "sessionref-cucumber-messages"

var (
	messagesMu   sync.Mutex
	messagesRuns = map[string]*messagesRun{} // by godog suite name, one per run under way
	messagesSeq  int
)

func init() {
	godog.Format(messagesFormat, "Cucumber Messages (NDJSON) of the run, for sessionref-kit", func(suite string, _ io.Writer) formatters.Formatter {
		messagesMu.Lock()
		defer messagesMu.Unlock()
		if r := messagesRuns[suite]; r != nil {
			return r
		}
		return &messagesRun{} // not ours: collects and writes nothing
	})
}

// newMessagesRun registers a run writing to w under a fresh suite name.
func newMessagesRun(w io.Writer, selected func(*messages.Pickle) bool) (suite string, r *messagesRun, done func()) {
	messagesMu.Lock()
	defer messagesMu.Unlock()
	messagesSeq++
	suite = "sessionref-kit-messages-" + strconv.Itoa(messagesSeq)
	r = &messagesRun{w: w, selected: selected}
	messagesRuns[suite] = r
	return suite, r, func() {
		messagesMu.Lock()
		delete(messagesRuns, suite)
		messagesMu.Unlock()
	}
}

// messagesRun is a godog formatter that buffers the run and writes its envelopes, in the
// order Cucumber's tools expect, when the run ends.
type messagesRun struct {
	w        io.Writer
	selected func(*messages.Pickle) bool
	err      error

	start    time.Time
	sources  []*messages.Envelope // source, gherkinDocument and pickle envelopes
	cases    []*testCase
	cur      *testCase
	ids      int
	failures int
}

type testCase struct {
	pickle   *messages.Pickle
	started  time.Time
	finished time.Time
	steps    []*testStep
	byStep   map[string]*testStep
}

type testStep struct {
	id, pickleStepID string
	started, ended   time.Time
	result           *messages.TestStepResult
}

func (m *messagesRun) id() string { m.ids++; return "sr-" + strconv.Itoa(m.ids) }

func ts(t time.Time) *messages.Timestamp { v := messages.GoTimeToTimestamp(t); return &v }

// TestRunStarted implements formatters.Formatter.
func (m *messagesRun) TestRunStarted() { m.start = time.Now() }

// Feature implements formatters.Formatter.
func (m *messagesRun) Feature(doc *messages.GherkinDocument, uri string, content []byte) {
	m.sources = append(m.sources,
		&messages.Envelope{Source: &messages.Source{Uri: uri, Data: string(content), MediaType: messages.SourceMediaType_TEXT_X_CUCUMBER_GHERKIN_PLAIN}},
		&messages.Envelope{GherkinDocument: doc})
}

// Pickle implements formatters.Formatter: a scenario starts (and the previous one ended).
func (m *messagesRun) Pickle(p *messages.Pickle) {
	m.endCase()
	if m.selected != nil && !m.selected(p) {
		return // not selected: the report leaves it out too
	}
	m.sources = append(m.sources, &messages.Envelope{Pickle: p})
	tc := &testCase{pickle: p, started: time.Now(), byStep: map[string]*testStep{}}
	for _, st := range p.Steps {
		s := &testStep{id: m.id(), pickleStepID: st.Id}
		tc.steps = append(tc.steps, s)
		tc.byStep[st.Id] = s
	}
	m.cur = tc
	m.cases = append(m.cases, tc)
}

func (m *messagesRun) endCase() {
	if m.cur != nil {
		m.cur.finished = time.Now()
		m.cur = nil
	}
}

func (m *messagesRun) step(p *messages.Pickle, st *messages.PickleStep) *testStep {
	if m.cur == nil || m.cur.pickle.Id != p.Id {
		return nil
	}
	return m.cur.byStep[st.Id]
}

// Defined implements formatters.Formatter: a step starts.
func (m *messagesRun) Defined(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition) {
	if s := m.step(p, st); s != nil {
		s.started = time.Now()
	}
}

func (m *messagesRun) result(p *messages.Pickle, st *messages.PickleStep, status messages.TestStepResultStatus, err error) {
	s := m.step(p, st)
	if s == nil {
		return
	}
	s.ended = time.Now()
	if s.started.IsZero() {
		s.started = s.ended
	}
	d := messages.GoDurationToDuration(s.ended.Sub(s.started))
	s.result = &messages.TestStepResult{Status: status, Duration: &d}
	if err != nil {
		s.result.Message = err.Error()
	}
	if status == messages.TestStepResultStatus_FAILED || status == messages.TestStepResultStatus_AMBIGUOUS ||
		status == messages.TestStepResultStatus_UNDEFINED || status == messages.TestStepResultStatus_PENDING {
		m.failures++
	}
}

// Passed implements formatters.Formatter.
func (m *messagesRun) Passed(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition) {
	m.result(p, st, messages.TestStepResultStatus_PASSED, nil)
}

// Failed implements formatters.Formatter.
func (m *messagesRun) Failed(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition, err error) {
	m.result(p, st, messages.TestStepResultStatus_FAILED, err)
}

// Skipped implements formatters.Formatter.
func (m *messagesRun) Skipped(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition) {
	m.result(p, st, messages.TestStepResultStatus_SKIPPED, nil)
}

// Undefined implements formatters.Formatter.
func (m *messagesRun) Undefined(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition) {
	m.result(p, st, messages.TestStepResultStatus_UNDEFINED, nil)
}

// Pending implements formatters.Formatter.
func (m *messagesRun) Pending(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition) {
	m.result(p, st, messages.TestStepResultStatus_PENDING, nil)
}

// Ambiguous implements formatters.Formatter.
func (m *messagesRun) Ambiguous(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition, err error) {
	m.result(p, st, messages.TestStepResultStatus_AMBIGUOUS, err)
}

// Summary implements formatters.Formatter: the run ended; write every envelope.
func (m *messagesRun) Summary() {
	m.endCase()
	if m.w == nil {
		return
	}
	enc := json.NewEncoder(m.w)
	enc.SetEscapeHTML(false)
	put := func(e *messages.Envelope) {
		if m.err == nil {
			m.err = enc.Encode(e)
		}
	}
	put(&messages.Envelope{Meta: &messages.Meta{
		ProtocolVersion: MessagesProtocolVersion,
		Implementation:  &messages.Product{Name: "sessionref-kit"},
		Runtime:         &messages.Product{Name: "go", Version: strings.TrimPrefix(runtime.Version(), "go")},
		Os:              &messages.Product{Name: runtime.GOOS},
		Cpu:             &messages.Product{Name: runtime.GOARCH},
	}})
	for _, e := range m.sources {
		put(e)
	}
	if m.start.IsZero() {
		m.start = time.Now()
	}
	runID := m.id()
	put(&messages.Envelope{TestRunStarted: &messages.TestRunStarted{Id: runID, Timestamp: ts(m.start)}})
	caseIDs := make([]string, len(m.cases))
	for i, tc := range m.cases {
		caseIDs[i] = m.id()
		tsteps := make([]*messages.TestStep, len(tc.steps))
		for j, s := range tc.steps {
			tsteps[j] = &messages.TestStep{Id: s.id, PickleStepId: s.pickleStepID, StepDefinitionIds: []string{}}
		}
		put(&messages.Envelope{TestCase: &messages.TestCase{Id: caseIDs[i], PickleId: tc.pickle.Id, TestSteps: tsteps, TestRunStartedId: runID}})
	}
	for i, tc := range m.cases {
		startedID := m.id()
		put(&messages.Envelope{TestCaseStarted: &messages.TestCaseStarted{Id: startedID, TestCaseId: caseIDs[i], Timestamp: ts(tc.started)}})
		for _, s := range tc.steps {
			res := s.result
			at := s.started
			if res == nil {
				// godog reported nothing for the step (the scenario stopped before it).
				zero := messages.Duration{}
				res, at = &messages.TestStepResult{Status: messages.TestStepResultStatus_SKIPPED, Duration: &zero}, tc.finished
			}
			put(&messages.Envelope{TestStepStarted: &messages.TestStepStarted{TestCaseStartedId: startedID, TestStepId: s.id, Timestamp: ts(at)}})
			end := s.ended
			if end.IsZero() {
				end = at
			}
			put(&messages.Envelope{TestStepFinished: &messages.TestStepFinished{TestCaseStartedId: startedID, TestStepId: s.id, TestStepResult: res, Timestamp: ts(end)}})
		}
		put(&messages.Envelope{TestCaseFinished: &messages.TestCaseFinished{TestCaseStartedId: startedID, Timestamp: ts(tc.finished)}})
	}
	put(&messages.Envelope{TestRunFinished: &messages.TestRunFinished{TestRunStartedId: runID, Success: m.failures == 0, Timestamp: ts(time.Now())}})
	if m.err != nil {
		m.err = fmt.Errorf("cucumber messages: %w", m.err)
	}
}
