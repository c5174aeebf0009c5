// gen.mjs writes corpus.tsv: the doubles of the number trap fixtures (TRAP-JSON-NUMBERS), with
// what JavaScript writes for each (Number::toString, the oracle: this Node) and what the
// default formatters of the languages installed here write (probe.*).
//
//   node gen.mjs > corpus.tsv        (from this directory; needs python3, go, rustc, javac, g++)
//
// A language whose toolchain is missing gets an empty column. Each row: the IEEE 754 bits in
// hex, JavaScript's text, the sources (comma-separated), the shortest-digit analysis
// (candidates: how many shortest digit strings read back as the double; tie: the double lies
// exactly halfway between two of them; lopsided: a power of two whose lower neighbour is
// nearer), what two wrong shortest formatters write where it differs (half-up: a tie rounded
// up, as Rust's std does; symmetric: a power of two's interval taken as symmetric, so a
// shorter string that reads back as its lower neighbour is taken), and one column per probe.
//
// Sources:
//   pow2          every power of two 2^-1074 .. 2^1023 (subnormal and normal)
//   tie           doubles exactly halfway between two shortest candidates (ECMAScript: the
//                 even one): odd multiples of 1/4 in [2^50, 2^51), and i + k/2^(j+1) (k odd)
//                 in every binade from 1 to 2^53 where that is a tie
//   multi         doubles with two or more shortest candidates where the closest is not the
//                 lowest (ECMAScript: the closest): subnormals k*2^-1074 and a seeded sample
//   boundary      the form's edges (1e21, 1e-6, 1e-7 and their neighbours), 5e-324,
//                 Number.MAX_VALUE, the smallest normal, 2^53 and its neighbours, powers of ten
//   ryu           the inputs of ulfjack/ryu ryu/tests/d2s_test.cc
//   lang-<name>   a seeded sample's doubles where that language's default writes other digits
//                 than JavaScript, the first 200 of each (sample: 200000 doubles, uniform over
//                 the exponents)
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const view = new DataView(new ArrayBuffer(8));
const bitsOf = (x) => { view.setFloat64(0, x); return view.getBigUint64(0); };
const fromBits = (b) => { view.setBigUint64(0, BigInt.asUintN(64, b)); return view.getFloat64(0); };
const hex = (x) => bitsOf(x).toString(16).padStart(16, "0");
const next = (x) => fromBits(bitsOf(x) + 1n);
const prev = (x) => fromBits(bitsOf(x) - 1n);

// analyze returns the shortest candidates of |x| (x finite, not 0): the decimal n*10^p with
// the fewest digits inside x's rounding interval, the one ECMAScript's note 2 picks (closest,
// then even), the count, and whether the pick was an exact tie.
function analyze(x, { symmetric = false, halfUp = false } = {}) {
  x = Math.abs(x);
  const b = bitsOf(x);
  const be = Number((b >> 52n) & 0x7ffn);
  const frac = b & ((1n << 52n) - 1n);
  const m = be === 0 ? frac : frac | (1n << 52n);
  const e = be === 0 ? -1074 : be - 1075;
  const lopsided = be > 1 && frac === 0n && !symmetric;
  const inclusive = m % 2n === 0n;
  const E = Math.floor(Math.log10(x));
  for (let p = E + 2; p >= E - 20; p--) {
    const d10 = 10n ** BigInt(Math.max(0, -p));
    const X = m * 2n ** BigInt(Math.max(e, 2)) * d10; // x * D, D = 2^max(0,2-e) * 10^max(0,-p)
    const H = 2n ** BigInt(Math.max(e - 1, 1)) * d10; // half an ulp * D
    const Q = 2n ** BigInt(Math.max(e - 2, 0)) * d10; // a quarter ulp * D
    const T = 10n ** BigInt(Math.max(p, 0)) * 2n ** BigInt(Math.max(0, 2 - e)); // 10^p * D
    const lower = X - (lopsided ? Q : H), upper = X + H;
    let lo = inclusive ? (lower + T - 1n) / T : lower / T + 1n;
    let hi = inclusive ? upper / T : (upper - 1n) / T;
    if (lo < 1n) lo = 1n;
    if (lo > hi) continue;
    const q = X / T, r2 = 2n * (X % T);
    let n = r2 < T ? q : r2 > T ? q + 1n : q % 2n === 0n && !halfUp ? q : q + 1n;
    const tie = r2 === T && q >= lo && q + 1n <= hi;
    if (n < lo) n = lo;
    if (n > hi) n = hi;
    return { n, p, lo, hi, count: hi - lo + 1n, tie, lopsided };
  }
  throw new Error("no candidate for " + x);
}

