// Builds the Stryker project of one profile: copies of the published package's lib/index.js
// and of the collaborator files the contract runs through (the retainer, the compaction
// marker check, createUserMessage), a stryker.config.json that mutates the contract's
// functions in them, and a node_modules link to the profile's installed packages.
//
// Usage: node prepare.mjs PROFILE OUTDIR RUNNER [--only NAME[,NAME] | --ranges FILE]
//   RUNNER: the prebuilt conformance-runner binary Stryker's command runs.
//   --only: mutate only the named regions (regions.mjs), for a sampled pass.
//   --ranges: mutate only these Stryker mutate patterns (a JSON list), e.g. the
//             undetected-ranges.json check.mjs writes beside a report: a rerun of survivors.
//
// The copies keep every line where it is (only import specifiers change), so a mutant's
// line:column is the published file's, and a key in ../stryker-equivalent.json stays valid.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ADAPTER_DIR, PROFILES, packages, regions as contractRegions } from "./regions.mjs";

const [profile, outArg, runnerArg, ...rest] = process.argv.slice(2);
if (!Object.hasOwn(PROFILES, profile) || !outArg || !runnerArg) {
	console.error("usage: node prepare.mjs PROFILE OUTDIR RUNNER [--only NAME[,NAME]]");
	process.exit(2);
}
let only = null;
let ranges = null; // mutate patterns as given (a rerun of an earlier run's survivors)
for (let i = 0; i < rest.length; i++) {
	if (rest[i] === "--only") only = new Set(rest[++i].split(","));
	else if (rest[i] === "--ranges") ranges = JSON.parse(readFileSync(rest[++i], "utf8"));
	else { console.error(`prepare.mjs: unknown argument ${rest[i]}`); process.exit(2); }
}
const p = PROFILES[profile];
const out = resolve(outArg);
const modules = join(p.dir, "node_modules", "@deepseek-ai");
if (!existsSync(join(modules, "dsh-session-reference"))) {
	console.error(`prepare.mjs: profile ${profile} is not installed (npm ci in ${p.dir})`);
	process.exit(3);
}

// The project folder is rebuilt from scratch: nothing of an earlier run leaks in.
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
symlinkSync(join(p.dir, "node_modules"), join(out, "node_modules"), "dir");
writeFileSync(join(out, "package.json"), JSON.stringify({ name: "stryker-project", private: true, type: "module" }, null, 2) + "\n");

// pkg/NAME/{package.json,lib/index.js}, NAME as installed.
const lines = {};
for (const name of packages(profile)) {
	const src = join(modules, name);
	mkdirSync(join(out, "pkg", name, "lib"), { recursive: true });
	cpSync(join(src, "package.json"), join(out, "pkg", name, "package.json"));
	let text = readFileSync(join(src, "lib", "index.js"), "utf8");
	if (name === "dsh-session-reference") {
		// Point the package at the copied collaborators, so their mutants are the ones it runs.
		for (const dep of [p.retention, p.compact, "dsh-llm"]) {
			text = text.replace(`from "@deepseek-ai/${dep}";`, `from "../../${dep}/lib/index.js";`);
		}
	}
	writeFileSync(join(out, "pkg", name, "lib", "index.js"), text);
	lines[name] = text.split("\n");
}

const regions = contractRegions(profile, (name) => lines[name]);
if (only) {
	for (const name of only) if (!Object.hasOwn(regions, name)) {
		console.error(`prepare.mjs: unknown region ${name} (known: ${Object.keys(regions).join(", ")})`);
		process.exit(2);
	}
}
const mutate = ranges ?? Object.entries(regions)
	.filter(([name]) => only === null || only.has(name))
	.flatMap(([, ranges]) => ranges.map(([name, from, to]) => `pkg/${name}/lib/index.js:${from}-${to}`));

// The test command: the certification's seed-independent parts (features and fixtures) of
// the published package, driven by the node-upstream adapter on the copied, instrumented
// lib (SESSIONREF_UPSTREAM_MAIN). Properties are left out: a mutant must be killed by a
// check whose verdict no seed decides.
const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
const adapter = ["node", join(ADAPTER_DIR, "adapter.js"), "--profile", profile].map(quote).join(" ");
const command = [
	`SESSIONREF_UPSTREAM_MAIN="$PWD/pkg/dsh-session-reference/lib/index.js"`,
	quote(resolve(runnerArg)),
	"--progress never --part features,fixtures --timeout 5s",
	...p.runnerFlags,
	"--adapter", quote(adapter),
].join(" ");

const config = {
	testRunner: "command",
	commandRunner: { command },
	mutate,
	ignorePatterns: ["reports", "stryker.log"],
	reporters: ["html", "json", "clear-text", "progress-append-only"],
	htmlReporter: { fileName: "reports/mutation.html" },
	jsonReporter: { fileName: "reports/mutation.json" },
	clearTextReporter: { allowColor: false, logTests: false, reportMutants: false },
	coverageAnalysis: "off",
	// Off: a static mutant (module-level code) needs a fresh process, and the command runner
	// starts one per mutant anyway.
	ignoreStatic: false,
	timeoutMS: 10000,
	timeoutFactor: 2,
	tempDirName: ".stryker-tmp",
	cleanTempDir: true,
	thresholds: { high: 100, low: 100, break: null },
};
writeFileSync(join(out, "stryker.config.json"), JSON.stringify(config, null, 2) + "\n");
console.log(`prepared ${out}: ${mutate.length} ranges`);
