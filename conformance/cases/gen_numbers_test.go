package cases_test

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/cases"
	"github.com/sessionref-kit/sessionref-kit/conformance/contract"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/refadapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/result"
	"github.com/sessionref-kit/sessionref-kit/conformance/suite"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
	"github.com/sessionref-kit/sessionref-kit/fixtures"
)

// The number trap fixtures (TRAP-JSON-NUMBERS): JavaScript's Number::toString, which
// JSON.stringify writes, on the doubles of testdata/numbers/corpus.tsv (how they were found and
// what each language's default writes for them: testdata/numbers/gen.mjs) and on number texts
// read from the wire. A number reaches compared bytes in two places: the prompt, where a
// source's capturedThroughSeq is written, three sources to a prepare (maxReferences is at most
// 3); and the URI of an id that is not a string (uri.encode, mention.format), which writes
// JSON.stringify of the id, so an array id carries 128 doubles in one check (few checks: a Go port's API takes string
// ids only, and these are not covered through it). A failing case is
// narrowed to its first differing number (cases.ChunkParts).

// corpusRow is one double of the corpus.
type corpusRow struct {
	x       float64
	js      string   // Number::toString(x), as Node wrote it
	sources []string // gen.mjs's sources (pow2, tie, multi, boundary, ryu, lang-…)
	halfUp  bool     // a tie rounded up writes other digits
	lop     bool     // a symmetric rounding interval writes other digits
	// differs names the probed default formatters whose digits differ from JavaScript's.
	differs []string
}

func (r corpusRow) from(src string) bool {
	for _, s := range r.sources {
		if s == src || strings.HasPrefix(s, src+"-") {
			return true
		}
	}
	return false
}

var corpusOnce = sync.OnceValues(readCorpus)

// numberCorpus is testdata/numbers/corpus.tsv, in its order.
func numberCorpus() []corpusRow {
	rows, err := corpusOnce()
	if err != nil {
		panic(err)
	}
	return rows
}

