package jsstring_test

// Differential tests: each checks this package against the JavaScript engine of the node on
// PATH, through one helper process per test, and skips when node is missing.

import (
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"

	"github.com/sessionref-kit/sessionref-kit/internal/nodejs"
	js "github.com/sessionref-kit/sessionref-kit/reference/jsstring"
)

const nodeScript = `
function fnv(h, u) {
  for (let i = 0; i < u.length; i++) h = Math.imul(h ^ u.charCodeAt(i), 16777619) >>> 0;
  return Math.imul(h ^ 0xffff, 16777619) >>> 0; // separator
}
function ctxString(ctx, cp) { return ctx.replace("X", String.fromCodePoint(cp)); }
function handle(req) {
  switch (req.op) {
  case "version":
    return { node: process.version, unicode: process.versions.unicode, icu: process.versions.icu };
  case "lower":
    return req.s.map((u) => units(str(u).toLowerCase()));
  case "bytes":
    return req.s.map((u) => {
      const s = str(u);
      return {
        byteLength: Buffer.byteLength(s, "utf8"),
        encoded: Buffer.from(new TextEncoder().encode(s)).toString("hex"),
        wellFormed: s.isWellFormed(),
        length: s.length,
      };
    });
  case "lowerSweep": {
    // One hash per chunk of code points, over every context's lowercase.
    const out = [];
    for (let lo = req.lo; lo <= req.hi; lo += req.chunk) {
      let h = 2166136261;
      for (let cp = lo; cp < lo + req.chunk && cp <= req.hi; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        for (const ctx of req.contexts) h = fnv(h, ctxString(ctx, cp).toLowerCase());
      }
      out.push(h);
    }
    return out;
  }
  case "lowerDetail": {
    const out = [];
    for (let cp = req.lo; cp <= req.hi; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      for (const ctx of req.contexts) out.push([cp, ctx, units(ctxString(ctx, cp).toLowerCase())]);
    }
    return out;
  }
  case "regex": {
    // Code points (surrogates included, as lone code units) that /^\s$/u matches and that
    // /^.$/u does not.
    const space = [], notDot = [];
    const reS = /^\s$/u, reDot = /^.$/u;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const s = String.fromCodePoint(cp);
      if (reS.test(s)) space.push(cp);
      if (!reDot.test(s)) notDot.push(cp);
    }
    return { space, notDot };
  }
  }
  throw new Error("unknown op " + req.op);
}
`

func startNode(t *testing.T) *nodejs.Process {
	t.Helper()
	p := nodejs.StartTB(t, nodeScript)
	var v struct{ Node, Unicode, ICU string }
	p.MustCall(t, map[string]string{"op": "version"}, &v)
	if v.Unicode != js.UnicodeVersion {
		t.Logf("note: node %s has Unicode %s (ICU %s); tables are from Unicode %s (node %s)",
			v.Node, v.Unicode, v.ICU, js.UnicodeVersion, js.NodeVersion)
	}
	return p
}

// lowerAlphabet is rich in what Final_Sigma and full lowercase mapping depend on.
var lowerAlphabet = []rune{
	0x3A3, 0x3A3, 0x3A3, 0x3A3, 0x3C3, 0x3C2, 0x391, 0x3B1, 0x386, 0x1F88, 0x1FBC,
	'A', 'Z', 'a', 'z', 'I', ' ', '1', ':', '.', '\'', '-', 0x130, 0x131, 0xDF, 0x1E9E, 0x212A, 0x2126,
	0x345, 0x2B0, 0xAD, 0x307, 0x2019, 0xB7, 0x300, 0x200D, 0xFE0F, 0xE0001, 0x1D2C, 0x2160, 0x24B6,
	0x10400, 0x10428, 0x1E900, 0x1E922, 0x1F600,
	0x410, 0x430, 0x401, 0x4C0, 0x531, 0x561, 0x587, 0x10A0, 0x1C90, 0x10D0, 0x2D00, 0x13A0, 0xAB70, 0x13F8,
	0x1C5, 0x1C4, 0x1C6, 0x2C6F, 0xA7AE, 0x1E00,
	0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD801,
}

func lowerUnits() *rapid.Generator[[]uint16] {
	return rapid.Custom(func(t *rapid.T) []uint16 {
		rs := rapid.SliceOfN(rapid.SampledFrom(lowerAlphabet), 0, 10).Draw(t, "runes")
		var u []uint16
		for _, r := range rs {
			if r >= 0x10000 {
				h, l := utf16.EncodeRune(r)
				u = append(u, uint16(h), uint16(l))
			} else {
				u = append(u, uint16(r))
			}
		}
		return u
	})
}

// drawMany draws n values from g, the same ones on every run.
func drawMany[V any](t *testing.T, g *rapid.Generator[V], n int) []V {
	t.Helper()
	out := make([]V, n)
	for i := range out {
		out[i] = g.Example(i)
	}
	return out
}

func TestNodeToLowerRandom(t *testing.T) {
	p := startNode(t)
	inputs := drawMany(t, lowerUnits(), 20000)
	var want [][]uint16
	p.MustCall(t, map[string]any{"op": "lower", "s": inputs}, &want)
	bad := 0
	for i, u := range inputs {
		got := js.UTF16(js.ToLower(js.FromUTF16(u)))
		if !slices.Equal(got, want[i]) {
			if bad++; bad <= 20 {
				t.Errorf("ToLower(%04X) = %04X; JavaScript gives %04X", u, got, want[i])
			}
		}
	}
	t.Logf("compared toLowerCase on %d random strings; %d differ", len(inputs), bad)
}

var sweep = flag.Bool("sweep", false, "run TestNodeToLowerSweep: every code point lowercased by Go and by Node (.ci/run passes it)")

