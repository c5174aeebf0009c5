// Package goport is the Go API of a session-reference port: the interface a Go
// implementation of the contract provides, in types of its own, and the types it is called
// with. conformancetest.TestPort certifies a goport.Port, as testing/fstest.TestFS checks an
// fs.FS; this package imports only the standard library, so a port's package depends on
// nothing of the kit's reference or runner (conformancetest's TestPortImportsNoReference).
package goport

import (
	"context"
	"encoding/json"
	"errors"
)

// Port is a Go implementation of the session-reference contract, as conformancetest.TestPort
// certifies it: the seed's exported functions and its SessionReferenceService, with Go
// types. Strings are
// JavaScript strings in Go's string type: well-formed text as UTF-8 and, for a port that
// declares FeatureLoneSurrogates, a lone surrogate as its three WTF-8 bytes (U+D800 is
// "\xed\xa0\x80"). A failure carries its contract code as an *Error or a Code anywhere in
// its chain (errors.As); any other error is an error without a code (the seed's TypeError).
// An error wrapping errors.ErrUnsupported says the port does not implement that call: the
// checks that need it are reported not covered, never failed; a method without an error
// result (EncodeURI, FormatMention) says so by panicking with such an error.
//
// JavaScript can pass arguments Go's types cannot hold (a label that is a number, a
// reference that is not an object, a null config …). Such a request never reaches the typed
// methods: its check is reported not covered, with what could not be expressed, unless the
// port takes the escape hatch (ValuePort, ValueService, ValueSurfaceReader), which gets such
// arguments as JSON text.
type Port interface {
	// Features lists the optional features the port has (FeatureLoneSurrogates); a check
	// that needs a feature not listed is reported not covered.
	Features() []Feature
	// EncodeURI is encodeSessionReferenceUri (spec SR-URI-*).
	EncodeURI(sessionID string) string
	// DecodeURI is decodeSessionReferenceUri: the session id, or an error with code
	// InvalidReference.
	DecodeURI(uri string) (string, error)
	// FormatMention is formatSessionReferenceMention; a reference without a label shows its id.
	FormatMention(ref Reference) string
	// ParseMentions is parseSessionReferenceText.
	ParseMentions(text string) (ParsedText, error)
	// NewService is new SessionReferenceService(ctx, cfg) over a session-query service: the
	// service, or the construction error (InvalidConfig).
	NewService(store SessionStore, cfg Config) (Service, error)
}

// Service is a port's SessionReferenceService.
type Service interface {
	// Config returns the effective configuration.
	Config() EffectiveConfig
	// ListCandidates is listCandidates(agent, query, limit, signal); ctx is the signal. An
	// absent query is "".
	ListCandidates(ctx context.Context, agent Agent, query string, limit Optional[Int]) ([]Candidate, error)
	// Prepare is prepare(agent, content, references, signal); ctx is the signal.
	Prepare(ctx context.Context, agent Agent, content Content, refs []Reference) (*Prepared, error)
}

// Feature is an optional feature of the protocol a port may declare.
type Feature string

// FeatureLoneSurrogates: the port's strings may hold lone surrogates (as WTF-8). Without it
// the kit sends none, and reports the checks that need them not covered.
const FeatureLoneSurrogates Feature = "lone-surrogates"

// FeatureHost: the port implements Host, the host path of host.send (spec SR-HOST-*).
const FeatureHost Feature = "host"

// Identity is an optional interface of a Port: the name and version its hello reports
// (without it, "go-port" and "unversioned"). The runner never compares them.
type Identity interface {
	Identity() (name, version string)
}

// Host is the host wiring of a port that declares FeatureHost (spec SR-HOST-*): what a host
// enqueues for a user's text sent to an agent. The kit models the rest of host.send (the
// target's inbox, its step, its durable log, the source mutations after it).
type Host interface {
	// Deliver parses the mentions in text, prepares them with svc and returns the messages
	// to enqueue, in the port's order: the direct user message and, when the text
	// references sessions, the context message. A failure enqueues nothing.
	Deliver(ctx context.Context, svc Service, agent Agent, text string) ([]HostMessage, error)
}

