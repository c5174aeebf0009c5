package differential

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/gen"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// oracle is the embedded reference behind the protocol, as the wiring supplies it.
func oracle(t *testing.T) *adapter.Client {
	t.Helper()
	c, err := adapter.Connect(context.Background(), adapter.InProcess{H: &refadapter.Reference{}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ask(t interface{ Fatalf(string, ...any) }, c *adapter.Client, op string, args *wire.Object) protocol.Response {
	r, err := c.Do(context.Background(), op, args)
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	return r
}

var noticeRe = regexp.MustCompile(`\n\[… omitted (\d+) UTF-8 bytes …\]$`)

// traceCuts replays the contract's bisection: with fitsAt deciding each step, the last
// fitting count omits what the contract's truncation omits, so the cut states it names are
// those of the steps the contract takes.
func TestFitsAtIsTheReferenceBisection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.StringOf(rapid.SampledFrom([]rune{'a', 'é', '€', '😀', '\ufeff', '<'})).Draw(t, "text")
		maxBytes := rapid.IntRange(0, len(text)+2).Draw(t, "maxBytes")
		enc := []byte(wire.ToWellFormed(wire.Normalize(text)))
		if len(enc) <= maxBytes {
			return
		}
		truncated := refadapter.Semantics{}.Truncate(text, maxBytes)
		wantOmitted := len(enc) // nothing fits: every byte omitted
		if m := noticeRe.FindStringSubmatch(truncated); m != nil {
			wantOmitted, _ = strconv.Atoi(m[1])
		} else if truncated != "" {
			t.Fatalf("truncated text %q ends in no notice", truncated)
		}
		lastOmitted := len(enc)
		low, high := 0, maxBytes
		for low <= high {
			n := low + (high-low)/2
			f := fitsAt(enc, (n+1)/2, n/2, maxBytes)
			if f.ok {
				low = n + 1
				lastOmitted = f.omitted
			} else {
				high = n - 1
			}
		}
		if lastOmitted != wantOmitted {
			t.Fatalf("replay omits %d bytes, the contract's truncation %d (%q)", lastOmitted, wantOmitted, truncated)
		}
	})
}

// sessionIDOf, the kit's decoding of a URI as the encoder's inverse, accepts exactly the URIs
// the contract's uri.decode accepts, with the same id, on URIs near canonical ones.
func TestSessionIDOfIsTheContractsDecode(t *testing.T) {
	c := oracle(t)
	for _, u := range []string{"", "dsh-session:", "dsh-session:ImEi", "dsh-session:ImEi=", "dsh-session:ImEj", "dsh-session:Im\nEi",
		"DSH-SESSION:ImEi", "dsh-session:IlwvIg", "dsh-session:MQ", "dsh-session:Ilx1ZDgwMCI", "dsh-session:Ilx1RDgwMCI", "dsh-session:gA"} {
		checkDecode(t, c, u)
	}
	if t.Failed() {
		return
	}
	rapid.Check(t, func(t *rapid.T) {
		u := gen.URI(t, "uri", gen.Options{LoneSurrogates: true})
		if rapid.IntRange(0, 3).Draw(t, "raw?") == 0 {
			u = gen.String(t, "raw", gen.Options{LoneSurrogates: true}, 4)
		}
		checkDecode(t, c, u)
	})
}

func checkDecode(t interface {
	Fatalf(string, ...any)
	Errorf(string, ...any)
}, c *adapter.Client, u string) {
	r := ask(t, c, protocol.OpURIDecode, wire.NewObject().Set("uri", u))
	id, ok := sessionIDOf(u)
	if ok != r.OK || ok && r.Result != id {
		t.Errorf("%+q: sessionIDOf = %+q, %v; the contract answers %v %v", u, id, ok, r.OK, r.Result)
	}
}

