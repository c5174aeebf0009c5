package mutants

import (
	"bufio"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Number mutants: ports whose Number::toString picks other digits than ECMAScript's, where
// the layout (positional below 1e21, e+21, no ".0") is already JavaScript's, so only the number
// trap fixtures (fixtures/traps-numbers-*.yaml) can tell. ECMAScript (Number::toString, note 2
// of §6.1.6.1.20) takes the shortest digits that read back as the double; among several, the
// one closest to the exact value; of two equally close, the even one. The doubles that tell
// each mistake apart were found by conformance/cases/testdata/numbers/gen.mjs.

// numberMutants are the trap mutants of this file.
func numberMutants() []mutant {
	return []mutant{
		trap("trap/rust-display-ties-up", "Rust format!(\"{}\") digits: a tie between two shortest candidates rounded up, not to the even one (2^50 + 1/4 as 1125899906842624.3)",
			trapKnobs{number: shortestWith(shortestOpts{tiesUp: true})}),
		trap("trap/shortest-symmetric-interval", "a hand-written shortest formatter with a symmetric rounding interval: at a power of two, whose lower neighbour is nearer, it takes digits that read back as that neighbour",
			trapKnobs{number: shortestWith(shortestOpts{symmetric: true})}),
		trap("trap/shortest-first-candidate", "shortest digits without the closest rule: the lowest candidate that reads back (digit generation that stops at the first fit), 5e-324 as 3e-324",
			trapKnobs{number: shortestWith(shortestOpts{lowest: true})}),
		trap("trap/java-17-double-tostring-digits", "Java 17 Double.toString's digits laid out as JavaScript (new BigDecimal(Double.toString(x))): not always the shortest (JDK-4511638, fixed in 19), 2^60 as 1152921504606846980",
			trapKnobs{number: java17Digits}),
		trap("trap/cpp-to-chars-fixed", "C++ std::to_chars(x, chars_format::fixed) in JavaScript's positional range: an integer from 2^53 written with every digit of its exact value, 2^60 as 1152921504606846976",
			trapKnobs{number: cppFixed}),
	}
}

// shortestWith is Number::toString with opts' mistake in the choice of digits.
func shortestWith(opts shortestOpts) func(float64) string {
	return func(f float64) string {
		if f == 0 {
			return "0"
		}
		n, p := shortest(f, opts)
		return jsLayout(f, n, p)
	}
}

// shortestOpts are the mistakes shortest can make; the zero value is ECMAScript's rule.
type shortestOpts struct {
	tiesUp    bool // a tie between two candidates rounded up
	symmetric bool // a power of two's interval taken as symmetric
	lowest    bool // the lowest candidate, not the closest
}

// shortest returns the shortest decimal n*10^p that reads back as |f| (f finite, not 0), the
// candidate chosen by opts, by exact arithmetic: the rounding interval of f is
// [f - (f - prev)/2, f + (next - f)/2], closed when f's significand is even.
func shortest(f float64, opts shortestOpts) (n *big.Int, p int) {
	bits := math.Float64bits(math.Abs(f))
	be := int(bits >> 52 & 0x7ff)
	frac := bits & (1<<52 - 1)
	m, e := new(big.Int).SetUint64(frac), -1074
	if be > 0 {
		m.SetUint64(frac | 1<<52)
		e = be - 1075
	}
	lopsided := be > 1 && frac == 0 && !opts.symmetric
	inclusive := m.Bit(0) == 0
	pow := func(b int64, k int) *big.Int { return new(big.Int).Exp(big.NewInt(b), big.NewInt(int64(k)), nil) }
	mul := func(xs ...*big.Int) *big.Int {
		r := big.NewInt(1)
		for _, x := range xs {
			r.Mul(r, x)
		}
		return r
	}
	top := int(math.Floor(math.Log10(math.Abs(f))))
	for p = top + 2; p >= top-20; p-- {
		d10 := pow(10, max(0, -p))
		x := mul(m, pow(2, max(e, 2)), d10) // f * D, D = 2^max(0,2-e) * 10^max(0,-p)
		half := mul(pow(2, max(e-1, 1)), d10)
		quarter := mul(pow(2, max(e-2, 0)), d10)
		t := mul(pow(10, max(p, 0)), pow(2, max(0, 2-e))) // 10^p * D
		lower := new(big.Int).Sub(x, half)
		if lopsided {
			lower.Sub(x, quarter)
		}
		upper := new(big.Int).Add(x, half)
		lo, hi := new(big.Int), new(big.Int)
		if inclusive {
			lo.Add(lower, t).Sub(lo, big.NewInt(1)).Quo(lo, t)
			hi.Quo(upper, t)
		} else {
			lo.Quo(lower, t).Add(lo, big.NewInt(1))
			hi.Sub(upper, big.NewInt(1)).Quo(hi, t)
		}
		if lo.Sign() < 1 {
			lo.SetInt64(1)
		}
		if lo.Cmp(hi) > 0 {
			continue
		}
		if opts.lowest {
			return lo, p
		}
		q, r := new(big.Int).QuoRem(x, t, new(big.Int))
		r.Lsh(r, 1)
		n = q
		switch c := r.Cmp(t); {
		case c > 0, c == 0 && (opts.tiesUp || q.Bit(0) == 1):
			n = new(big.Int).Add(q, big.NewInt(1))
		}
		if n.Cmp(lo) < 0 {
			n = lo
		}
		if n.Cmp(hi) > 0 {
			n = hi
		}
		return n, p
	}
	panic("shortest: no candidate for " + strconv.FormatFloat(f, 'g', -1, 64))
}

// jsLayout writes f, whose digits are n*10^p, as Number::toString lays digits out.
func jsLayout(f float64, n *big.Int, p int) string {
	if f == 0 {
		return "0"
	}
	s := n.String()
	k := len(s)
	pt := p + k
	var out string
	switch {
	case k <= pt && pt <= 21:
		out = s + strings.Repeat("0", pt-k)
	case 0 < pt && pt <= 21:
		out = s[:pt] + "." + s[pt:]
	case -6 < pt && pt <= 0:
		out = "0." + strings.Repeat("0", -pt) + s
	default:
		out = s[:1]
		if k > 1 {
			out += "." + s[1:]
		}
		sign := "+"
		if pt-1 < 0 {
			sign = "-"
		}
		out += "e" + sign + strconv.Itoa(abs(pt-1))
	}
	if f < 0 {
		return "-" + out
	}
	return out
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// cppFixed is std::to_chars(x, chars_format::fixed) where JavaScript writes positional digits
// (libstdc++ 12, measured: the cpp-to-chars column of the corpus), JavaScript's text elsewhere:
// the shortest fixed text of an integer from 2^53 is its exact value, every digit.
func cppFixed(f float64) string {
	if a := math.Abs(f); a >= 1<<53 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return wire.NumberString(f)
}

// java17 maps a double's bits to Java 17's Double.toString where its digits differ from
// JavaScript's: the java-double-tostring column of the number corpus, measured with OpenJDK
// 17.0.15 by probe Probe.java. Java 17's FloatingDecimal is not reimplemented here, so the
// mutant is Java 17 on the corpus's doubles and JavaScript elsewhere.
var java17 = sync.OnceValue(func() map[uint64]string {
	out := map[uint64]string{}
	f, err := os.Open("../cases/testdata/numbers/corpus.tsv")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	col := -1
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if col < 0 {
			for i, h := range cols {
				if h == "java-double-tostring" {
					col = i
				}
			}
			if col < 0 {
				panic("corpus.tsv has no java-double-tostring column")
			}
			continue
		}
		bits, err := strconv.ParseUint(cols[0], 16, 64)
		if err != nil {
			panic(err)
		}
		out[bits] = cols[col]
	}
	return out
})

// java17Digits lays Java 17's digits out as JavaScript does.
func java17Digits(f float64) string {
	t, ok := java17()[math.Float64bits(f)]
	if !ok || f == 0 {
		return wire.NumberString(f)
	}
	// The decimal digits of Java's text, as n*10^p.
	mant, exp, _ := strings.Cut(strings.TrimPrefix(t, "-"), "E")
	e, _ := strconv.Atoi(exp)
	ip, fp, _ := strings.Cut(mant, ".")
	digits := strings.TrimRight(ip+fp, "0")
	p := e - len(fp) + (len(ip+fp) - len(digits))
	digits = strings.TrimLeft(digits, "0")
	n, _ := new(big.Int).SetString(digits, 10)
	return jsLayout(f, n, p)
}

// TestShortestIsJavaScript: with no mistake, shortest and jsLayout write what the kit's
// Number::toString writes (itself checked against Node on the corpus), on the corpus's powers
// of two and boundaries and on 5000 seeded doubles; so each number mutant differs only by its
// one mistake.
func TestShortestIsJavaScript(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{5e-324, math.MaxFloat64, 1e21, 1e-7, 0.1, 1 << 53, -2.5e-8}
	for i := -1074; i <= 1023; i++ {
		xs = append(xs, math.Ldexp(1, i))
	}
	for range 5000 {
		x := math.Float64frombits(r.Uint64())
		if !math.IsNaN(x) && !math.IsInf(x, 0) && x != 0 {
			xs = append(xs, x)
		}
	}
	for _, x := range xs {
		if got, want := shortestWith(shortestOpts{})(x), wire.NumberString(x); got != want {
			t.Fatalf("%016x: %s, want %s", math.Float64bits(x), got, want)
		}
	}
	// Each mistake on a double the corpus shows it on (the half-up and symmetric columns).
	for _, c := range []struct {
		f    func(float64) string
		x    float64
		want string
	}{
		{shortestWith(shortestOpts{tiesUp: true}), 1<<50 + 0.25, "1125899906842624.3"},
		{shortestWith(shortestOpts{lowest: true}), 5e-324, "3e-324"},
		{shortestWith(shortestOpts{symmetric: true}), 0x1p-1019, "1.780059086805761e-307"},
		{java17Digits, 0x1p60, "1152921504606846980"},
		{cppFixed, 0x1p60, "1152921504606846976"},
	} {
		if got := c.f(c.x); got != c.want {
			t.Errorf("%v: %s, want %s", c.x, got, c.want)
		}
	}
}

// TestNumberMutantsKilledByNumberTraps: each mutant whose mistake is in how a number is
// written (the number mutants of this file, and the language formatters and Go's 'g' of the
// others) is killed by a number trap fixture (fixtures/traps-numbers-*.yaml), not only by the
// older checks that happen to hold one of its doubles: the trap fixtures are what hold every
// double that tells it apart.
func TestNumberMutantsKilledByNumberTraps(t *testing.T) {
	recorded, err := readKills()
	if err != nil {
		t.Fatal(err)
	}
	formatters := map[string]bool{"trap/python-float-repr": true, "trap/java-double-tostring": true,
		"trap/csharp-double-tostring": true, "trap/rust-serde-json-f64": true, "strings/go-numbers": true}
	ms := numberMutants()
	for _, m := range allMutants() {
		if formatters[m.name] {
			ms = append(ms, m)
			delete(formatters, m.name)
		}
	}
	if len(formatters) > 0 {
		t.Errorf("no such mutants: %v", formatters)
	}
	for _, m := range ms {
		n := 0
		for _, k := range recorded[m.name] {
			if strings.HasPrefix(k.check, "fixtures/traps-numbers-") {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no number trap fixture in %s kills it (%s)", m.name, killsFile, m.mistake)
		}
	}
}
