package mutants

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance"
	"github.com/sessionref-kit/sessionref-kit/conformance/goport"
	"github.com/sessionref-kit/sessionref-kit/conformance/internal/refport"
	"github.com/sessionref-kit/sessionref-kit/conformance/report"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/reference/uri"
)

// keyOrderMutants are Go ports that encode a session id of any JSON type, as the seed's
// JSON.stringify does, but write an object's keys in their own order (TRAP-JSON-KEY-ORDER,
// gen_keyorder_test.go). Such an id reaches a Go port as JSON text (goport.ValuePort); each
// reads it with a parser that keeps the text's key order and writes it back with its
// language's default container. Before the cases of traps-key-order-*.yaml both passed every
// fixed check: the runner sent every object in JavaScript's order, which one of them keeps and
// the other's sort happened to agree with.
func keyOrderMutants() []mutant {
	return []mutant{
		{name: "trap/rust-serde-json-value-sorted-keys", mistake: "Rust serde_json::Value without preserve_order (a BTreeMap; Go's map[string]any through encoding/json alike): a non-string id's keys written sorted by their bytes",
			impl: keyOrderPort{keys: sortedKeys}},
		{name: "trap/ruby-hash-insertion-order", mistake: "Ruby Hash from JSON.parse (a Python dict, a Java LinkedHashMap alike): a non-string id's keys written in the order of the request's text, integer-like keys not first",
			impl: keyOrderPort{keys: (*wire.Object).KeysAsSet}},
	}
}

// sortedKeys are o's keys sorted by their UTF-8 bytes, as a BTreeMap<String, _> and
// encoding/json's sorted map keys order them.
func sortedKeys(o *wire.Object) []string {
	keys := o.KeysAsSet()
	slices.Sort(keys)
	return keys
}

// keyOrderPort is the mutants' port with the escape hatch for ids that are not strings: it
// writes an id holding an object with its keys in the order keys gives, and answers every
// other such request as the reference port does. With keys = (*wire.Object).Keys,
// JavaScript's property order, it is conformant (TestKeyOrderPortInJavaScriptOrder).
type keyOrderPort struct {
	port
	keys func(*wire.Object) []string
}

var _ goport.ValuePort = keyOrderPort{}

// EncodeURIValue implements goport.ValuePort.
func (p keyOrderPort) EncodeURIValue(id goport.Value) (string, error) {
	if id == nil {
		return refport.Port{}.EncodeURIValue(id)
	}
	v, err := wire.Parse(string(id)) // keeps the text's key order (KeysAsSet)
	if err != nil || !holdsObject(v) {
		return refport.Port{}.EncodeURIValue(id)
	}
	return uri.Scheme + base64.RawURLEncoding.EncodeToString(p.appendJSON(nil, v)), nil
}

// appendJSON writes v as JSON.stringify does, but for the order of an object's keys.
func (p keyOrderPort) appendJSON(dst []byte, v any) []byte {
	switch x := v.(type) {
	case *wire.Object:
		dst = append(dst, '{')
		for i, k := range p.keys(x) { // MUTANT: the container's order, not JavaScript's
			if i > 0 {
				dst = append(dst, ',')
			}
			e, _ := x.Get(k)
			dst = p.appendJSON(append(wire.AppendString(dst, k), ':'), e)
		}
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = p.appendJSON(dst, e)
		}
		return append(dst, ']')
	}
	dst, _ = wire.Append(dst, v) // a parsed scalar: always a JSON value
	return dst
}

func holdsObject(v any) bool {
	switch x := v.(type) {
	case *wire.Object:
		return true
	case []any:
		return slices.ContainsFunc(x, holdsObject)
	}
	return false
}

// FormatMentionValue implements goport.ValuePort: the reference port's mention, with the URI
// of this port's EncodeURIValue.
func (p keyOrderPort) FormatMentionValue(id, label goport.Value) (string, error) {
	m, err := refport.Port{}.FormatMentionValue(id, label)
	if err != nil {
		return m, err
	}
	theirs, err := refport.Port{}.EncodeURIValue(id)
	if err != nil {
		return m, nil
	}
	ours, _ := p.EncodeURIValue(id)
	if rest, ok := strings.CutSuffix(m, "("+theirs+")"); ok {
		return rest + "(" + ours + ")", nil
	}
	return m, nil
}

// DecodeURIValue implements goport.ValuePort as the reference port does.
func (keyOrderPort) DecodeURIValue(u goport.Value) (string, error) {
	return refport.Port{}.DecodeURIValue(u)
}

// ParseMentionsValue implements goport.ValuePort as the reference port does.
func (keyOrderPort) ParseMentionsValue(text goport.Value) (goport.ParsedText, error) {
	return refport.Port{}.ParseMentionsValue(text)
}

// NewServiceValue implements goport.ValuePort as the reference port does.
func (keyOrderPort) NewServiceValue(store goport.SessionStore, cfg goport.Value) (goport.Service, error) {
	return refport.Port{}.NewServiceValue(store, cfg)
}

// TestKeyOrderPortInJavaScriptOrder: the key-order mutants' port, writing keys in JavaScript's
// property order, passes every fixture case, the key-order ones among them (run, not left
// uncovered): what kills the mutants is their order alone.
func TestKeyOrderPortInJavaScriptOrder(t *testing.T) {
	t.Parallel()
	r, err := conformance.NewRunner(conformance.Runner{Handler: portHandler(keyOrderPort{keys: (*wire.Object).Keys}), Parts: []string{conformance.PartFixtures}})
	if err != nil {
		t.Fatal(err)
	}
	rep := r.Run(context.Background())
	passed := 0
	for _, c := range rep.Cases {
		switch {
		case c.Status == result.Fail || c.Status == result.Error:
			t.Errorf("%s: %s %s\n  input %s\n%s", c.Name, c.Status, c.Message, c.Input, c.Diff)
		case strings.HasPrefix(c.Name, "traps-key-order-") && c.Status == result.Pass:
			passed++
		}
	}
	if rep.Verdict.Code != report.ExitConformant || passed < 20 {
		t.Errorf("%s; %d key-order cases passed, want 20", rep.Verdict.Summary, passed)
	}
}
