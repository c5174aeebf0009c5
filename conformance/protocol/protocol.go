// Package protocol is the adapter protocol's wire format (spec/protocol.md): one JSON request
// per line to the adapter, one JSON response per line back. Messages are read and written
// with the kit's own codec, package wire, so strings keep lone surrogates as \udXXX escapes.
package protocol

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Version is the protocol version this kit speaks.
const Version = 1

// Spec is the contract release the kit certifies by default.
const Spec = "0.0.1-rc.1"

// The operations.
const (
	OpHello         = "hello"
	OpURIEncode     = "uri.encode"
	OpURIDecode     = "uri.decode"
	OpMentionFormat = "mention.format"
	OpMentionParse  = "mention.parse"
	OpConfig        = "config"
	OpCandidates    = "candidates"
	OpPrepare       = "prepare"
	OpHostSend      = "host.send"
	// OpWorldDefine stores a world document under a key (feature world-cache), so later
	// requests pass {"$ref": key} instead of re-sending a large world.
	OpWorldDefine = "world.define"
)

// Adapter-level error codes, apart from the contract's SESSION_REFERENCE_* codes.
const (
	// CodeUnsupported answers an op the adapter does not implement: what depends on it is
	// reported as not covered.
	CodeUnsupported = "ADAPTER_UNSUPPORTED"
	// CodeProtocol answers a request the adapter cannot read.
	CodeProtocol = "ADAPTER_PROTOCOL"
)

// Features an adapter may declare in its hello.
const (
	FeatureLoneSurrogates = "lone-surrogates"
	FeatureHost           = "host"
	// FeatureWorldCache: the adapter implements world.define and {"$ref": key} worlds.
	FeatureWorldCache = "world-cache"
	// FeaturePipelining: the adapter reads stdin as a stream, so a client may send further
	// requests before it has read the earlier responses. Only the bench uses it.
	FeaturePipelining = "pipelining"
)

// RefKey is the one key of a world reference, {"$ref": KEY}. A world document only has the
// keys sessions and listError, so the two cannot be confused.
const RefKey = "$ref"

// WorldRef returns the world argument that names the world defined under key.
func WorldRef(key string) *wire.Object { return wire.NewObject().Set(RefKey, key) }

// WorldRefKey reports whether the world argument v is a reference, and its key. A value
// with a "$ref" key that is not exactly {"$ref": string} is an error.
func WorldRefKey(v any) (key string, isRef bool, err error) {
	o, ok := v.(*wire.Object)
	if !ok || !o.Has(RefKey) {
		return "", false, nil
	}
	kv, _ := o.Get(RefKey)
	key, ok = kv.(string)
	if !ok || o.Len() != 1 {
		return "", true, errors.New(`a world reference is {"$ref": KEY} with a string KEY and no other key`)
	}
	return key, true, nil
}

// Cancel modes of candidates and prepare.
const (
	CancelBefore = "before"
	// CancelDuringRead: the held call (the listing, or the first normalized source's read)
	// never settles; the signal is aborted once every other read has returned successfully,
	// and never after one failed (spec/protocol.md): decided by the calls, not by a timer.
	CancelDuringRead = "during-read"
	// CancelNever passes a signal that is never aborted: the work completes under a live signal.
	CancelNever = "never"
	// CancelAtCall: the held call aborts the signal as it is made, before it returns, and
	// never settles; every other call of the request returns only after that abort.
	CancelAtCall = "at-call"
)

// Request is one request line.
type Request struct {
	ID   int64
	Op   string
	Args *wire.Object
}

// Arg returns the argument key and whether it is present.
func (r Request) Arg(key string) (any, bool) { return r.Args.Get(key) }

// Value returns the request as a JSON object.
func (r Request) Value() *wire.Object {
	args := r.Args
	if args == nil {
		args = wire.NewObject()
	}
	return wire.NewObject().Set("id", float64(r.ID)).Set("op", r.Op).Set("args", args)
}

