// Reads Stryker's JSON report of one profile, sets every survivor against the committed list
// of equivalent mutants (../stryker-equivalent.json), prints the score and writes a summary.
//
// Usage: node check.mjs PROFILE REPORT SUMMARY [--sampled] [--regions LIST] [--template FILE] [--keys FILE]
//   --keys FILE: write the stable key of every mutant generated (to tell killed from not generated)
//   REPORT : the run's reports/mutation.json
//   SUMMARY: where to write the profile's summary (../stryker-summary/PROFILE.json)
//   --sampled: only some regions were mutated; listed mutants not generated are no error.
//
// Exit 1 when a survivor is not listed as equivalent, when a listed mutant was killed, or
// (unsampled) when a listed mutant was not generated: the list must stay exact.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const [profile, reportPath, summaryPath, ...flags] = process.argv.slice(2);
const sampled = flags.includes("--sampled");
// --template FILE: write every undetected mutant as a stryker-equivalent.json entry with an
// empty reason, for a maintainer to judge (kill it with a check, or give the reason).
const templateAt = flags.indexOf("--template");
const templatePath = templateAt < 0 ? null : flags[templateAt + 1];
const regionsAt = flags.indexOf("--regions");
const regionsRun = regionsAt < 0 ? "all" : flags[regionsAt + 1];
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const equivalents = JSON.parse(readFileSync(join(HERE, "..", "stryker-equivalent.json"), "utf8"));

// A collaborator's file goes by its package's current name, whatever a profile installs it
// as (0.0.1-rc.1 installs dsh-output-retention and dsh-compaction under their old names):
// the files are byte-identical in both profiles, so one entry serves both.
import { LOGICAL } from "./regions.mjs";

/** Stable description of a mutant: what changes, where, independent of line shifts. */
function describe(file, source, mutant) {
	const lines = source.split("\n");
	const { start, end } = mutant.location;
	// Report locations: lines and columns both 1-based.
	const offset = (pos) => lines.slice(0, pos.line - 1).reduce((n, line) => n + line.length + 1, 0) + pos.column - 1;
	const original = source.slice(offset(start), offset(end));
	const pkg = file.split("/")[1];
	return {
		file: `${LOGICAL[pkg] ?? pkg}/lib/index.js`,
		mutator: mutant.mutatorName,
		original,
		replacement: mutant.replacement ?? "",
		line: lines[start.line - 1].trim(),
		location: `${start.line}:${start.column}`,
	};
}
const keyOf = (d) => JSON.stringify([d.file, d.mutator, d.original, d.replacement, d.line, d.occurrence]);

const mutants = [];
const rerun = []; // mutate patterns of the undetected mutants, for prepare.mjs --ranges
for (const [file, { source, mutants: ms }] of Object.entries(report.files)) {
	for (const m of ms) {
		mutants.push({ ...describe(file, source, m), status: m.status });
		// Report columns are 1-based, Stryker's mutate ranges 0-based.
		const { start, end } = m.location;
		if (m.status === "Survived" || m.status === "NoCoverage") rerun.push(`${file}:${start.line}:${start.column - 1}-${end.line}:${end.column}`);
	}
}
mutants.sort((a, b) => a.file.localeCompare(b.file) || (parseInt(a.location) - parseInt(b.location)) || a.location.localeCompare(b.location, "en", { numeric: true }));
// Identical changes on identical lines (e.g. one operator twice on a line) are told apart by
// their order in the file.
const seen = new Map();
for (const m of mutants) {
	const base = JSON.stringify([m.file, m.mutator, m.original, m.replacement, m.line]);
	m.occurrence = seen.get(base) ?? 0;
	seen.set(base, m.occurrence + 1);
}

