// The contract's code in the published files: what Stryker mutates (prepare.mjs) and what
// branch coverage must reach (coverage.mjs). One definition, so both measure the same code.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
export const ADAPTER_DIR = resolve(HERE, "..");

/**
 * Per profile: the folder npm installed, the installed names of the collaborators, and the
 * runner flags of the profile's certification (.ci/run).
 */
export const PROFILES = {
	"0.0.1-rc.1": { dir: ADAPTER_DIR, retention: "dsh-retention", compact: "dsh-compact", runnerFlags: [] },
	"0.1.0-rc.8": {
		dir: join(ADAPTER_DIR, "profiles", "0.1.0-rc.8"),
		retention: "dsh-output-retention",
		compact: "dsh-compaction",
		runnerFlags: ["--profile", "0.1.0-rc.8", "--require-all"],
	},
};

/** The installed package folders of a profile whose lib/index.js holds contract code. */
export function packages(profile) {
	const p = PROFILES[profile];
	return ["dsh-session-reference", p.retention, p.compact, "dsh-llm"];
}

/** A collaborator goes by its package's current name (0.0.1-rc.1 installs two under old names). */
export const LOGICAL = { "dsh-retention": "dsh-output-retention", "dsh-compact": "dsh-compaction" };

/**
 * The contract's regions of a profile, by name: lists of [package, firstLine, lastLine]
 * (1-based, inclusive) in the package's lib/index.js. linesOf(package) gives that file's lines.
 */
export function regions(profile, linesOf = (name) => installedLines(profile, name)) {
	const p = PROFILES[profile];
	const cache = {};
	const lines = (name) => (cache[name] ??= linesOf(name));
	const lineOf = (name, prefix) => {
		const i = lines(name).findIndex((line) => line.startsWith(prefix));
		if (i < 0) throw new Error(`${name}: no line starts with ${JSON.stringify(prefix)}`);
		return i + 1;
	};
	// The line closing the top-level function, class or object literal starting at START.
	const endOf = (name, start) => lines(name).findIndex((line, index) => index >= start && /^(\}|\};|\}\);)$/.test(line)) + 1;
	const fn = (name, prefix) => {
		const start = lineOf(name, prefix);
		return [name, start, endOf(name, start)];
	};
	// Everything of session-reference's lib/index.js between its imports and its export list,
	// except rc.8's TypeScript decorator helpers (__runInitializers, __esDecorate: compiler
	// runtime, not the contract).
	const sr = "dsh-session-reference";
	const srEnd = lineOf(sr, "export {") - 1;
	const projection = lineOf(sr, "//#region lib/types/projection.js");
	const uri = lineOf(sr, "//#region lib/types/uri.js");
	const prompt = lineOf(sr, "const PROMPT_PREFIX");
	const helpers = lines(sr).findIndex((line) => line.startsWith("var __runInitializers"));
	const marker = lineOf(p.compact, "const COMPACT_CHECKPOINT_MARKER");
	return {
		"config-serialization": [[sr, lineOf(sr, "//#region lib/types/config.js"), projection - 1]],
		"projection-retention": [[sr, projection, uri - 1]],
		"uri-mention": [[sr, uri, (helpers < 0 ? prompt : helpers + 1) - 1]],
		service: [[sr, prompt, srEnd]],
		retainer: [
			fn(p.retention, "function assertBudget"),
			[p.retention, lineOf(p.retention, "const encoder"), endOf(p.retention, lineOf(p.retention, "function concat"))],
		],
		"compaction-marker": [[p.compact, marker, endOf(p.compact, marker)], fn(p.compact, "function isCompactCheckpointSource")],
		"create-user-message": [
			fn("dsh-llm", "function MessageId"),
			fn("dsh-llm", "function deepFreeze"),
			fn("dsh-llm", "function freezeMessage"),
			fn("dsh-llm", "function createMessage"),
			fn("dsh-llm", "function createUserMessage"),
		],
	};
}

/** The installed lib/index.js of a package of a profile, as lines. */
export function installedLines(profile, name) {
	return readFileSync(installedPath(profile, name), "utf8").split("\n");
}

/** The installed lib/index.js of a package of a profile. */
export function installedPath(profile, name) {
	return join(PROFILES[profile].dir, "node_modules", "@deepseek-ai", name, "lib", "index.js");
}