// Plain returns the request as a reader of its line sees it: every wire.Number in its
// arguments (a number a fixture writes as exact text, "2.0") replaced by its double. In-process
// handlers get this form, the process path sends the text itself.
func (r Request) Plain() Request {
	if r.Args != nil {
		r.Args = wire.Plain(r.Args).(*wire.Object)
	}
	return r
}

// Line returns the request as one line of JSON, without the newline.
func (r Request) Line() []byte { return r.AppendLine(nil) }

// AppendLine appends Line to dst, for a caller that reuses its buffer.
func (r Request) AppendLine(dst []byte) []byte {
	b, _ := wire.Append(dst, r.Value()) // built from JSON values only
	return b
}

// ParseRequest reads one request line.
func ParseRequest(line string) (Request, error) { return parseRequest(wire.Parse(line)) }

// ParseRequestKeeping is ParseRequest, except that the argument arg, when present, is a
// wire.Raw holding its JSON text, checked but not decoded: for a handler that decodes it into
// its own values (the reference's adapter, a world), so a large argument is decoded once. The
// requests it accepts and refuses are those ParseRequest does.
func ParseRequestKeeping(line, arg string) (Request, error) {
	return parseRequest(wire.ParseKeeping(line, "args", arg))
}

func parseRequest(v any, err error) (Request, error) {
	if err != nil {
		return Request{}, err
	}
	o, ok := v.(*wire.Object)
	if !ok {
		return Request{}, errors.New("request is not an object")
	}
	var r Request
	idv, _ := o.Get("id")
	id, ok := idv.(float64)
	if !ok || id != float64(int64(id)) {
		return Request{}, errors.New("request id is not an integer")
	}
	r.ID = int64(id)
	opv, _ := o.Get("op")
	if r.Op, ok = opv.(string); !ok {
		return r, errors.New("request op is not a string")
	}
	av, present := o.Get("args")
	if !present {
		r.Args = wire.NewObject()
		return r, nil
	}
	if r.Args, ok = av.(*wire.Object); !ok {
		return r, errors.New("request args is not an object")
	}
	return r, nil
}

// Error is a failed response's error object.
type Error struct {
	// Code is the contract or adapter code; "" is null (an error with no code).
	Code    string
	Message string
	// Extra holds any other keys, such as a failed prepare's reads.
	Extra *wire.Object
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Code == "" {
		return e.Message
	}
	return e.Code + ": " + e.Message
}

// Response is one response line.
type Response struct {
	ID     int64
	OK     bool
	Result any // present when OK; wire.Undefined-free JSON value
	Err    *Error
	// Elapsed is the adapter's own processing time for the request (wire key elapsedNs),
	// or 0 when the adapter does not report it. It is timing metadata: Value and Line leave
	// it out, so reports and comparisons stay deterministic; ValueWithElapsed adds it.
	Elapsed time.Duration
	// Received is the line as the adapter wrote it when Line would not show what it sent:
	// a number JSON's doubles cannot hold (1e400 reads as Infinity, which JSON writes as
	// null). Reports show it (Shown); comparisons use the parsed values. "" otherwise.
	Received string
}

// Shown is the response as a report shows it: the line received (Received) when writing
// the parsed value again would change it, else Line.
func (r Response) Shown() ([]byte, error) {
	if r.Received != "" {
		return []byte(r.Received), nil
	}
	return r.Line()
}

// ElapsedKey is the optional response key carrying Response.Elapsed, in nanoseconds.
const ElapsedKey = "elapsedNs"

// ValueWithElapsed returns Value with the elapsedNs key when Elapsed is set: the line an
// adapter writes.
func (r Response) ValueWithElapsed() *wire.Object {
	o := r.Value()
	if r.Elapsed > 0 {
		o.Set(ElapsedKey, float64(r.Elapsed.Nanoseconds()))
	}
	return o
}

