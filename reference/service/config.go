// Package service is the session-reference service, the seed's SessionReferenceService:
// candidate listing for mention autocomplete and the preparation of one aggregated, bounded,
// untrusted snapshot context for a message that references other sessions (spec SR-CONF-*,
// SR-CAND-*, SR-PREP-*, SR-PROMPT-*, SR-CANCEL-*).
//
// Typed methods serve Go callers. The *Value methods take arguments as JSON values with
// JavaScript's dynamic typing (jsjson.Arg), so a caller can pass values of the wrong type and
// get the seed's exact outcome; they check those types and then run the same code
// as the typed methods.
package service

import (
	"math"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
)

// Contract constants (the seed's exports).
const (
	// MaxReferences is the hard maximum of distinct sources in one message.
	MaxReferences = 3
	// DefaultCandidateLimit is the default number of candidates returned.
	DefaultCandidateLimit = 50
	// DefaultMaxReferenceBytes is the default UTF-8 budget of one serialized source object.
	DefaultMaxReferenceBytes = 65536
	// MaxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER.
	MaxSafeInteger = 1<<53 - 1
)

// Config is the service configuration. In NewService a zero field means "use the default";
// ConfigFromValue follows JavaScript, where only undefined and null do.
type Config struct {
	MaxReferences     int `json:"maxReferences"`
	CandidateLimit    int `json:"candidateLimit"`
	MaxReferenceBytes int `json:"maxReferenceBytes"`
}

// Value returns the configuration as the seed's service.config object: maxReferences,
// candidateLimit, maxReferenceBytes.
func (c Config) Value() *jsjson.Object {
	return jsjson.NewObject().Set("maxReferences", float64(c.MaxReferences)).
		Set("candidateLimit", float64(c.CandidateLimit)).
		Set("maxReferenceBytes", float64(c.MaxReferenceBytes))
}

// DefaultConfig is the configuration with every default.
var DefaultConfig = Config{MaxReferences: MaxReferences, CandidateLimit: DefaultCandidateLimit, MaxReferenceBytes: DefaultMaxReferenceBytes}

// Effective fills zero fields with defaults and validates (SR-CONF-1..4): every value a
// positive safe integer, MaxReferences at most 3. It fails with
// SESSION_REFERENCE_INVALID_CONFIG naming the first bad key in the order maxReferences,
// candidateLimit, maxReferenceBytes.
func (c Config) Effective() (Config, error) {
	if c.MaxReferences == 0 {
		c.MaxReferences = DefaultConfig.MaxReferences
	}
	if c.CandidateLimit == 0 {
		c.CandidateLimit = DefaultConfig.CandidateLimit
	}
	if c.MaxReferenceBytes == 0 {
		c.MaxReferenceBytes = DefaultConfig.MaxReferenceBytes
	}
	return c, c.validate()
}

func (c Config) validate() error {
	for _, kv := range []struct {
		name string
		v    int
	}{{"maxReferences", c.MaxReferences}, {"candidateLimit", c.CandidateLimit}, {"maxReferenceBytes", c.MaxReferenceBytes}} {
		if kv.v <= 0 || kv.v > MaxSafeInteger {
			return notPositive(kv.name)
		}
	}
	if c.MaxReferences > MaxReferences {
		return errcode.New(errcode.InvalidConfig, "session-reference: maxReferences must not exceed 3")
	}
	return nil
}

func notPositive(name string) error {
	return errcode.New(errcode.InvalidConfig, "session-reference: "+name+" must be a positive safe integer")
}

// ConfigFromValue builds the effective configuration from a constructor argument with the
// seed's JavaScript semantics: undefined is {}; null throws a TypeError (a plain error, no
// contract code); a non-object has no keys; a key that is undefined or null takes its default;
// any other value must be a number that is a positive safe integer.
func ConfigFromValue(cfg jsjson.Arg) (Config, error) {
	if cfg.Set && cfg.Value == nil {
		return Config{}, typeError("cannot read properties of null (reading 'maxReferences')")
	}
	obj, _ := cfg.Value.(*jsjson.Object)
	var out Config
	fields := []struct {
		name string
		dst  *int
		def  int
	}{
		{"maxReferences", &out.MaxReferences, MaxReferences},
		{"candidateLimit", &out.CandidateLimit, DefaultCandidateLimit},
		{"maxReferenceBytes", &out.MaxReferenceBytes, DefaultMaxReferenceBytes},
	}
	var firstBad string
	for _, f := range fields {
		v, _ := obj.Get(f.name)
		if v == nil {
			*f.dst = f.def
			continue
		}
		n, ok := SafeInteger(v)
		if !ok || n <= 0 {
			if firstBad == "" {
				firstBad = f.name
			}
			continue
		}
		*f.dst = n
	}
	if firstBad != "" {
		return Config{}, notPositive(firstBad)
	}
	return out, out.validate()
}

// SafeInteger reports whether v is a number for which Number.isSafeInteger holds, and its value.
func SafeInteger(v any) (int, bool) {
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > MaxSafeInteger {
		return 0, false
	}
	return int(f), true
}

func typeError(msg string) error { return &errcode.TypeError{Msg: msg} }
