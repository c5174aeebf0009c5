#!/usr/bin/env node
// sessionref-kit conformance adapter "node-upstream".
//
// Drives the REAL published @deepseek-ai/dsh-session-reference package (with its real,
// unshimmed dependencies) through the kit's line protocol, version 1:
//   stdin : one JSON request per line   {"id":N,"op":OP,"args":{...}}
//   stdout: one JSON response per line  {"id":N,"ok":true,"result":...}
//                                       {"id":N,"ok":false,"error":{"code":CODE|null,"message":S}}
//   stderr: logs only.
// Requests are handled strictly one at a time, in order. Exit 0 on stdin EOF.
//
// Usage: node adapter.js [--profile 0.0.1-rc.1|0.1.0-rc.8]
//   0.0.1-rc.1 (default): packages installed in this folder (npm ci here).
//   0.1.0-rc.8          : packages installed in profiles/0.1.0-rc.8/ (npm ci there).

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const HERE = dirname(fileURLToPath(import.meta.url));
const PROTOCOL = 1;
const ADAPTER_NAME = "node-upstream";
const FEATURES = ["lone-surrogates"];

// Nothing but protocol responses may reach stdout: route every console method to stderr.
for (const method of ["log", "info", "debug", "warn", "trace", "dir", "table"]) {
	console[method] = (...args) => console.error(...args);
}

const PROFILES = {
	"0.0.1-rc.1": { dir: HERE, exportName: "SessionReferenceService" },
	"0.1.0-rc.8": { dir: join(HERE, "profiles", "0.1.0-rc.8"), exportName: "SessionReferenceResolver" },
};

function parseArgs(argv) {
	let profile = "0.0.1-rc.1";
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === "--profile") {
			if (i + 1 >= argv.length) usage("--profile needs a value");
			profile = argv[++i];
		} else if (arg.startsWith("--profile=")) {
			profile = arg.slice("--profile=".length);
		} else if (arg === "-h" || arg === "--help") {
			process.stderr.write(`usage: node adapter.js [--profile ${Object.keys(PROFILES).join("|")}]\n`);
			process.exit(0);
		} else {
			usage(`unknown argument ${JSON.stringify(arg)}`);
		}
	}
	if (!Object.hasOwn(PROFILES, profile)) usage(`unknown profile ${JSON.stringify(profile)} (known: ${Object.keys(PROFILES).join(", ")})`);
	return { profile };
}

function usage(message) {
	process.stderr.write(`node-upstream adapter: ${message}\nusage: node adapter.js [--profile ${Object.keys(PROFILES).join("|")}]\n`);
	process.exit(2);
}

async function loadProfile(profile) {
	const { dir, exportName } = PROFILES[profile];
	// Resolve from the profile's own folder so the package and all of its imports
	// (cordis, dsh-llm, ...) come from that profile's node_modules.
	const require = createRequire(join(dir, "package.json"));
	let mainPath, pkgJsonPath, cordisPath;
	try {
		mainPath = require.resolve("@deepseek-ai/dsh-session-reference");
		pkgJsonPath = require.resolve("@deepseek-ai/dsh-session-reference/package.json");
		cordisPath = require.resolve("@deepseek-ai/cordis");
	} catch (error) {
		process.stderr.write(`node-upstream adapter: profile ${profile} is not installed in ${dir} (run \`npm ci\` there): ${error.message}\n`);
		process.exit(3);
	}
	const lib = await import(pathToFileURL(mainPath).href);
	const cordis = await import(pathToFileURL(cordisPath).href);
	const pkg = JSON.parse(readFileSync(pkgJsonPath, "utf8"));
	const ServiceClass = lib[exportName];
	if (typeof ServiceClass !== "function") throw new Error(`profile ${profile}: package does not export ${exportName}`);
	return { lib, Context: cordis.Context, ServiceClass, version: pkg.version, spec: profile };
}

/** Error carrying an explicit adapter-level code. */
class AdapterError extends Error {
	constructor(code, message) {
		super(message);
		this.code = code;
		this.name = "AdapterError";
	}
}