// jsText writes digits n * 10^p as Number::toString does (the oracle's layout, to check the
// analysis against Node's own output).
function jsText(neg, n, p) {
  const s = n.toString(), k = s.length, pt = p + k;
  let out;
  if (k <= pt && pt <= 21) out = s + "0".repeat(pt - k);
  else if (0 < pt && pt <= 21) out = s.slice(0, pt) + "." + s.slice(pt);
  else if (-6 < pt && pt <= 0) out = "0." + "0".repeat(-pt) + s;
  else {
    const ex = pt - 1;
    out = (k === 1 ? s : s[0] + "." + s.slice(1)) + "e" + (ex < 0 ? "-" : "+") + Math.abs(ex);
  }
  return (neg ? "-" : "") + out;
}

// A seeded PRNG (xorshift64*), so the corpus is the same on every run.
let seed = 0x9e3779b97f4a7c15n;
function rand64() {
  seed ^= seed >> 12n; seed ^= BigInt.asUintN(64, seed << 25n); seed ^= seed >> 27n;
  return BigInt.asUintN(64, seed * 0x2545f4914f6cdd1dn);
}
// randomDouble: a positive finite double, exponent uniform, mantissa uniform.
function randomDouble() {
  const r = rand64();
  const be = r % 2047n; // 0..2046
  return fromBits((be << 52n) | (rand64() & ((1n << 52n) - 1n)));
}

const sources = new Map(); // hex -> Set of sources
const order = [];
function add(x, src) {
  if (!Number.isFinite(x)) throw new Error("not finite: " + x);
  const h = hex(x);
  if (!sources.has(h)) { sources.set(h, new Set()); order.push(h); }
  sources.get(h).add(src);
}

// pow2
for (let i = -1074; i <= 1023; i++) add(2 ** i, "pow2");

// boundary
for (const x of [1e21, 1e-6, 1e-7, 5e-324, Number.MAX_VALUE, 2.2250738585072014e-308, 2 ** 53, 2 ** 53 - 1, 2 ** 53 - 2, 2 ** 53 + 2, 2 ** 53 + 4, Number.MIN_VALUE * 2]) {
  for (const y of [x, prev(x), next(x)]) if (Number.isFinite(y)) { add(y, "boundary"); add(-y, "boundary"); }
}
for (let i = -7; i <= 23; i++) for (const y of [Number("1e" + i), prev(Number("1e" + i)), next(Number("1e" + i))]) add(y, "boundary");
for (const x of [123456789012345680000, 999999999999999900000, 0.1, 1 / 3, 2 / 3, 0.3, 1.5e300, 2.5e-8, 1e16, 1e20, 100]) add(x, "boundary");

// tie: odd multiples of 1/4 in [2^50, 2^51): the first and last 24, and 80 spread by the PRNG.
const b50 = 2 ** 50;
for (let k = 0; k < 12; k++) { add(b50 + k + 0.25, "tie"); add(b50 + k + 0.75, "tie"); add(2 * b50 - k - 0.25, "tie"); add(2 * b50 - k - 0.75, "tie"); }
for (let i = 0; i < 40; i++) {
  const k = Number(rand64() % BigInt(b50));
  add(b50 + k + 0.25, "tie"); add(b50 + k + 0.75, "tie");
}
for (const x of [b50 + 0.25, b50 + 2.75]) add(-x, "tie");
// Ties in every other binade: x = i + k/2^(j+1) with k odd lies halfway between two j-digit
// fractions; kept where the analysis finds the tie among the shortest candidates (two per
// binade and j, of 64 tries each).
for (let b = 0; b < 53; b++) {
  for (let j = 1; j <= 17; j++) {
    let found = 0;
    for (let t = 0; t < 64 && found < 2; t++) {
      const i = 2 ** b + Number(rand64() % BigInt(2 ** Math.min(b, 52)));
      const den = 2 ** (j + 1), k = Number(rand64() % BigInt(den / 2)) * 2 + 1;
      const x = i + k / den;
      if (x >= 2 ** (b + 1) || x - i !== k / den) continue;
      const a = analyze(x);
      if (a.tie) { add(x, "tie"); found++; }
    }
  }
}