// TestNodeToLowerSweep lowercases every non-surrogate code point X in the contexts that decide
// Final_Sigma, comparing chunk hashes with JavaScript and detail only for chunks that differ.
// It takes seconds of CPU on both sides, so `go test ./...` leaves it to -sweep (.ci/run).
func TestNodeToLowerSweep(t *testing.T) {
	if !*sweep {
		t.Skip("every code point against Node: run with -sweep (.ci/run does)")
	}
	p := startNode(t)
	contexts := []string{"X", "XΣ", "ΣX", "AXΣ", "AΣX", "ΑΣXΑ"}
	const chunk = 4096
	var hashes []uint32
	p.MustCall(t, map[string]any{"op": "lowerSweep", "lo": 0, "hi": 0x10FFFF, "chunk": chunk, "contexts": contexts}, &hashes)
	bad := 0
	for c, want := range hashes {
		lo := rune(c * chunk)
		hi := min(lo+chunk-1, 0x10FFFF)
		h := uint32(2166136261)
		for cp := lo; cp <= hi; cp++ {
			if js.IsSurrogate(cp) {
				continue
			}
			for _, ctx := range contexts {
				h = fnv(h, js.UTF16(js.ToLower(ctxString(ctx, cp))))
			}
		}
		if h == want {
			continue
		}
		var detail []struct {
			CP    rune
			Ctx   string
			Units []uint16
		}
		p.MustCall(t, map[string]any{"op": "lowerDetail", "lo": lo, "hi": hi, "contexts": contexts}, &detailTuples{&detail})
		for _, d := range detail {
			s := ctxString(d.Ctx, d.CP)
			if got := js.UTF16(js.ToLower(s)); !slices.Equal(got, d.Units) {
				if bad++; bad <= 30 {
					t.Errorf("ToLower(%q) (X = %U) = %04X; JavaScript gives %04X", s, d.CP, got, d.Units)
				}
			}
		}
	}
	t.Logf("swept %d code points × %d contexts; %d results differ", 0x110000-0x800, len(contexts), bad)
}

// detailTuples decodes lowerDetail's [cp, ctx, units] tuples.
type detailTuples struct {
	out *[]struct {
		CP    rune
		Ctx   string
		Units []uint16
	}
}

func (d *detailTuples) UnmarshalJSON(b []byte) error {
	var raw [][3]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	for _, r := range raw {
		var e struct {
			CP    rune
			Ctx   string
			Units []uint16
		}
		e.CP = rune(r[0].(float64))
		e.Ctx = r[1].(string)
		for _, x := range r[2].([]any) {
			e.Units = append(e.Units, uint16(x.(float64)))
		}
		*d.out = append(*d.out, e)
	}
	return nil
}

func ctxString(ctx string, cp rune) string {
	var b js.Builder
	for _, r := range ctx {
		if r == 'X' {
			r = cp
		}
		b.WriteRune(r)
	}
	return b.String()
}

func fnv(h uint32, u []uint16) uint32 {
	for _, c := range u {
		h = (h ^ uint32(c)) * 16777619
	}
	return (h ^ 0xFFFF) * 16777619
}

func TestNodeBytes(t *testing.T) {
	p := startNode(t)
	inputs := drawMany(t, unitsGen(), 10000)
	// Every single code unit, and every code point's pair, too.
	for c := 0; c <= 0xFFFF; c += 7 {
		inputs = append(inputs, []uint16{uint16(c)})
	}
	inputs = append(inputs, []uint16{}, []uint16{0xD800, 0xDC00}, []uint16{0xDC00, 0xD800}, []uint16{0xDBFF, 0xDFFF, 0xDFFF})
	var want []struct {
		ByteLength int
		Encoded    string
		WellFormed bool
		Length     int
	}
	p.MustCall(t, map[string]any{"op": "bytes", "s": inputs}, &want)
	bad := 0
	for i, u := range inputs {
		s := js.FromUTF16(u)
		w := want[i]
		got := struct {
			ByteLength int
			Encoded    string
			WellFormed bool
			Length     int
		}{js.ByteLength(s), hex.EncodeToString([]byte(js.ToWellFormed(s))), js.WellFormed(s), js.Length(s)}
		if got != w {
			if bad++; bad <= 20 {
				t.Errorf("%04X: Go (ByteLength, ToWellFormed, WellFormed, Length) = %+v; JavaScript %+v", u, got, w)
			}
		}
	}
	t.Logf("compared Buffer.byteLength, TextEncoder, isWellFormed and length on %d strings; %d differ", len(inputs), bad)
}

func TestNodeRegexClasses(t *testing.T) {
	p := startNode(t)
	var want struct {
		Space  []rune
		NotDot []rune
	}
	p.MustCall(t, map[string]string{"op": "regex"}, &want)
	var space, notDot []rune
	for r := rune(0); r <= 0x10FFFF; r++ {
		if js.IsSpace(r) {
			space = append(space, r)
		}
		if js.IsLineTerminator(r) {
			notDot = append(notDot, r)
		}
	}
	if !slices.Equal(space, want.Space) {
		t.Errorf("IsSpace set = %s; /\\s/u matches %s", fmtRunes(space), fmtRunes(want.Space))
	}
	if !slices.Equal(notDot, want.NotDot) {
		t.Errorf("IsLineTerminator set = %s; /./u rejects %s", fmtRunes(notDot), fmtRunes(want.NotDot))
	}
	t.Logf("compared /\\s/u and /./u over all %d code points", 0x110000)
}

func fmtRunes(rs []rune) string {
	s := ""
	for _, r := range rs {
		s += fmt.Sprintf(" %U", r)
	}
	return "[" + s + " ]"
}
