// Writes casedata.txt: JavaScript's String.prototype.toLowerCase as Node 20's ICU has it
// (Unicode 15), for src/lower.rs: line 1 each code point's full lowercase mapping where it
// differs ("cp:lower,lower"), line 2 the Cased ranges, line 3 the Case_Ignorable ranges, all
// hexadecimal. Run: node gen-casedata.mjs
import { writeFileSync } from "node:fs";

const map = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp === 0x3a3) continue; // the sigma: decided by context
	const s = String.fromCodePoint(cp);
	const l = s.toLowerCase();
	if (l !== s) map.push(cp.toString(16) + ":" + [...l].map((c) => c.codePointAt(0).toString(16)).join(","));
}
function ranges(re) {
	const out = [];
	let start = -1;
	for (let cp = 0; cp <= 0x110000; cp++) {
		const ok = cp <= 0x10ffff && re.test(String.fromCodePoint(cp));
		if (ok && start < 0) start = cp;
		if (!ok && start >= 0) {
			out.push(start.toString(16) + "-" + (cp - 1).toString(16));
			start = -1;
		}
	}
	return out;
}
writeFileSync(new URL("casedata.txt", import.meta.url),
	[map.join(" "), ranges(/^\p{Cased}$/u).join(" "), ranges(/^\p{Case_Ignorable}$/u).join(" ")].join("\n") + "\n");