// prepareConfig reads a config as the contract's config op does: valid exactly when the op
// answers, with the same limits, and each key judged on its own likewise.
func TestPrepareConfigIsTheContracts(t *testing.T) {
	c := oracle(t)
	check := func(t interface {
		Fatalf(string, ...any)
		Errorf(string, ...any)
	}, set bool, v any) {
		args := wire.NewObject()
		if set {
			args.Set("config", v)
		}
		r := ask(t, c, protocol.OpConfig, args)
		refs, bytes, valid := prepareConfig(set, wire.Plain(v))
		if valid != r.OK {
			t.Errorf("config %s: prepareConfig valid %v, the contract answers %s", mustMarshal(v), valid, mustMarshal(r.Value()))
			return
		}
		if valid {
			o := r.Result.(*wire.Object)
			wr, _ := o.Get("maxReferences")
			wb, _ := o.Get("maxReferenceBytes")
			if float64(refs) != wr || float64(bytes) != wb {
				t.Errorf("config %s: limits %d, %d; the contract's %v, %v", mustMarshal(v), refs, bytes, wr, wb)
			}
		}
	}
	check(t, false, nil)
	check(t, true, nil)
	for _, v := range []any{"x", 3.0, []any{}, wire.NewObject(), wire.NewObject().Set("maxReferences", 4.0), wire.NewObject().Set("other", -1.0)} {
		check(t, true, v)
	}
	if t.Failed() {
		return
	}
	rapid.Check(t, func(t *rapid.T) {
		v := gen.Config(t, "config")
		check(t, true, v)
		if o, isObj := v.(*wire.Object); isObj {
			for _, k := range o.Keys() {
				x, _ := o.Get(k)
				check(t, true, wire.NewObject().Set(k, x))
			}
		}
	})
}

func mustMarshal(v any) []byte {
	b, err := wire.Marshal(v)
	if err != nil {
		return []byte("?")
	}
	return b
}

// traceRetention's fit is the contract's: on the retention partitions' requests (valid config,
// no cancellation), prepare fails with the budget code exactly when some source does not fit.
func TestTraceRetentionFitsAsTheContract(t *testing.T) {
	c := oracle(t)
	sem := refadapter.Semantics{}
	rapid.Check(t, func(t *rapid.T) {
		req := gen.RetentionPrepare(t, gen.Options{LoneSurrogates: rapid.Bool().Draw(t, "surrogates")})
		w, _ := protocol.WorldFromValue(argValue(req, "world"))
		cfg, _ := req.Arg("config")
		_, maxBytes, _ := prepareConfig(true, cfg)
		fitsAll := true
		for _, e := range argValue(req, "references").([]any) {
			ref := e.(*wire.Object)
			idv, _ := ref.Get("sessionId")
			id := idv.(string)
			label := id
			if l, ok := ref.Get("label"); ok {
				label = l.(string)
			}
			s := w.Find(id)
			fits, projected := traceRetention(sem, nil, s.Header, *s.Surface, label, maxBytes)
			if !projected {
				t.Fatalf("%s does not project", id)
			}
			fitsAll = fitsAll && fits
		}
		r := ask(t, c, protocol.OpPrepare, req.Args)
		if budget := errCode(r) == contract.BudgetExceeded; budget == fitsAll || !budget && !r.OK {
			t.Fatalf("traceRetention: every source fits %v; the contract answers %s", fitsAll, mustMarshal(r.Value()))
		}
	})
}

// lowerHasPrefix answers as strings.HasPrefix(strings.ToLower(s), prefix) did, including where
// Go's lowering turns a non-ASCII rune into ASCII (U+0130 → i) and where s starts mid-rune.
func TestLowerHasPrefixIsToLowerHasPrefix(t *testing.T) {
	const p = "dsh-session:"
	for _, s := range []string{
		"", "dsh-session", "dsh-session:", "DSH-Session:x", "dsh-sess\u0130on:", "dsh-\u017fession:",
		"\xffdsh-session:", "dsh-session\xff", "\u00e9"[1:] + "dsh-session:", "dsh-session:\u0130\u0130",
		"dsh\u2010session:", "DSH-SESSION:" + strings.Repeat("\u0130", 100),
	} {
		if got, want := lowerHasPrefix(s, p), strings.HasPrefix(strings.ToLower(s), p); got != want {
			t.Errorf("lowerHasPrefix(%q) = %v, want %v", s, got, want)
		}
	}
}
