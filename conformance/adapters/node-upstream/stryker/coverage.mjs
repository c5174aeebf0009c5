// Branch coverage of the published package under certification: reads the V8 coverage
// (NODE_V8_COVERAGE) the adapter processes wrote while the certification ran, and reports
// every block of the contract's code (regions.mjs) that no check reached. Each must be listed
// in ../coverage-unreached.json with the reason the public API cannot reach it.
//
// Usage: node coverage.mjs PROFILE COVERAGE_DIR
//
// V8's block coverage counts functions, both arms of if/else and ?:, the right operand of
// && || ??, loop bodies, catch clauses and the code after a return or throw. Merged over every
// adapter process (the runner restarts one after a timeout); a span of the contract's code is
// unreached when no process ran it. Exit 1 when an unreached span is not listed, or a listed
// one was reached (the list must stay exact).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { LOGICAL, installedPath, packages, regions } from "./regions.mjs";

const [profile, dir] = process.argv.slice(2);
if (!profile || !dir) {
	console.error("usage: node coverage.mjs PROFILE COVERAGE_DIR");
	process.exit(2);
}
const allowed = JSON.parse(readFileSync(new URL("../coverage-unreached.json", import.meta.url), "utf8"));

const files = {};
for (const name of packages(profile)) {
	const path = installedPath(profile, name);
	const source = readFileSync(path, "utf8");
	files[pathToFileURL(path).href] = { name, source, hits: new Uint32Array(source.length), seen: false };
}

// Per process, V8's ranges nest (a function, then its blocks); a later range overrides the
// count of the one that encloses it. Apply them in order, then add over processes.
let processes = 0;
for (const entry of readdirSync(dir)) {
	if (!entry.endsWith(".json")) continue;
	const { result } = JSON.parse(readFileSync(join(dir, entry), "utf8"));
	processes++;
	for (const script of result) {
		const file = files[script.url];
		if (!file) continue;
		file.seen = true;
		const counts = new Uint32Array(file.source.length);
		const ranges = script.functions.flatMap((f) => f.ranges);
		// Outer ranges first: a function's first range encloses its blocks.
		ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
		for (const r of ranges) counts.fill(Math.min(r.count, 0xffffffff), r.startOffset, Math.min(r.endOffset, counts.length));
		for (let i = 0; i < counts.length; i++) file.hits[i] += counts[i];
	}
}
if (processes === 0) {
	console.error(`coverage.mjs: no V8 coverage in ${dir}: did the adapter run with NODE_V8_COVERAGE?`);
	process.exit(1);
}

/** Text of a span without comments; empty when the span is only punctuation a block ends with. */
function substance(text) {
	const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
	return /^[\s;,})\]]*$/.test(code) ? "" : code.trim().replace(/\s+/g, " ");
}

const unreached = [];
const regionsOf = regions(profile);
let measured = 0;
for (const file of Object.values(files)) {
	if (!file.seen) {
		console.error(`coverage.mjs: ${file.name} was never loaded by the adapter`);
		process.exit(1);
	}
	const lineStarts = [0];
	for (let i = 0; i < file.source.length; i++) if (file.source[i] === "\n") lineStarts.push(i + 1);
	for (const ranges of Object.values(regionsOf)) {
		for (const [name, from, to] of ranges) {
			if (name !== file.name) continue;
			const start = lineStarts[from - 1];
			const end = to < lineStarts.length ? lineStarts[to] : file.source.length;
			measured += end - start;
			for (let i = start; i < end; ) {
				if (file.hits[i] !== 0) { i++; continue; }
				let j = i;
				while (j < end && file.hits[j] === 0) j++;
				const text = substance(file.source.slice(i, j));
				if (text !== "") {
					const line = lineStarts.findLastIndex((s) => s <= i) + 1;
					unreached.push({ file: `${LOGICAL[name] ?? name}/lib/index.js`, line, text: text.length > 160 ? `${text.slice(0, 157)}...` : text });
				}
				i = j;
			}
		}
	}
}

const listed = allowed.unreached.filter((e) => e.profiles === undefined || e.profiles.includes(profile));
const problems = [];
const used = new Set();
for (const u of unreached) {
	const i = listed.findIndex((e) => e.file === u.file && e.text === u.text);
	if (i < 0) problems.push(`unreached, not listed: ${u.file}:${u.line} ${JSON.stringify(u.text)}`);
	else used.add(i);
}
listed.forEach((e, i) => {
	if (!used.has(i)) problems.push(`listed as unreached but reached (remove it from coverage-unreached.json): ${e.file} ${JSON.stringify(e.text)}`);
});
console.log(`coverage ${profile}: ${processes} adapter process(es); ${unreached.length} unreached span(s) of the contract's code, ${unreached.length - problems.filter((p) => p.startsWith("unreached")).length} listed with a reason`);
for (const p of problems) console.log(`  ${p}`);
process.exit(problems.length === 0 ? 0 : 1);