func readCorpus() ([]corpusRow, error) {
	f, err := os.Open("testdata/numbers/corpus.tsv")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var head []string
	var rows []corpusRow
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if head == nil {
			head = cols
			continue
		}
		if len(cols) != len(head) {
			return nil, fmt.Errorf("corpus.tsv: %d columns, want %d: %q", len(cols), len(head), sc.Text())
		}
		bits, err := strconv.ParseUint(cols[0], 16, 64)
		if err != nil {
			return nil, err
		}
		r := corpusRow{x: math.Float64frombits(bits), js: cols[1], sources: strings.Split(cols[2], ","), halfUp: cols[6] != "", lop: cols[7] != ""}
		for i := 8; i < len(cols); i++ {
			if digitsOf(cols[i]) != digitsOf(cols[1]) {
				r.differs = append(r.differs, head[i])
			}
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

// digitsOf reads a formatter's text as its significant digits and the decimal exponent of
// the first, so "1.0E21", "1e+21" and "1000000000000000000000" are the same.
func digitsOf(t string) string {
	t = strings.TrimPrefix(strings.TrimSpace(t), "-")
	mant, exp, _ := strings.Cut(strings.ToLower(t), "e")
	e, _ := strconv.Atoi(strings.TrimPrefix(exp, "+"))
	ip, fp, _ := strings.Cut(mant, ".")
	all, point := ip+fp, len(ip)+e
	trimmed := strings.TrimLeft(all, "0")
	point -= len(all) - len(trimmed)
	trimmed = strings.TrimRight(trimmed, "0")
	if trimmed == "" {
		return "0"
	}
	return trimmed + "@" + strconv.Itoa(point)
}

// wireNumberTexts are number texts that JSON.parse must read as JavaScript does before the
// double is written again: integral values written with a fraction or an exponent, -0, digits
// past a double's precision, and decimal-to-binary halfway cases (the exact midpoint between
// two doubles reads as the even one; one digit past it reads as the other).
var wireNumberTexts = []string{
	"2.0", "1e2", "1E2", "100e-2", "0.1e1", "2.00", "1E21", "1e+21", "1.0e21", "10e20", "0.000001", "1e-6", "1E-7", "0.0000001",
	"-0", "-0.0", "-0e5", "0e0", "0.0",
	"9007199254740993", "9007199254740995", "9007199254740992.5", "18014398509481985", "123456789012345678901",
	"1.0000000000000001", "1.00000000000000011102230246251565404236316680908203125",
	"1.00000000000000011102230246251565404236316680908203125001", "0.1000000000000000055511151231257827021181583404541015625",
	"1125899906842624.25", "1125899906842624.2500000000000000001", "1125899906842624.75", "197264248976381.125",
	"2.2250738585072011e-308", "2.2250738585072012e-308", "4.9406564584124654e-324", "2.4703282292062328e-324",
	"2.4703282292062327e-324", "1.7976931348623157e308", "1.7976931348623158e308", "7.2057594037927933e16",
}

// promptNumbers are the doubles put in the prompt (three to a check): 24 ties that rounding
// up tells apart and 24 that rounding down does, every power of two a symmetric interval
// writes otherwise (the whole finite set), every boundary, the first 20 doubles of each probed
// language whose digits differ, the first 20 with several shortest candidates (subnormals
// first), then the wire texts. The rest of the corpus (the other powers of two, ties and
// samples, ryu's inputs) is in the URI checks, 128 to a check.
func promptNumbers() []numItem {
	var out []numItem
	lang := map[string]int{}
	ties := map[bool]int{}
	multi := 0
	for _, r := range numberCorpus() {
		keep := r.lop || r.from("boundary")
		if r.from("tie") && ties[r.halfUp] < 24 {
			ties[r.halfUp]++
			keep = true
		}
		if r.from("multi") && multi < 20 {
			multi++
			keep = true
		}
		for _, d := range r.differs {
			if lang[d] < 20 {
				lang[d]++
				keep = true
			}
		}
		if keep {
			out = append(out, r.item())
		}
	}
	return append(out, wireItems()...)
}

// numItem is a number of a chunk and the traps it is there for.
type numItem struct {
	v     any
	traps []string
}

// item: a double the corpus has for its digits (a tie, a power of two, several candidates,
// a language's other digits, ryu's inputs) is there for TRAP-JSON-NUMBER-DIGITS; a boundary
// of the form for TRAP-JSON-NUMBERS; -0 for TRAP-TYPE-NEGATIVE-ZERO.
func (r corpusRow) item() numItem {
	it := numItem{v: corpusValue(r.x)}
	if r.from("boundary") {
		it.traps = append(it.traps, "TRAP-JSON-NUMBERS")
	}
	if r.from("pow2") || r.from("tie") || r.from("multi") || r.from("ryu") || len(r.differs) > 0 {
		it.traps = append(it.traps, "TRAP-JSON-NUMBER-DIGITS")
	}
	if r.x == 0 && math.Signbit(r.x) {
		it.traps = append(it.traps, "TRAP-TYPE-NEGATIVE-ZERO")
	}
	return it
}

// wireItems are wireNumberTexts as chunk items: number text read from the wire
// (TRAP-JSON-NUMBERS), -0 (TRAP-TYPE-NEGATIVE-ZERO).
func wireItems() []numItem {
	var out []numItem
	for _, t := range wireNumberTexts {
		it := numItem{v: num(t), traps: []string{"TRAP-JSON-NUMBERS"}}
		if f, _ := num(t).Float64(); f == 0 && math.Signbit(f) {
			it.traps = append(it.traps, "TRAP-TYPE-NEGATIVE-ZERO")
		}
		out = append(out, it)
	}
	return out
}

// chunkTraps is the union of the items' traps, in a fixed order.
func chunkTraps(items []numItem) []string {
	var out []string
	for _, id := range []string{"TRAP-JSON-NUMBER-DIGITS", "TRAP-JSON-NUMBERS", "TRAP-TYPE-NEGATIVE-ZERO"} {
		for _, it := range items {
			if slices.Contains(it.traps, id) {
				out = append(out, id)
				break
			}
		}
	}
	return out
}

// corpusValue is x as the wire carries it: -0 needs its text, as a float64 is written
// JSON.stringify's way ("0").
func corpusValue(x float64) any {
	if x == 0 && math.Signbit(x) {
		return num("-0")
	}
	return x
}

// numberName names a number in a case name: JavaScript's text, or the wire text.
func numberName(v any) string {
	if n, ok := v.(wire.Number); ok {
		return "text-" + string(n)
	}
	return wire.NumberString(v.(float64))
}

func chunkItems(vs []numItem, n int) [][]numItem {
	var out [][]numItem
	for len(vs) > n {
		out = append(out, vs[:n])
		vs = vs[n:]
	}
	if len(vs) > 0 {
		out = append(out, vs)
	}
	return out
}

func values(items []numItem) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it.v
	}
	return out
}

