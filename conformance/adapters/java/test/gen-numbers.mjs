// Writes numbers.txt: doubles (as their 16 hex digits of IEEE 754 bits) and the text
// Number.prototype.toString gives them in Node, for the kits' number-formatting tests (the
// Rust kit reads the same file). The doubles: every power of two, the notation's boundaries,
// integers around 2^53, short decimals, and bit patterns from a fixed linear congruential
// sequence. Run: node gen-numbers.mjs
import { writeFileSync } from "node:fs";

const buf = new DataView(new ArrayBuffer(8));
const lines = new Set();
const add = (x) => {
	buf.setFloat64(0, x);
	if (Number.isFinite(x)) lines.add(buf.getBigUint64(0).toString(16).padStart(16, "0") + "\t" + String(x));
};
for (let e = -1074; e <= 1023; e++) add(2 ** e);
for (let e = -1074; e <= 1023; e += 7) { add(2 ** e * 3); add(2 ** e * 1.5 - 2 ** (e - 52)); }
for (let e = -30; e <= 30; e++) for (const m of [1, 1.5, 9.999999999999999, 123456789, 5, 0.1]) { add(m * 10 ** e); add(-m * 10 ** e); }
for (const x of [0, 5e-324, 1e21, 1e-7, 1e-6, 999999999999999900000, 1e20, 0.1 + 0.2, 2 ** 53, 2 ** 53 + 2, 2 ** 53 - 1, Number.MAX_VALUE, Number.MIN_VALUE, 4.35, 0.000001, 1.7976931348623157e308, 123e-20, 9007199254740993, 295147905179352830000])
	add(x);
for (let i = -100; i <= 100; i++) add(i / 8);
let s = 0x2545f4914f6cdd1dn;
for (let i = 0; i < 4000; i++) {
	s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
	buf.setBigUint64(0, s);
	add(buf.getFloat64(0));
}
writeFileSync(new URL("numbers.txt", import.meta.url), [...lines].join("\n") + "\n");
console.log(`${lines.size} numbers`);