const problems = [];
for (const e of equivalents.mutants) {
	if (typeof e.reason !== "string" || e.reason.trim() === "") problems.push(`stryker-equivalent.json: no reason given for ${e.file} ${e.mutator} ${JSON.stringify(e.original)} -> ${JSON.stringify(e.replacement)}`);
}
const applies = (e) => e.profiles === undefined || e.profiles.includes(profile);
const listed = new Map(equivalents.mutants.filter(applies).map((e) => [keyOf({ occurrence: 0, ...e }), e]));
const DETECTED = new Set(["Killed", "Timeout"]);
const counts = {};
const found = new Set();
for (const m of mutants) {
	counts[m.status] = (counts[m.status] ?? 0) + 1;
	const key = keyOf(m);
	const entry = listed.get(key);
	if (entry) found.add(key);
	if (DETECTED.has(m.status)) {
		if (entry) problems.push(`listed as equivalent but ${m.status.toLowerCase()}: ${m.file}:${m.location} ${m.mutator} ${JSON.stringify(m.original)} -> ${JSON.stringify(m.replacement)} (remove it from stryker-equivalent.json)`);
		m.verdict = "killed";
	} else if (m.status === "Survived" || m.status === "NoCoverage") {
		if (entry) m.verdict = "equivalent";
		else {
			problems.push(`survived, not listed: ${m.file}:${m.location} ${m.mutator} ${JSON.stringify(m.original)} -> ${JSON.stringify(m.replacement)} on line ${JSON.stringify(m.line)}`);
			m.verdict = "survived";
		}
	} else {
		problems.push(`${m.status}: ${m.file}:${m.location} ${m.mutator} ${JSON.stringify(m.original)} -> ${JSON.stringify(m.replacement)}`);
		m.verdict = m.status;
	}
}
if (!sampled) {
	for (const [key, e] of listed) {
		if (!found.has(key)) problems.push(`listed but not generated (stale entry): ${e.file} ${e.mutator} ${JSON.stringify(e.original)} -> ${JSON.stringify(e.replacement)} on line ${JSON.stringify(e.line)}`);
	}
}

const keysAt = flags.indexOf("--keys");
if (keysAt >= 0) writeFileSync(flags[keysAt + 1], JSON.stringify(mutants.map((m) => [m.file, m.mutator, m.original, m.replacement, m.line, m.occurrence])) + "\n");
if (templatePath) {
	const entries = mutants.filter((m) => m.verdict === "survived").map(({ file, mutator, original, replacement, line, occurrence, location }) => ({
		file, mutator, original, replacement, line, ...(occurrence ? { occurrence } : {}), location, reason: "",
	}));
	writeFileSync(templatePath, JSON.stringify(entries, null, 1) + "\n");
}
const killed = mutants.filter((m) => m.verdict === "killed").length;
const equivalent = mutants.filter((m) => m.verdict === "equivalent").length;
const score = mutants.length === equivalent ? 100 : (100 * killed) / (mutants.length - equivalent);
const summary = {
	profile,
	sampled,
	regions: regionsRun,
	stryker: report.framework?.version ?? null,
	mutants: mutants.length,
	statuses: counts,
	killed,
	equivalent,
	undetected: mutants.length - killed - equivalent,
	score: Math.round(score * 100) / 100,
	list: mutants.map(({ file, location, mutator, original, replacement, verdict }) => `${verdict} ${file}:${location} ${mutator} ${JSON.stringify(original)} -> ${JSON.stringify(replacement)}`),
};
writeFileSync(join(dirname(reportPath), "undetected-ranges.json"), JSON.stringify(rerun, null, 1) + "\n");
const tmp = `${summaryPath}.tmp`;
writeFileSync(tmp, JSON.stringify(summary, null, 1) + "\n");
renameSync(tmp, summaryPath);
console.log(`stryker ${profile}${sampled ? " (sampled)" : ""}: ${mutants.length} mutants, ${killed} killed (${counts.Timeout ?? 0} by timeout), ${equivalent} listed equivalent, ${summary.undetected} undetected: score ${summary.score}% of non-equivalent mutants`);
for (const p of problems) console.log(`  ${p}`);
process.exit(problems.length === 0 ? 0 : 1);
