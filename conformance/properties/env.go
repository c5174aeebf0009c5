package properties

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

var lookupEnv = os.LookupEnv

// env is what a property body sees: the adapter under test, the reference, and the recorder.
type env struct {
	ctx  context.Context
	c    *adapter.Client
	ref  adapter.Caller
	gen  gen.Options
	seed uint64
	rec  *recorder
}

// stopIteration ends one property iteration early without failing it: the adapter declared
// the input unsupported, or the property was aborted.
type stopIteration struct{}

// failure is the evidence of one failing iteration.
type failure struct {
	message          string
	input, want, got result.Value
	diff             *compare.Difference // for a check that compared two answers or values
}

// recorder collects what rapid's verdict does not say: transport errors, unsupported inputs,
// and the evidence of the last failing iteration (rapid replays the shrunk input last, so the
// last failure is the minimal one).
type recorder struct {
	iterations, covered, unsupported int
	unsupportedMsg                   string
	transport                        string
	transportInput                   result.Value
	last                             *failure
}

// stopped reports whether the property was aborted: once the adapter broke the protocol, the
// remaining iterations pass without calling it, so rapid ends quickly instead of shrinking
// against a dead adapter.
func (r *recorder) stopped() bool { return r.transport != "" }

// call sends one request to the adapter. A transport failure aborts the property; an
// ADAPTER_UNSUPPORTED answer ends the iteration as not covered.
func (e *env) call(t *rapid.T, op string, args *wire.Object) protocol.Response {
	resp, err := e.c.Do(e.ctx, op, args)
	if err != nil {
		e.rec.transport = oneLine(err.Error())
		e.rec.transportInput = sent(op, args, nil)
		panic(stopIteration{})
	}
	if adapter.Unsupported(resp) {
		e.rec.unsupported++
		if e.rec.unsupportedMsg == "" {
			e.rec.unsupportedMsg = adapter.UnsupportedReason(op, resp)
		}
		panic(stopIteration{})
	}
	return resp
}

// reference answers the request with the embedded reference.
func (e *env) reference(op string, args *wire.Object) protocol.Response {
	resp, _ := e.ref.Call(e.ctx, protocol.Request{ID: 1, Op: op, Args: args})
	return resp
}

// oracleFailed ends the property as an error of the kit: the oracle gave no answer a
// property can use to ask the contract (the embedded reference always does).
func (e *env) oracleFailed(op string, args *wire.Object, resp protocol.Response) {
	e.rec.transport = "properties: the oracle gave no usable answer to " + op + ": " + oneLine(respLine(resp))
	e.rec.transportInput = sent(op, args, nil)
	panic(stopIteration{})
}

// fail records the evidence and fails the iteration.
func (e *env) fail(t *rapid.T, f failure) {
	// Clipped before it is kept or logged: an answer may be megabytes (result.Clip).
	c := result.Case{Message: f.message, Input: f.input, Want: f.want, Got: f.got, Diff: f.diff}.Clipped()
	f = failure{message: c.Message, input: c.Input, want: c.Want, got: c.Got, diff: c.Diff}
	e.rec.last = &f
	// rapid keeps a smaller input only if it fails with the same message twice over, and the
	// transport numbers every request: with the answer's own id in the message, every step
	// of shrinking was refused, and the input reported was the first failing one, unshrunk.
	noID := func(v result.Value) string { return answerID.ReplaceAllString(v.String(), `{"id":0,`) }
	t.Fatalf("%s\ninput: %s\nwant: %s\ngot:  %s\n%s", f.message, noID(f.input), noID(f.want), noID(f.got), f.diff)
}

// answerID is the id a request or response line starts with (protocol.Request.Line,
// protocol.Response.Line).
var answerID = regexp.MustCompile(`^\{"id":-?[0-9]+,`)

// failf fails the iteration for a request and its response, with a message; want is the
// expected answer as JSON text, or a description of it.
func (e *env) failf(t *rapid.T, op string, args *wire.Object, got protocol.Response, want string, format string, a ...any) {
	e.fail(t, failure{message: fmt.Sprintf(format, a...), input: sent(op, args, &got), want: described(want), got: result.Answer(got, nil)})
}

// described is a property's expected answer: its JSON text, or a description ("a string").
func described(want string) result.Value {
	if _, err := wire.Parse(want); err == nil {
		return result.Line([]byte(want))
	}
	return result.Value{Text: want}
}

// sent is a request as the adapter received it, with the id of its answer when there is
// one (id 0 otherwise).
func sent(op string, args *wire.Object, got *protocol.Response) result.Value {
	return result.Request(protocol.Request{Op: op, Args: args}, got)
}

func respLine(r protocol.Response) string {
	b, err := r.Line()
	if err != nil {
		return fmt.Sprintf("%+v", r)
	}
	return string(b)
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func firstLine(s string) string { return oneLine(s) }

// errFailNow is how recordingTB.FailNow leaves rapid.Check; Run recovers it.
var errFailNow = errors.New("properties: FailNow")

// recordingTB is a rapid.TB that needs no *testing.T: it records failure and logs.
type recordingTB struct {
	name   string
	failed bool
	log    bytes.Buffer
}

func (tb *recordingTB) Helper()                           {}
func (tb *recordingTB) Name() string                      { return tb.name }
func (tb *recordingTB) Logf(format string, args ...any)   { fmt.Fprintf(&tb.log, format+"\n", args...) }
func (tb *recordingTB) Log(args ...any)                   { fmt.Fprintln(&tb.log, args...) }
func (tb *recordingTB) Skipf(format string, args ...any)  { tb.Logf(format, args...); tb.SkipNow() }
func (tb *recordingTB) Skip(args ...any)                  { tb.Log(args...); tb.SkipNow() }
func (tb *recordingTB) SkipNow()                          { panic(errFailNow) }
func (tb *recordingTB) Errorf(format string, args ...any) { tb.Logf(format, args...); tb.Fail() }
func (tb *recordingTB) Error(args ...any)                 { tb.Log(args...); tb.Fail() }
func (tb *recordingTB) Fatalf(format string, args ...any) { tb.Errorf(format, args...); tb.FailNow() }
func (tb *recordingTB) Fatal(args ...any)                 { tb.Error(args...); tb.FailNow() }
func (tb *recordingTB) FailNow()                          { tb.Fail(); panic(errFailNow) }
func (tb *recordingTB) Fail()                             { tb.failed = true }
func (tb *recordingTB) Failed() bool                      { return tb.failed }

// agree checks that the adapter's answer to a request equals the reference's (compare.Diff).
func (e *env) agree(t *rapid.T, req protocol.Request) {
	got := e.call(t, req.Op, req.Args)
	want := e.reference(req.Op, req.Args)
	if d := compare.Explain(want, got); d != nil {
		msg := fmt.Sprintf("%s disagrees with the reference", req.Op)
		if want.Err != nil || got.Err != nil {
			msg += fmt.Sprintf(" (reference error: %v; adapter error: %v)", errText(want.Err), errText(got.Err))
		}
		e.fail(t, failure{message: msg, input: sent(req.Op, req.Args, &got), want: result.Answer(want, &got), got: result.Answer(got, nil), diff: d})
	}
}

func errText(e *protocol.Error) string {
	if e == nil {
		return "none"
	}
	return e.Error()
}