// idsPerCheck is how many numbers an array id of a uri.encode or mention.format check holds:
// its diagnosis can try each (cases.maxDiagnoseCalls).
const idsPerCheck = 128

func trapsNumberFiles() []gfile {
	var prompt []gcase
	for i, ch := range chunkItems(promptNumbers(), 3) {
		var ss []*wire.Object
		var rs []*wire.Object
		for j, it := range ch {
			id := fmt.Sprintf("n%d", j)
			ss = append(ss, sess(id, surf(o("capturedThroughSeq", it.v, "events", a()))))
			rs = append(rs, ref(id))
		}
		prompt = append(prompt, c(fmt.Sprintf("prompt-number-%03d-%s", i, numberName(ch[0].v)), "SR-STR-6 SR-PROJ-7",
			o("world", world(ss...), "agent", agent("me"), "content", "x", "references", refs(rs...))).trap(chunkTraps(ch)...))
	}
	var all []numItem
	for _, r := range numberCorpus() {
		all = append(all, r.item())
	}
	all = append(all, wireItems()...)
	var uri, mention []gcase
	for i, ch := range chunkItems(all, idsPerCheck) {
		uri = append(uri, c(fmt.Sprintf("number-array-id-%03d-%s", i, numberName(ch[0].v)), "SR-URI-1", o("sessionId", values(ch))).trap(chunkTraps(ch)...))
	}
	for i, ch := range chunkItems(promptNumbers(), idsPerCheck) {
		mention = append(mention, c(fmt.Sprintf("number-array-id-%03d-%s", i, numberName(ch[0].v)), "SR-MENTION-1 SR-URI-1", o("sessionId", values(ch), "label", "n")).trap(chunkTraps(ch)...))
	}
	return []gfile{
		{"traps-numbers-prompt.yaml", protocol.OpPrepare, prompt},
		{"traps-numbers-uri.yaml", protocol.OpURIEncode, uri},
		{"traps-numbers-mention.yaml", protocol.OpMentionFormat, mention},
	}
}

// TestNumberCorpus: the kit's own Number::toString (wire.NumberString, which the fixture files
// and the diagnosis use) writes every double of the corpus as Node did, and the corpus holds
// what the trap entry says it holds.
func TestNumberCorpus(t *testing.T) {
	rows := numberCorpus()
	pow2, ties, halfUp, lop := 0, 0, 0, 0
	for _, r := range rows {
		want := r.js
		if got := wire.NumberString(r.x); got != want {
			t.Errorf("%016x: wire.NumberString writes %s, JavaScript %s", math.Float64bits(r.x), got, want)
		}
		if r.from("pow2") {
			pow2++
		}
		if r.from("tie") {
			ties++
		}
		if r.halfUp {
			halfUp++
		}
		if r.lop {
			lop++
		}
	}
	if pow2 != 2098 {
		t.Errorf("%d powers of two, want every one of 2^-1074..2^1023 (2098)", pow2)
	}
	if ties < 100 || halfUp < 100 || lop < 200 {
		t.Errorf("%d ties (%d told apart by rounding up), %d powers of two told apart by a symmetric interval: fewer than gen.mjs finds", ties, halfUp, lop)
	}
	// Each wire text reads as some double; the prompt writes that double.
	for _, s := range wireNumberTexts {
		if _, err := num(s).Float64(); err != nil {
			t.Errorf("wire text %s: %v", s, err)
		}
	}
}

