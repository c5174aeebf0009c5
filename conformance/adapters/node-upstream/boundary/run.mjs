// The boundary mutation pass: makes the boundary mutants (mutate.mjs) of a profile's published
// lib/index.js, runs each against the kit's fixed checks (features and fixtures, as Stryker's
// command does: a prebuilt conformance-runner driving the node-upstream adapter on the mutated
// copy through SESSIONREF_UPSTREAM_MAIN), and records each one killed, survived or timeout.
//
// Usage: node run.mjs PROFILE RUNNER OUTDIR [--regions R[,R]] [--sample N] [--concurrency N]
//   --regions  the regions of ../stryker/regions.mjs to mutate (default: all four of the
//              package's own file for 0.0.1-rc.1; "service" for 0.1.0-rc.8, the only region
//              in which it differs)
//   --match RE only the mutants whose key (boundary-equivalent.json's) matches RE (a rerun)
//   --sample N every mutant whose index is a multiple of ceil(count / N): N of them, the same
//              ones every time (CI)
//
// Writes OUTDIR/PROFILE-summary.json. Exit 1 when a mutant survives that
// ../boundary-equivalent.json does not list, when a listed one is killed, or when the
// unmutated copy does not pass (the pass would mean nothing).
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ADAPTER_DIR, PROFILES, installedPath, regions as allRegions } from "../stryker/regions.mjs";
import { apply, keyOf, mutants } from "./mutate.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const [profile, runnerArg, outArg, ...rest] = process.argv.slice(2);
if (!Object.hasOwn(PROFILES, profile) || !runnerArg || !outArg) {
	console.error("usage: node run.mjs PROFILE RUNNER OUTDIR [--regions R[,R]] [--sample N] [--concurrency N]");
	process.exit(2);
}
let regionNames = profile === "0.0.1-rc.1" ? ["config-serialization", "projection-retention", "uri-mention", "service"] : ["service"];
let sample = 0;
let match = null;
let concurrency = 2;
for (let i = 0; i < rest.length; i++) {
	if (rest[i] === "--regions") regionNames = rest[++i].split(",");
	else if (rest[i] === "--sample") sample = Number(rest[++i]);
	else if (rest[i] === "--match") match = new RegExp(rest[++i]);
	else if (rest[i] === "--concurrency") concurrency = Number(rest[++i]);
	else { console.error(`run.mjs: unknown argument ${rest[i]}`); process.exit(2); }
}
const out = resolve(outArg);
const runner = resolve(runnerArg);
const pkg = "dsh-session-reference";
const src = readFileSync(installedPath(profile, pkg), "utf8");
const regions = allRegions(profile);
let all = [];
for (const name of regionNames) {
	if (!Object.hasOwn(regions, name)) { console.error(`run.mjs: unknown region ${name}`); process.exit(2); }
	for (const [file, first, last] of regions[name]) if (file === pkg) all.push(...mutants(src, first, last));
}
all = all.map((x, id) => ({ ...x, id }));
let chosen = match ? all.filter((x) => match.test(keyOf(x))) : all;
if (sample > 0 && sample < all.length) {
	const step = Math.ceil(all.length / sample);
	chosen = chosen.filter((x) => x.id % step === 0);
}

// A project folder whose node_modules is the profile's, so a mutated copy's imports resolve
// as the published file's do; one subfolder per worker.
const project = join(out, profile);
rmSync(project, { recursive: true, force: true });
mkdirSync(project, { recursive: true });
symlinkSync(join(PROFILES[profile].dir, "node_modules"), join(project, "node_modules"), "dir");
writeFileSync(join(project, "package.json"), JSON.stringify({ private: true, type: "module" }) + "\n");

