package adapter

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Hello is an adapter's answer to hello.
type Hello struct {
	Protocol int      `json:"protocol"`
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Spec     string   `json:"spec"`
	Features []string `json:"features"`
	// Language is the language the implementation is written in, as its hello names it
	// (optional; protocol.ParseLanguage reads it): porting-trap hints are ranked and filtered
	// by it.
	Language string `json:"language,omitempty"`
}

// maxLanguage bounds the hello's language (request.schema.json: 64 characters).
const maxLanguage = 256

// Client is a Caller after a successful hello: it numbers requests and knows the adapter's
// features. It is safe for use by one goroutine at a time.
type Client struct {
	Caller Caller
	Hello  Hello
	nextID atomic.Int64
}

// Connect sends hello and returns a client, or an error when the adapter is unusable.
func Connect(ctx context.Context, c Caller) (*Client, error) {
	cl := &Client{Caller: c}
	resp, err := cl.Do(ctx, protocol.OpHello, wire.NewObject().Set("protocol", float64(protocol.Version)))
	if err != nil {
		return nil, err
	}
	if !resp.OK {
		return nil, fmt.Errorf("hello failed: %s", errorText(resp.Err))
	}
	o, ok := resp.Result.(*wire.Object)
	if !ok {
		return nil, fmt.Errorf("hello result is not an object")
	}
	p, present := o.Get("protocol")
	if p != float64(protocol.Version) {
		return nil, fmt.Errorf("%s; the kit speaks protocol %d (the number %d)", describeProtocol(p, present), protocol.Version, protocol.Version)
	}
	cl.Hello.Protocol = protocol.Version
	str := func(k string) string { v, _ := o.Get(k); s, _ := v.(string); return s }
	cl.Hello.Name, cl.Hello.Version, cl.Hello.Spec = clipHelloText(str("name")), clipHelloText(str("version")), clipHelloText(str("spec"))
	// Optional, and only ever a short id: a longer text is no language the kit knows.
	if l := str("language"); len(l) <= maxLanguage {
		cl.Hello.Language = strings.ToValidUTF8(l, "\uFFFD")
	}
	if fv, _ := o.Get("features"); fv != nil {
		list, ok := fv.([]any)
		if !ok {
			return nil, fmt.Errorf("hello features is not an array")
		}
		var names []string
		for _, f := range list {
			if s, ok := f.(string); ok {
				names = append(names, s)
			}
		}
		cl.Hello.Features = boundFeatures(names, func(f string) bool {
			switch f {
			case protocol.FeatureLoneSurrogates, protocol.FeatureHost, protocol.FeatureWorldCache, protocol.FeaturePipelining:
				return true
			}
			return false
		})
	}
	return cl, nil
}

// Supports reports whether the adapter declared feature.
func (c *Client) Supports(feature string) bool {
	for _, f := range c.Hello.Features {
		if f == feature {
			return true
		}
	}
	return false
}

// Do sends one request with the next id.
func (c *Client) Do(ctx context.Context, op string, args *wire.Object) (protocol.Response, error) {
	if args == nil {
		args = wire.NewObject()
	}
	return c.Caller.Call(ctx, protocol.Request{ID: c.nextID.Add(1), Op: op, Args: args})
}

// Unsupported reports whether resp says the op is not implemented.
func Unsupported(resp protocol.Response) bool {
	return !resp.OK && resp.Err != nil && resp.Err.Code == protocol.CodeUnsupported
}

// maxReasonMessage bounds the adapter's own words in a not-covered reason: they come from the
// implementation under test, which may say anything.
const maxReasonMessage = 200

// UnsupportedReason is the not-covered reason of a check whose request op the adapter
// answered ADAPTER_UNSUPPORTED: "the adapter does not support op OP", then the adapter's
// message (first line, clipped) when it gave one, so a port author reads what was refused
// ("cancel mode during-read is not supported") and not only where. Reasons that differ only
// in digits count as one in a report's summary.
func UnsupportedReason(op string, resp protocol.Response) string {
	reason := "the adapter does not support op " + op
	if resp.Err == nil {
		return reason
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(resp.Err.Message), "\n")
	msg = strings.ToValidUTF8(strings.TrimSpace(msg), "\uFFFD")
	if msg == "" {
		return reason
	}
	if len(msg) > maxReasonMessage {
		cut := maxReasonMessage
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return reason + " (it says: " + digitsRun.ReplaceAllString(msg, "#") + ")"
}

// digitsRun folds numbers in an adapter's message, so "reference 3 is invalid" and
// "reference 4 is invalid" are one reason.
var digitsRun = regexp.MustCompile(`[0-9]+`)

// describeProtocol says what an adapter's hello gave as its protocol, naming the JSON type
// when it is not a number: "1" (a string) and 1 print alike, and null must not read <nil>.
func describeProtocol(v any, present bool) string {
	switch x := v.(type) {
	case nil:
		if !present {
			return "the result has no \"protocol\" member"
		}
		return "\"protocol\" is null, not a number"
	case float64:
		return fmt.Sprintf("the adapter speaks protocol %v", x)
	case wire.Number:
		return fmt.Sprintf("the adapter speaks protocol %s", clipText(string(x)))
	case string:
		return fmt.Sprintf("\"protocol\" is the string %s, not a number", quoteLine([]byte(x), maxErrorText))
	case bool:
		return fmt.Sprintf("\"protocol\" is the boolean %v, not a number", x)
	case []any:
		return "\"protocol\" is an array, not a number"
	case *wire.Object:
		return "\"protocol\" is an object, not a number"
	}
	return fmt.Sprintf("\"protocol\" is a %T, not a number", v)
}

// maxErrorText bounds the adapter's own text (a failed hello's code and message, its
// protocol) in an error the kit makes of it: the text goes into the verdict's line, the
// report's unusable field and every report format, and a response line may hold 64 MiB
// (a hello failing with 5 MB printed 10 MB and wrote a 5 MB step summary).
const maxErrorText = 500

// errorText is e's text ("CODE: message"), clipped (clipText).
func errorText(e *protocol.Error) string { return clipText(e.Error()) }

// clipText is s clipped to maxErrorText bytes at a rune start, with "… (N more bytes)".
func clipText(s string) string {
	if len(s) <= maxErrorText {
		return s
	}
	cut := maxErrorText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}