// multi: every subnormal k*2^-1074, k = 1..128, with several shortest candidates, and a seeded
// sample (up to 300) where the closest candidate is neither the lowest nor, half the time, the highest.
for (let k = 1; k <= 128; k++) {
  const x = k * 2 ** -1074, a = analyze(x);
  if (a.count > 1n) add(x, "multi");
}
{
  let kept = 0;
  for (let i = 0; i < 200000 && kept < 300; i++) {
    const x = randomDouble(), a = analyze(x);
    if (a.count > 1n && a.n !== a.lo && (a.n !== a.hi || i % 2 === 0)) { add(x, "multi"); kept++; }
  }
}

// ryu: ulfjack/ryu ryu/tests/d2s_test.cc (the D2sTest inputs).
const ieee = (exp, mant) => fromBits((BigInt(exp) << 52n) | BigInt(mant));
const maxMant = (1n << 52n) - 1n; // the test's maxMantissa is masked to 52 bits by the format
for (const x of [1, 2.2250738585072014e-308, fromBits(0x7fefffffffffffffn), fromBits(1n), 2.98023223876953125e-8,
  -2.109808898695963e16, 4.940656e-318, 1.18575755e-316, 2.989102097996e-312, 9.0608011534336e15, 4.708356024711512e18,
  9.409340012568248e18, 1.2345678, fromBits(0x4830F0CF064DD592n), fromBits(0x4840F0CF064DD592n), fromBits(0x4850F0CF064DD592n),
  1.2, 1.23, 1.234, 1.2345, 1.23456, 1.234567, 1.23456789, 1.234567895, 1.2345678901, 1.23456789012, 1.234567890123,
  1.2345678901234, 1.23456789012345, 1.234567890123456, 1.2345678901234567, 4.294967294, 4.294967295, 4.294967296,
  4.294967297, 4.294967298, ieee(4, 0), ieee(6, maxMant), ieee(41, 0), ieee(40, maxMant), ieee(1077, 0), ieee(1076, maxMant),
  ieee(307, 0), ieee(306, maxMant), ieee(934, 0x000FA7161A4D6E0Cn), 9007199254740991, 9007199254740992]) add(x, "ryu");
for (let i = 0; i <= 15; i++) {
  add(Number("1.234567890123456".slice(0, i + 2) + "e" + i), "ryu");
  add(Number("1e" + i), "ryu");
  if (i < 15) add(1e15 + Number("1e" + i), "ryu");
  add(2 ** Math.floor(Math.log2(10 ** (i + 1))), "ryu");
  add(2 ** Math.floor(Math.log2(10 ** (i + 1))) * 1000, "ryu");
}

// probes: compile once, feed many lines.
const tmp = mkdtempSync(join(tmpdir(), "numprobe-"));
function probe(name, build, run) {
  try {
    if (build) execFileSync(build[0], build.slice(1), { cwd: here, stdio: ["ignore", "ignore", "inherit"] });
  } catch (e) {
    process.stderr.write(`probe ${name}: not built (${e.message.split("\n")[0]})\n`);
    return null;
  }
  return (hexes) => {
    const r = spawnSync(run[0], run.slice(1), { cwd: here, input: hexes.join("\n") + "\n", maxBuffer: 1 << 30 });
    if (r.status !== 0) { process.stderr.write(`probe ${name}: ${r.stderr}\n`); return null; }
    return r.stdout.toString().split("\n").slice(0, hexes.length);
  };
}
const probes = [
  ["rust", probe("rust", ["rustc", "-O", "-o", join(tmp, "probe-rs"), "probe.rs"], [join(tmp, "probe-rs")]), ["rust-display", "rust-debug"]],
  ["go", probe("go", ["go", "build", "-o", join(tmp, "probe-go"), "probe.go"], [join(tmp, "probe-go")]), ["go-strconv-g", "go-encoding-json"]],
  ["python", probe("python", null, ["python3", "probe.py"]), ["python-repr", "python-json-dumps"]],
  ["java", probe("java", ["javac", "-d", tmp, "Probe.java"], ["java", "-cp", tmp, "Probe"]), ["java-double-tostring"]],
  ["cpp", probe("cpp", ["g++", "-std=c++17", "-O2", "-o", join(tmp, "probe-cpp"), "probe.cpp"], [join(tmp, "probe-cpp")]), ["cpp-to-chars"]],
];
const columns = probes.flatMap(([, , cols]) => cols);