const adapter = ["node", join(ADAPTER_DIR, "adapter.js"), "--profile", profile];
function certify(code, slot) {
	const dir = join(project, `w${slot}`);
	mkdirSync(dir, { recursive: true });
	const main = join(dir, "index.js");
	writeFileSync(main, code);
	const args = ["--progress", "never", "--part", "features,fixtures", "--timeout", "5s", "--max-timeouts", "1", "--max-fail", "1", "--deadline", "3m",
		...PROFILES[profile].runnerFlags, "--", ...adapter];
	return new Promise((resolvePromise) => {
		const child = spawn(runner, args, { env: { ...process.env, SESSIONREF_UPSTREAM_MAIN: main }, stdio: ["ignore", "pipe", "pipe"] });
		let output = "";
		child.stdout.on("data", (d) => { output += d; });
		child.stderr.on("data", (d) => { output += d; });
		child.on("close", (status) => {
			const last = output.trimEnd().split("\n").pop() ?? "";
			const first = /^(?:FAIL|ERROR)\s+(\S+)/m.exec(output)?.[1] ?? "";
			resolvePromise({ status, last, first });
		});
	});
}

const equivalents = JSON.parse(readFileSync(join(ADAPTER_DIR, "boundary-equivalent.json"), "utf8")).mutants;
const listed = new Map(equivalents.filter((e) => e.profiles.includes(profile)).map((e) => [e.key, e]));

const start = Date.now();
const base = await certify(src, 0);
if (base.status !== 0) {
	console.error(`boundary ${profile}: the unmutated package does not pass (exit ${base.status}): ${base.last}`);
	process.exit(1);
}
const results = new Array(chosen.length);
let next = 0;
let done = 0;
await Promise.all(Array.from({ length: concurrency }, async (_, slot) => {
	while (next < chosen.length) {
		const i = next++;
		const x = chosen[i];
		const r = await certify(apply(src, x), slot);
		// 1: a fixed check failed; 3: the adapter broke or hung (a check errored); 0: survived.
		const verdict = r.status === 1 ? "killed" : r.status === 3 ? "timeout" : r.status === 0 ? "survived" : `error-${r.status}`;
		results[i] = { x, verdict, detail: r.status === 0 ? "" : r.last };
		done++;
		if (process.stderr.isTTY || done % 20 === 0) process.stderr.write(`boundary ${profile}: ${done}/${chosen.length}\n`);
	}
}));

let status = 0;
const list = [];
const counts = { killed: 0, timeout: 0, equivalent: 0, survived: 0, error: 0 };
const operators = {};
for (const { x, verdict } of results) {
	const key = keyOf(x);
	const op = (operators[x.operator] ??= { mutants: 0, killed: 0, timeout: 0, equivalent: 0, survived: 0 });
	op.mutants++;
	let v = verdict;
	if (verdict === "survived" && listed.has(key)) v = "equivalent";
	else if (verdict === "survived") { console.error(`SURVIVED (not listed in boundary-equivalent.json): ${key}`); status = 1; }
	else if (listed.has(key)) { console.error(`LISTED EQUIVALENT but ${verdict}: ${key}`); status = 1; }
	if (v.startsWith("error")) { console.error(`ERROR ${key}`); status = 1; counts.error++; }
	else { counts[v]++; op[v]++; }
	list.push(`${v} ${key}`);
}
const summary = {
	profile,
	sampled: chosen.length < all.length || match !== null,
	regions: regionNames.join(","),
	generated: all.length,
	mutants: chosen.length,
	...counts,
	operators,
	seconds: Math.round((Date.now() - start) / 1000),
	list,
};
mkdirSync(out, { recursive: true });
writeFileSync(join(out, `${profile}-summary.json`), JSON.stringify(summary, null, 1) + "\n");
console.log(`boundary ${profile}: ${chosen.length} of ${all.length} mutants: ${counts.killed} killed, ${counts.timeout} timeout, ${counts.equivalent} equivalent, ${counts.survived} survived${counts.error ? `, ${counts.error} errors` : ""} (${summary.seconds}s)`);
process.exit(status);
