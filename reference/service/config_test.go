package service_test

import (
	"errors"
	"math"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/reference/errcode"
	"github.com/sessionref-kit/sessionref-kit/reference/jsjson"
	"github.com/sessionref-kit/sessionref-kit/reference/service"
)

func TestNewDefaults(t *testing.T) {
	s, err := service.New(nil, service.Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := service.Config{MaxReferences: 3, CandidateLimit: 50, MaxReferenceBytes: 65536}
	if s.Config() != want || service.DefaultConfig != want {
		t.Errorf("Config() = %+v, DefaultConfig = %+v; want %+v", s.Config(), service.DefaultConfig, want)
	}
	s, err = service.New(nil, service.Config{MaxReferences: 1, CandidateLimit: service.MaxSafeInteger, MaxReferenceBytes: 1})
	if err != nil || s.Config().CandidateLimit != 1<<53-1 {
		t.Errorf("extremes: %+v %v", s, err)
	}
}

func TestNewInvalid(t *testing.T) {
	tests := []struct {
		cfg service.Config
		msg string
	}{
		{service.Config{MaxReferences: -1}, "session-reference: maxReferences must be a positive safe integer"},
		{service.Config{CandidateLimit: -1}, "session-reference: candidateLimit must be a positive safe integer"},
		{service.Config{MaxReferenceBytes: -65536}, "session-reference: maxReferenceBytes must be a positive safe integer"},
		{service.Config{CandidateLimit: 1 << 53}, "session-reference: candidateLimit must be a positive safe integer"},
		{service.Config{MaxReferenceBytes: math.MaxInt}, "session-reference: maxReferenceBytes must be a positive safe integer"},
		{service.Config{MaxReferences: 4}, "session-reference: maxReferences must not exceed 3"},
		{service.Config{MaxReferences: 1 << 53}, "session-reference: maxReferences must be a positive safe integer"},
		// the positivity check runs over every key before the maxReferences cap
		{service.Config{MaxReferences: 4, MaxReferenceBytes: -1}, "session-reference: maxReferenceBytes must be a positive safe integer"},
		{service.Config{MaxReferences: -1, CandidateLimit: -1}, "session-reference: maxReferences must be a positive safe integer"},
	}
	for _, tt := range tests {
		s, err := service.New(nil, tt.cfg)
		if !errors.Is(err, errcode.InvalidConfig) || s != nil {
			t.Errorf("New(%+v) = %v, %v; want INVALID_CONFIG", tt.cfg, s, err)
			continue
		}
		if err.Error() != tt.msg {
			t.Errorf("New(%+v): %q; want %q", tt.cfg, err.Error(), tt.msg)
		}
	}
}

func obj(kv ...any) *jsjson.Object {
	o := jsjson.NewObject()
	for i := 0; i < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

func TestConfigFromValue(t *testing.T) {
	def := service.DefaultConfig
	ok := []struct {
		name string
		arg  jsjson.Arg
		want service.Config
	}{
		{"absent", jsjson.Arg{}, def},
		{"empty object", jsjson.Given(obj()), def},
		{"null keys", jsjson.Given(obj("maxReferences", nil, "candidateLimit", nil, "maxReferenceBytes", nil)), def},
		{"string argument has no keys", jsjson.Given("maxReferences"), def},
		{"number argument", jsjson.Given(5.0), def},
		{"array argument", jsjson.Given([]any{1.0}), def},
		{"unknown key ignored", jsjson.Given(obj("maxReferenceByte", -1.0)), def},
		{"all set", jsjson.Given(obj("maxReferences", 1.0, "candidateLimit", 9007199254740991.0, "maxReferenceBytes", 2.0)), service.Config{1, 1<<53 - 1, 2}},
		{"float integral", jsjson.Given(obj("maxReferences", 2.0)), service.Config{2, 50, 65536}},
	}
	for _, tt := range ok {
		got, err := service.ConfigFromValue(tt.arg)
		if err != nil || got != tt.want {
			t.Errorf("%s: ConfigFromValue = %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
	bad := []struct {
		name string
		cfg  *jsjson.Object
		key  string
	}{
		{"zero", obj("maxReferences", 0.0), "maxReferences"},
		{"negative zero", obj("candidateLimit", math.Copysign(0, -1)), "candidateLimit"},
		{"negative", obj("maxReferenceBytes", -1.0), "maxReferenceBytes"},
		{"fraction", obj("candidateLimit", 1.5), "candidateLimit"},
		{"2^53", obj("maxReferenceBytes", 9007199254740992.0), "maxReferenceBytes"},
		{"NaN", obj("candidateLimit", math.NaN()), "candidateLimit"},
		{"Infinity", obj("candidateLimit", math.Inf(1)), "candidateLimit"},
		{"string number", obj("maxReferences", "3"), "maxReferences"},
		{"boolean", obj("maxReferences", true), "maxReferences"},
		{"object", obj("maxReferenceBytes", obj()), "maxReferenceBytes"},
		{"array", obj("candidateLimit", []any{5.0}), "candidateLimit"},
		{"first bad key named", obj("maxReferenceBytes", 0.0, "candidateLimit", "x", "maxReferences", 2.0), "candidateLimit"},
	}
	for _, tt := range bad {
		_, err := service.ConfigFromValue(jsjson.Given(tt.cfg))
		want := "session-reference: " + tt.key + " must be a positive safe integer"
		if !errors.Is(err, errcode.InvalidConfig) || err.Error() != want {
			t.Errorf("%s: err %v; want INVALID_CONFIG %q", tt.name, err, want)
		}
	}
	_, err := service.ConfigFromValue(jsjson.Given(obj("maxReferences", 4.0)))
	if !errors.Is(err, errcode.InvalidConfig) || err.Error() != "session-reference: maxReferences must not exceed 3" {
		t.Errorf("maxReferences 4: %v", err)
	}
	// maxReferences 4 with another bad key: positivity first.
	_, err = service.ConfigFromValue(jsjson.Given(obj("maxReferences", 4.0, "candidateLimit", 0.0)))
	if err == nil || err.Error() != "session-reference: candidateLimit must be a positive safe integer" {
		t.Errorf("maxReferences 4 + candidateLimit 0: %v", err)
	}
	// null: a TypeError, no contract code
	_, err = service.ConfigFromValue(jsjson.Given(nil))
	var te *errcode.TypeError
	if !errors.As(err, &te) || errcode.Of(err) != "" {
		t.Errorf("null config: %v; want a TypeError", err)
	}
	if _, err := service.NewFromValue(nil, jsjson.Given(obj("maxReferences", 0.0))); !errors.Is(err, errcode.InvalidConfig) {
		t.Errorf("NewFromValue: %v", err)
	}
	if s, err := service.NewFromValue(nil, jsjson.Arg{}); err != nil || s.Config() != def {
		t.Errorf("NewFromValue(undefined): %v", err)
	}
}

func TestSafeInteger(t *testing.T) {
	for _, v := range []any{0.0, -1.0, 9007199254740991.0, -9007199254740991.0} {
		if _, ok := service.SafeInteger(v); !ok {
			t.Errorf("SafeInteger(%v) = false", v)
		}
	}
	for _, v := range []any{9007199254740992.0, 0.5, math.NaN(), math.Inf(-1), "1", nil, true} {
		if _, ok := service.SafeInteger(v); ok {
			t.Errorf("SafeInteger(%#v) = true", v)
		}
	}
}