// HostMessage is one message a host enqueues: exactly one of Direct and Context is set.
type HostMessage struct {
	// Direct is the content of the direct user message, as JSON text: the value of its
	// "content" key only, e.g. [{"type":"text","text":"see @s"}] for the readable text
	// "see @s" (the content Prepare was given). The kit wraps it as the message
	// {source: {kind: "user"}, content: Direct, role: "user"}; a port that returns that
	// whole message here nests it, and the host checks that compare the log fail.
	Direct Content
	// Context is the context message, as Prepare returned it.
	Context *ContextMessage
}

// Optional is a value JavaScript may leave undefined: Set false is undefined (or, where the
// contract treats them alike, null).
type Optional[T any] struct {
	Value T
	Set   bool
}

// Some returns a set Optional.
func Some[T any](v T) Optional[T] { return Optional[T]{Value: v, Set: true} }

// Get returns the value and whether it is set.
func (o Optional[T]) Get() (T, bool) { return o.Value, o.Set }

// Ptr returns a pointer to a copy of the value, or nil when it is not set: a port whose own
// types say "absent" with a nil pointer converts with it.
func (o Optional[T]) Ptr() *T {
	if !o.Set {
		return nil
	}
	v := o.Value
	return &v
}

// FromPtr returns an Optional set to *p, or not set when p is nil.
func FromPtr[T any](p *T) Optional[T] {
	if p == nil {
		return Optional[T]{}
	}
	return Some(*p)
}

// Or returns the value, or def when it is not set.
func (o Optional[T]) Or(def T) T {
	if o.Set {
		return o.Value
	}
	return def
}

// Config is the service's constructor argument. A field not set takes its default; a set
// one is the number JavaScript passed, which the port validates (a positive safe integer,
// maxReferences at most 3, spec SR-CONF-*): Int says whether it is one.
type Config struct {
	MaxReferences     Optional[Int]
	CandidateLimit    Optional[Int]
	MaxReferenceBytes Optional[Int]
}

// Int is a JavaScript number where the contract takes an integer (a config value, a
// candidate limit). Int returns it as a Go int when it is a safe integer; Raw keeps the
// number as JavaScript passed it, for the edge cases an integer cannot hold (1.5, -0, NaN,
// Infinity, 2^53).
type Int struct {
	Raw float64
}

// IntOf returns the Int of a JavaScript number.
func IntOf(f float64) Int { return Int{Raw: f} }

// maxSafe is Number.MAX_SAFE_INTEGER, 2^53-1.
const maxSafe = 1<<53 - 1

// Int returns n as an int, and whether it is a safe integer (Number.isSafeInteger: an
// integer of magnitude at most 2^53-1; -0 is one, and reads as 0).
func (n Int) Int() (int, bool) {
	f := n.Raw
	if f != f || f < -maxSafe || f > maxSafe || f != float64(int64(f)) {
		return 0, false
	}
	return int(f), true
}

// Positive returns n as an int when it is a positive safe integer, the contract's rule for
// every config value and a limit (SR-CONF-*).
func (n Int) Positive() (int, bool) {
	v, ok := n.Int()
	return v, ok && v > 0
}

// EffectiveConfig is a service's configuration after defaults.
type EffectiveConfig struct {
	MaxReferences     int
	CandidateLimit    int
	MaxReferenceBytes int
}

// Reference is a SessionReferenceInput: a source session and its optional label.
type Reference struct {
	SessionID string
	Label     Optional[string]
}

// Mention is one reference parsed from text; a parsed reference always has its label.
type Mention struct {
	SessionID string
	Label     string
}

// ParsedText is ParsedSessionReferenceText.
type ParsedText struct {
	Text       string
	References []Mention
}

// Agent is the target agent: the session a message is for.
type Agent struct {
	ID  string
	CWD Optional[string]
}

// Candidate is a SessionReferenceCandidate.
type Candidate struct {
	SessionID string
	Label     string
	CWD       Optional[string]
	CreatedAt float64
}

// Content is a message's content as JSON text (lone surrogates as \udXXX escapes), opaque
// to the contract: Prepare returns it detached. It is nil when the caller passed none.
type Content = json.RawMessage