// roundTiesUp is the reference with one number written as a formatter that rounds ties up
// writes it (Rust's {}): 2^50 + 1/4, halfway between …4.2 and …4.3.
type roundTiesUp struct{ refadapter.Reference }

func (h *roundTiesUp) Handle(ctx context.Context, req protocol.Request) protocol.Response {
	resp := h.Reference.Handle(ctx, req)
	if resp.OK && req.Op == protocol.OpURIEncode {
		id, _ := req.Plain().Args.Get("sessionId")
		b, err := wire.Marshal(id)
		if err != nil {
			panic(err)
		}
		text := "," + string(b) + ","
		for _, end := range []string{",", "]"} {
			text = strings.ReplaceAll(text, "1125899906842624.2"+end, "1125899906842624.3"+end)
		}
		resp.Result = contract.URIOf(text[1 : len(text)-1])
		return resp
	}
	if !resp.OK || req.Op != protocol.OpPrepare {
		return resp
	}
	b, err := wire.Marshal(resp.Result)
	if err != nil {
		panic(err)
	}
	v, err := wire.Parse(strings.ReplaceAll(string(b), ":1125899906842624.2,", ":1125899906842624.3,"))
	if err != nil {
		panic(err)
	}
	resp.Result = v
	return resp
}

// TestNumberChunkDiagnosis: a port that writes one double otherwise fails the prompt and URI
// chunks that hold it, and each failure names that double (and the wire text it was read
// from), not the chunk.
func TestNumberChunkDiagnosis(t *testing.T) {
	cl, err := adapter.Connect(context.Background(), adapter.InProcess{H: &roundTiesUp{}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := cases.Run(context.Background(), cl, fixtures.FS, cases.Options{
		Selection: suite.Selection{Match: "fixtures/traps-numbers-(prompt|uri)/"},
		Oracle:    &refadapter.Reference{},
	})
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, r := range res {
		if r.Status != result.Pass {
			failed = append(failed, r.Name+": "+r.Diagnosis)
		}
	}
	// Its -2^50 - 1/4 too: the replacement sees the digits, as a formatter rounding the
	// magnitude does.
	want := []string{
		"traps-numbers-prompt/prompt-number-142-1125899906842624.2: number 1125899906842624.2 (bits 0x4310000000000001)",
		"traps-numbers-prompt/prompt-number-173-text-1125899906842624.25: number written 1125899906842624.25 on the wire, read as 1125899906842624.2 (bits 0x4310000000000001)",
		"traps-numbers-uri/number-array-id-017-1000000: number 1125899906842624.2 (bits 0x4310000000000001)",
		"traps-numbers-uri/number-array-id-018-1564814836143825.8: number -1125899906842624.2 (bits 0xc310000000000001)",
		"traps-numbers-uri/number-array-id-025-179366178794476340000: number written 1125899906842624.25 on the wire, read as 1125899906842624.2 (bits 0x4310000000000001)",
	}
	if len(res) < 100 || len(failed) != len(want) {
		t.Fatalf("%d cases, failed: %q", len(res), failed)
	}
	if !slices.Equal(failed, want) {
		t.Errorf("failures and their diagnoses:\n got %q\nwant %q", failed, want)
	}
}