function isObject(value) {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function has(args, key) {
	return Object.hasOwn(args, key);
}

/** Absent key means "default" (undefined); a present key is passed as given. */
function opt(args, key) {
	return has(args, key) ? args[key] : undefined;
}

function requireArg(args, key) {
	if (!has(args, key)) throw new AdapterError("ADAPTER_PROTOCOL", `missing required argument ${JSON.stringify(key)}`);
	return args[key];
}

function buildAgent(agent) {
	if (!isObject(agent) || !has(agent, "id")) throw new AdapterError("ADAPTER_PROTOCOL", "agent must be an object with an id");
	const header = has(agent, "cwd") ? { id: agent.id, cwd: agent.cwd } : { id: agent.id };
	return { id: agent.id, session: { header } };
}

/**
 * Cancellation set-up. Returns { signal, controller, hang } where `hang` names the fake
 * method whose FIRST call never settles and aborts the controller right after it started.
 */
function buildCancel(args, firstQueryMethod) {
	if (!has(args, "cancel")) return { signal: undefined, controller: undefined, hang: null };
	const mode = args.cancel;
	const controller = new AbortController();
	if (mode === "before") {
		controller.abort();
		return { signal: controller.signal, controller, hang: null };
	}
	if (mode === "during-read") return { signal: controller.signal, controller, hang: firstQueryMethod };
	throw new AdapterError("ADAPTER_UNSUPPORTED", `unsupported cancel mode ${JSON.stringify(mode)}`);
}

/** The fake ctx.sessionQuery built from a WORLD document. Every method is truly async. */
function buildSessionQuery(world, cancel) {
	if (!isObject(world) || !Array.isArray(world.sessions)) throw new AdapterError("ADAPTER_PROTOCOL", "world must be an object with a sessions array");
	const sessions = world.sessions;
	const find = (id) => sessions.find((session) => session.header.id === id);
	const titleReads = [];
	const reads = [];
	let hang = cancel.hang;
	const hangHere = (method) => {
		if (hang !== method) return false;
		hang = null;
		setTimeout(() => cancel.controller.abort(), 0);
		return true;
	};
	const fake = {
		listSessions(signal) {
			if (hangHere("listSessions")) return new Promise(() => {});
			return (async () => {
				if (has(world, "listError")) throw new Error(world.listError);
				return sessions.map((session) => ({ header: session.header, live: false, persisted: true }));
			})();
		},
		readTitleSnapshots(ids, signal) {
			const list = Array.from(ids);
			titleReads.push(...list);
			return (async () => {
				const seen = new Set();
				const settlements = [];
				for (const id of list) {
					if (seen.has(id)) continue;
					seen.add(id);
					const session = find(id);
					if (session === undefined) settlements.push({ sessionId: id, status: "rejected", reason: new Error("session not found") });
					else if (has(session, "titleError")) settlements.push({ sessionId: id, status: "rejected", reason: new Error(session.titleError) });
					else settlements.push({
						sessionId: id,
						status: "fulfilled",
						value: { session: session.header, ...(session.title === undefined ? {} : { title: { title: session.title } }) },
					});
				}
				return settlements;
			})();
		},
		readSurface(id) {
			reads.push(id);
			if (hangHere("readSurface")) return new Promise(() => {});
			return (async () => {
				const session = find(id);
				if (session === undefined) throw new Error(`session ${JSON.stringify(id)} not found`);
				if (has(session, "readError")) throw new Error(session.readError);
				return {
					session: session.header,
					capturedThroughSeq: session.surface?.capturedThroughSeq ?? null,
					events: session.surface?.events ?? [],
				};
			})();
		},
	};
	return { fake, titleReads, reads };
}

function createService(impl, args, sessionQuery) {
	const ctx = new impl.Context();
	if (sessionQuery !== undefined) ctx.provide("sessionQuery", sessionQuery);
	return new impl.ServiceClass(ctx, opt(args, "config"));
}

function makeHandlers(impl) {
	const { lib } = impl;
	return {
		hello(args) {
			if (args.protocol !== PROTOCOL) throw new AdapterError("ADAPTER_PROTOCOL", `unsupported protocol ${JSON.stringify(args.protocol)}; this adapter speaks protocol ${PROTOCOL}`);
			return { protocol: PROTOCOL, name: ADAPTER_NAME, version: impl.version, spec: impl.spec, features: FEATURES };
		},
		"uri.encode"(args) {
			return lib.encodeSessionReferenceUri(opt(args, "sessionId"));
		},
		"uri.decode"(args) {
			return lib.decodeSessionReferenceUri(opt(args, "uri"));
		},
		"mention.format"(args) {
			const reference = { sessionId: opt(args, "sessionId") };
			if (has(args, "label")) reference.label = args.label;
			return lib.formatSessionReferenceMention(reference);
		},
		"mention.parse"(args) {
			return lib.parseSessionReferenceText(opt(args, "text"));
		},
		config(args) {
			const { fake } = buildSessionQuery({ sessions: [] }, { hang: null });
			const service = createService(impl, args, fake);
			const { maxReferences, candidateLimit, maxReferenceBytes } = service.config;
			return { maxReferences, candidateLimit, maxReferenceBytes };
		},
		async candidates(args) {
			const agent = buildAgent(requireArg(args, "agent"));
			const cancel = buildCancel(args, "listSessions");
			const { fake, titleReads } = buildSessionQuery(requireArg(args, "world"), cancel);
			const service = createService(impl, args, fake);
			const candidates = await service.listCandidates(agent, opt(args, "query"), opt(args, "limit"), cancel.signal);
			return { candidates, titleReads };
		},
		async prepare(args) {
			let reads = [];
			let prepared;
			try {
				const agent = buildAgent(requireArg(args, "agent"));
				const cancel = buildCancel(args, "readSurface");
				const query = buildSessionQuery(requireArg(args, "world"), cancel);
				reads = query.reads;
				const service = createService(impl, args, query.fake);
				prepared = await service.prepare(agent, opt(args, "content"), opt(args, "references"), cancel.signal);
			} catch (error) {
				throw Object.assign(wrapForReads(error), { reads: [...reads] });
			}
			let additionalContext = null;
			if (prepared.additionalContext !== undefined) {
				// Drop the random message id; keep the remaining keys in their order.
				const { id: _id, ...rest } = prepared.additionalContext;
				additionalContext = rest;
			}
			return { content: prepared.content, additionalContext, reads: [...reads] };
		},
	};
}

/** Carry `reads` beside the package's error without mutating frozen/foreign objects. */
function wrapForReads(error) {
	return { __adapterError: true, original: error };
}

function errorBody(error) {
	let extra = {};
	if (error !== null && typeof error === "object" && error.__adapterError === true) {
		extra = { reads: error.reads };
		error = error.original;
	}
	// Only the contract's own errors carry a code on the wire; a TypeError or a Node.js error
	// (ERR_INVALID_ARG_TYPE …) is a null code, as for every other implementation.
	const typed = error instanceof AdapterError || (error instanceof Error && error.name === "SessionReferenceError");
	const code = typed && typeof error.code === "string" ? error.code : null;
	let message;
	if (error !== null && typeof error === "object" && typeof error.message === "string") message = error.message;
	else {
		try { message = String(error); } catch { message = "unprintable error"; }
	}
	return { code, message, ...extra };
}

function writeLine(value) {
	let line;
	try {
		line = JSON.stringify(value);
	} catch (error) {
		line = JSON.stringify({ id: value.id ?? null, ok: false, error: { code: "ADAPTER_INTERNAL", message: `result is not JSON-serializable: ${error?.message ?? String(error)}` } });
	}
	return new Promise((resolve, reject) => {
		process.stdout.write(line + "\n", (error) => (error ? reject(error) : resolve()));
	});
}

async function handleLine(handlers, line) {
	let request;
	try {
		request = JSON.parse(line);
	} catch (error) {
		return { id: null, ok: false, error: { code: "ADAPTER_PROTOCOL", message: `request is not valid JSON: ${error.message}` } };
	}
	const id = isObject(request) && has(request, "id") ? request.id : null;
	if (!isObject(request) || typeof request.op !== "string") {
		return { id, ok: false, error: { code: "ADAPTER_PROTOCOL", message: "request must be an object with a string op" } };
	}
	const args = has(request, "args") ? request.args : {};
	if (!isObject(args)) return { id, ok: false, error: { code: "ADAPTER_PROTOCOL", message: "args must be an object" } };
	if (!Object.hasOwn(handlers, request.op)) {
		return { id, ok: false, error: { code: "ADAPTER_UNSUPPORTED", message: `unsupported op ${JSON.stringify(request.op)}` } };
	}
	try {
		const result = await handlers[request.op](args);
		return { id, ok: true, result };
	} catch (error) {
		return { id, ok: false, error: errorBody(error) };
	}
}

async function main() {
	const { profile } = parseArgs(process.argv.slice(2));
	const impl = await loadProfile(profile);
	process.stderr.write(`node-upstream adapter: profile ${profile}, @deepseek-ai/dsh-session-reference@${impl.version}, node ${process.version}, locale ${Intl.DateTimeFormat().resolvedOptions().locale}\n`);
	const handlers = makeHandlers(impl);
	process.on("unhandledRejection", (reason) => {
		process.stderr.write(`node-upstream adapter: unhandled rejection: ${reason?.stack ?? String(reason)}\n`);
	});
	const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
	for await (const raw of rl) {
		if (raw.trim() === "") continue;
		await writeLine(await handleLine(handlers, raw));
	}
	process.exit(0);
}

main().catch((error) => {
	process.stderr.write(`node-upstream adapter: fatal: ${error?.stack ?? String(error)}\n`);
	process.exit(1);
});