// Prepared is a PreparedReferencedMessage.
type Prepared struct {
	Content Content
	// Context is the additional context message, nil when the message references nothing.
	Context *ContextMessage
}

// ContextMessage is the sourced user message carrying the snapshots.
type ContextMessage struct {
	// ID is the message's id, a random UUID: the one field no check compares.
	ID      string
	Role    string
	Source  ContextSource
	Content []TextBlock
}

// ContextSource is a SessionReferenceSource.
type ContextSource struct {
	Kind       string
	Form       string
	Version    int
	References []SourceReference
}

// SourceReference is one entry of ContextSource.References.
type SourceReference struct {
	SessionID          string
	Label              string
	CapturedThroughSeq Optional[float64] // not set: null
	Compacted          bool
	OriginalMessages   int
	RetainedMessages   int
	OmittedMessages    int
	OmittedBytes       int
	Truncated          bool
	InputIndex         int
}

// TextBlock is a content block {type, text}.
type TextBlock struct {
	Type string
	Text string
}

// SessionStore is the session-query service a port's service reads (spec SR-QUERY-*). The
// kit builds one per request from the check's world, and records what the port asks.
type SessionStore interface {
	// ListSessions lists every session.
	ListSessions(ctx context.Context) ([]SessionRecord, error)
	// ReadTitleSnapshots settles each unique id once, in first-occurrence order; an unknown
	// id settles with an error.
	ReadTitleSnapshots(ctx context.Context, ids []string) ([]TitleSnapshot, error)
	// ReadSurface reads a session's current surface; an unknown session is an error.
	ReadSurface(ctx context.Context, id string) (Surface, error)
}

// SessionHeader is the part of a session header the contract reads.
type SessionHeader struct {
	ID        string
	CWD       Optional[string]
	CreatedAt float64 // Unix epoch milliseconds
}

// SessionRecord is one listed session.
type SessionRecord struct {
	Header    SessionHeader
	Live      bool
	Persisted bool
}

// TitleSnapshot is the settlement of one title read: Err set is a rejected one.
type TitleSnapshot struct {
	SessionID string
	Err       error
	Session   SessionHeader
	Title     Optional[string] // not set: the session has no title
}

// Surface is a session's folded current surface.
type Surface struct {
	Session            SessionHeader
	CapturedThroughSeq Optional[float64] // not set: null
	Events             []Event
}

// Event is one surface event (spec SR-QUERY-3): "user/message", "assistant/message",
// "tool/result", or a type outside the contract, which projection rejects.
type Event struct {
	Type string
	Seq  float64
	// Message is the event's message: data for a user/message, data.message for the
	// others. It is nil when the event has none, which projection rejects for a
	// user/message or assistant/message.
	Message *EventMessage
}

// EventMessage is a message of the session log.
type EventMessage struct {
	ID   string
	Role string
	// Source is nil when the message has none, which projection rejects for a user/message.
	Source  *EventSource
	Content []ContentBlock
}

// EventSource is a message's source: {kind: "user"}, {kind: "plugin", plugin: "compact",
// compactionId} for a compact checkpoint, and others. An absent field is "".
type EventSource struct {
	Kind         string
	Plugin       string
	CompactionID string
}

// ContentBlock is one block of an event message's content; Text is not set when the block
// has no string text.
type ContentBlock struct {
	Type string
	Text Optional[string]
}

// Code is one of the contract's stable failure codes (spec SR-ERR-*). A Code is an error,
// so a port may return one as it is, or wrap it.
type Code string

// The contract's codes (SessionReferenceErrorCode).
const (
	InvalidConfig    Code = "SESSION_REFERENCE_INVALID_CONFIG"
	InvalidReference Code = "SESSION_REFERENCE_INVALID_REFERENCE"
	SelfReference    Code = "SESSION_REFERENCE_SELF_REFERENCE"
	TooMany          Code = "SESSION_REFERENCE_TOO_MANY"
	ReadFailed       Code = "SESSION_REFERENCE_READ_FAILED"
	BudgetExceeded   Code = "SESSION_REFERENCE_BUDGET_EXCEEDED"
	Cancelled        Code = "SESSION_REFERENCE_CANCELLED"
)