// digitsOf reads any formatter's text as (digits without leading and trailing zeros, the
// decimal exponent of the first digit), so texts are compared by digits, not layout.
function digitsOf(t) {
  const m = /^-?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t.trim());
  if (!m) return null;
  let int = m[1] || "", fr = m[2] || "", ex = Number(m[3] || 0);
  let all = int + fr, point = int.length + ex;
  const lead = all.length - all.replace(/^0+/, "").length;
  all = all.slice(lead); point -= lead;
  all = all.replace(/0+$/, "");
  return all === "" ? "0" : all + "@" + point;
}

// lang sample: doubles where a probe's digits differ from JavaScript's.
const sample = [];
for (let i = 0; i < 200000; i++) sample.push(randomDouble());
const sampleHex = sample.map(hex);
for (const [lang, run, cols] of probes) {
  if (!run) continue;
  const out = run(sampleHex);
  if (!out) continue;
  const kept = new Map(), seen = new Map();
  out.forEach((line, i) => {
    const texts = line.split("\t");
    texts.forEach((t, c) => {
      if (digitsOf(t) !== digitsOf(String(sample[i]))) {
        const col = cols[c];
        seen.set(col, (seen.get(col) || 0) + 1);
        if ((kept.get(col) || 0) < 200) { add(sample[i], "lang-" + col); kept.set(col, (kept.get(col) || 0) + 1); }
      }
    });
  });
  process.stderr.write(`probe ${lang}: ${cols.map((c) => `${c}: other digits on ${seen.get(c) || 0} (kept ${kept.get(c) || 0})`).join(", ")} of ${sample.length} sampled\n`);
}

// negative zero and zero last: analyze needs a non-zero.
add(-0, "boundary"); add(0, "boundary");

const outs = probes.map(([, run]) => (run ? run(order) : null));
rmSync(tmp, { recursive: true, force: true });
const head = ["bits", "javascript", "sources", "candidates", "tie", "lopsided", "half-up", "symmetric", ...columns];
const lines = [head.join("\t")];
let mismatch = 0;
order.forEach((h, i) => {
  const x = fromBits(BigInt("0x" + h));
  const js = String(x);
  let cand = "", tie = "", lop = "", up = "", sym = "";
  if (x !== 0) {
    const a = analyze(x);
    cand = a.count.toString(); tie = a.tie ? "tie" : ""; lop = a.lopsided ? "lopsided" : "";
    const u = analyze(x, { halfUp: true }), y = analyze(x, { symmetric: true });
    if (jsText(x < 0, u.n, u.p) !== js) up = jsText(x < 0, u.n, u.p);
    if (jsText(x < 0, y.n, y.p) !== js) sym = jsText(x < 0, y.n, y.p);
    if (jsText(x < 0, a.n, a.p) !== js) { mismatch++; process.stderr.write(`analysis disagrees with Node at ${h}: ${jsText(x < 0, a.n, a.p)} vs ${js}\n`); }
  }
  const row = [h, js, [...sources.get(h)].join(","), cand, tie, lop, up, sym];
  probes.forEach(([, , cols], p) => {
    const texts = outs[p] ? outs[p][i].split("\t") : [];
    cols.forEach((_, c) => row.push(texts[c] ?? ""));
  });
  lines.push(row.join("\t"));
});
process.stdout.write(lines.join("\n") + "\n");
process.stderr.write(`${order.length} doubles; analysis disagrees with Node on ${mismatch}\n`);