// Value returns the response as a JSON object, without elapsedNs.
func (r Response) Value() *wire.Object {
	o := wire.NewObject().Set("id", float64(r.ID)).Set("ok", r.OK)
	if r.OK {
		return o.Set("result", r.Result)
	}
	e := wire.NewObject()
	if r.Err == nil {
		r.Err = &Error{}
	}
	if r.Err.Code == "" {
		e.Set("code", nil)
	} else {
		e.Set("code", r.Err.Code)
	}
	e.Set("message", r.Err.Message)
	for _, k := range r.Err.Extra.Keys() {
		v, _ := r.Err.Extra.Get(k)
		e.Set(k, v)
	}
	return o.Set("error", e)
}

// Line returns the response as one line of JSON, without the newline.
func (r Response) Line() ([]byte, error) { return wire.Marshal(r.Value()) }

// MaxResponseValues is the most JSON values a response line may hold (every object, array,
// string, number and literal, keys not counted), documented in spec/protocol.md beside the
// 64 MiB line limit. The reference's largest answer holds 567 values over the fixture corpus
// and 10,257 over the bench workloads (all, 100k messages included): the limit, 262,144, is 25
// times the latter. A line holding more is a protocol error, refused as the value past the
// limit is read, so an answer of millions of keys costs neither seconds nor gigabytes.
const MaxResponseValues = 1 << 18

// ParseResponse reads one response line.
func ParseResponse(line string) (Response, error) {
	v, err := wire.ParseLimited(line, MaxResponseValues)
	if err != nil {
		if le, ok := errors.AsType[*wire.LimitError](err); ok {
			return Response{}, fmt.Errorf("response holds more than %d JSON values (the protocol's limit, MaxResponseValues) at byte %d", le.Limit, le.Offset)
		}
		return Response{}, err
	}
	o, ok := v.(*wire.Object)
	if !ok {
		return Response{}, errors.New("response is not an object")
	}
	var r Response
	idv, _ := o.Get("id")
	id, ok := idv.(float64)
	if !ok || id != float64(int64(id)) {
		return Response{}, errors.New("response id is not an integer")
	}
	r.ID = int64(id)
	if ev, present := o.Get(ElapsedKey); present {
		ns, ok := ev.(float64)
		if !ok || ns < 0 || ns != float64(int64(ns)) {
			return r, fmt.Errorf("response %s is not a non-negative integer", ElapsedKey)
		}
		r.Elapsed = time.Duration(ns)
	}
	okv, _ := o.Get("ok")
	if r.OK, ok = okv.(bool); !ok {
		return r, errors.New(`response "ok" is not a boolean`)
	}
	if nonFinite(o) {
		r.Received = line
	}
	if r.OK {
		res, present := o.Get("result")
		if !present {
			return r, errors.New("successful response has no result")
		}
		r.Result = res
		return r, nil
	}
	ev, _ := o.Get("error")
	eo, ok := ev.(*wire.Object)
	if !ok {
		return r, errors.New("failed response has no error object")
	}
	r.Err = &Error{}
	switch c, _ := eo.Get("code"); c := c.(type) {
	case nil:
	case string:
		r.Err.Code = c
	default:
		return r, fmt.Errorf("error code is neither a string nor null")
	}
	mv, _ := eo.Get("message")
	if r.Err.Message, ok = mv.(string); !ok {
		return r, errors.New("error message is not a string")
	}
	for _, k := range eo.Keys() {
		if k != "code" && k != "message" {
			if r.Err.Extra == nil {
				r.Err.Extra = wire.NewObject()
			}
			x, _ := eo.Get(k)
			r.Err.Extra.Set(k, x)
		}
	}
	return r, nil
}

// nonFinite reports whether v holds a number that read as ±Infinity (a JSON number past the
// largest double, 1e400): written again, it would be null.
func nonFinite(v any) bool {
	switch v := v.(type) {
	case float64:
		return math.IsInf(v, 0)
	case []any:
		for _, e := range v {
			if nonFinite(e) {
				return true
			}
		}
	case *wire.Object:
		for e := range v.Values() {
			if nonFinite(e) {
				return true
			}
		}
	}
	return false
}