// Error implements the error interface.
func (c Code) Error() string { return string(c) }

// SessionReferenceCode implements Coder.
func (c Code) SessionReferenceCode() string { return string(c) }

// Coder is an error of a port's own type that carries a contract code: CodeOf finds it
// anywhere in an error's chain, so a port need not convert its errors to *Error.
type Coder interface {
	SessionReferenceCode() string
}

// Error is a SessionReferenceError: a failure with its contract code, a free message and
// an optional cause.
type Error struct {
	Code    Code
	Message string
	Err     error
}

// Error implements the error interface.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's Code, so errors.Is(err, goport.TooMany) holds.
func (e *Error) Is(target error) bool { c, ok := target.(Code); return ok && c == e.Code }

// SessionReferenceCode implements Coder.
func (e *Error) SessionReferenceCode() string { return string(e.Code) }

// CodeOf returns the contract code err carries (the first Coder in its chain: an *Error, a
// Code, or a port's own error type), or "" for an error without one.
func CodeOf(err error) Code {
	var c Coder
	if errors.As(err, &c) {
		return Code(c.SessionReferenceCode())
	}
	return ""
}

// Value is an argument as JavaScript passed it, when Go's types cannot hold it: its JSON text
// (a lone surrogate as a \udXXX escape), or nil when the argument is absent (undefined). An
// object's keys are in the order the caller's text held them, which need not be JavaScript's
// property order ({"b":1,"1":2}): JSON.parse lists array-index keys first ({"1":2,"b":1}), and
// a port writing the value again must too (TRAP-JSON-KEY-ORDER).
type Value = json.RawMessage

// ValuePort is an optional interface of a Port: the escape hatch for the requests whose
// arguments Go's types cannot hold (a session id that is a number, a label that is null, a
// text that is absent, a config that is null or holds a string …). Without it such a request
// never reaches the port and its check is reported not covered; with it, the kit calls the
// method below that takes the request's arguments as Values, and only for such a request
// (every other one goes to the typed method). A method may return an error wrapping
// errors.ErrUnsupported: its checks are then not covered, as without the interface.
type ValuePort interface {
	// EncodeURIValue is EncodeURI for a session id that is not a string.
	EncodeURIValue(sessionID Value) (string, error)
	// DecodeURIValue is DecodeURI for a URI that is not a string.
	DecodeURIValue(uri Value) (string, error)
	// FormatMentionValue is FormatMention for a session id or label that is not a string.
	FormatMentionValue(sessionID, label Value) (string, error)
	// ParseMentionsValue is ParseMentions for a text that is not a string.
	ParseMentionsValue(text Value) (ParsedText, error)
	// NewServiceValue is NewService for a config Config cannot hold.
	NewServiceValue(store SessionStore, cfg Value) (Service, error)
}

// ValueService is an optional interface of a Service: ListCandidates and Prepare for the
// arguments Go's types cannot hold, as ValuePort is for a Port.
type ValueService interface {
	// ListCandidatesValue is ListCandidates for a query or limit of another type.
	ListCandidatesValue(ctx context.Context, agent Agent, query, limit Value) ([]Candidate, error)
	// PrepareValue is Prepare for references []Reference cannot hold.
	PrepareValue(ctx context.Context, agent Agent, content Content, refs Value) (*Prepared, error)
}

// ValueSurfaceReader is implemented by the kit's SessionStore: ReadSurface with each event as
// the world gave it, for a port that projects events of any shape itself (an event that is
// not an object, content that is not an array …) where the typed Event cannot carry them. A
// read through ReadSurface of a surface the types cannot carry makes the check not covered;
// a read through ReadSurfaceValue never does.
type ValueSurfaceReader interface {
	ReadSurfaceValue(ctx context.Context, id string) (ValueSurface, error)
}

// ValueSurface is a Surface whose events are Values.
type ValueSurface struct {
	Session            SessionHeader
	CapturedThroughSeq Optional[float64] // not set: null
	Events             []Value
}
