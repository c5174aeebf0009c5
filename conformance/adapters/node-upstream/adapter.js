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
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const HERE = dirname(fileURLToPath(import.meta.url));
const PROTOCOL = 1;
const ADAPTER_NAME = "node-upstream";
// world-cache: world.define and {"$ref": key} worlds; pipelining: requests are read as a
// stream (readline buffers what arrives before the previous answer was written).
const FEATURES = ["lone-surrogates", "world-cache", "pipelining"];

// Nothing but protocol responses may reach stdout: route every console method to stderr.
for (const method of ["log", "info", "debug", "warn", "trace", "dir", "table"]) {
	console[method] = (...args) => console.error(...args);
}

const PROFILES = {
	"0.0.1-rc.1": { dir: HERE, exportName: "SessionReferenceService" },
	// host: the release wires itself into the agent loop (an agent/pre-step listener), which
	// host.send drives for real; 0.0.1-rc.1 has no host wiring (its README's host is elsewhere).
	"0.1.0-rc.8": { dir: join(HERE, "profiles", "0.1.0-rc.8"), exportName: "SessionReferenceResolver", host: true },
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
	const { dir, exportName, host } = PROFILES[profile];
	// Resolve from the profile's own folder so the package and all of its imports
	// (cordis, dsh-llm, ...) come from that profile's node_modules.
	const require = createRequire(join(dir, "package.json"));
	let mainPath, pkgJsonPath, cordisPath, llmPath;
	try {
		mainPath = require.resolve("@deepseek-ai/dsh-session-reference");
		// A copy of the package's lib/index.js to load instead (stryker/prepare.mjs: the
		// mutated copy Stryker instruments); its imports resolve from where it lies.
		if (process.env.SESSIONREF_UPSTREAM_MAIN) mainPath = process.env.SESSIONREF_UPSTREAM_MAIN;
		pkgJsonPath = require.resolve("@deepseek-ai/dsh-session-reference/package.json");
		cordisPath = require.resolve("@deepseek-ai/cordis");
		if (host) llmPath = require.resolve("@deepseek-ai/dsh-llm");
		// Node's resolution climbs to the parent folders' node_modules: a profile that was
		// never installed would load the default profile's packages (another release) and
		// fail later with a puzzling message. Only the profile's own node_modules counts.
		// (realpath: resolve gives real paths, and node_modules may be a symlink)
		let own = join(dir, "node_modules");
		try { own = realpathSync(own); } catch { /* absent: nothing resolves under it */ }
		for (const path of [pkgJsonPath, cordisPath, llmPath]) {
			if (path !== undefined && !path.startsWith(own + sep)) {
				throw new Error(`found only ${relative(dir, path)}, outside this profile's node_modules`);
			}
		}
	} catch (error) {
		// One line that names the fix: each profile has its own node_modules, installed by
		// its own `npm ci`; the module that failed to resolve says which package is missing.
		const where = relative(process.cwd(), dir) || ".";
		const missing = String(error?.message ?? error).split("\n")[0];
		process.stderr.write(`node-upstream adapter: the packages of profile ${profile} are not installed; run: (cd ${JSON.stringify(where)} && npm ci) [${missing}]\n`);
		process.exit(3);
	}
	const lib = await import(pathToFileURL(mainPath).href);
	const cordis = await import(pathToFileURL(cordisPath).href);
	const pkg = JSON.parse(readFileSync(pkgJsonPath, "utf8"));
	const ServiceClass = lib[exportName];
	if (typeof ServiceClass !== "function") throw new Error(`profile ${profile}: package does not export ${exportName}`);
	const llm = host ? await import(pathToFileURL(llmPath).href) : undefined;
	return { lib, llm, Context: cordis.Context, ServiceClass, version: pkg.version, spec: profile };
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
 * Cancellation set-up (spec/protocol.md, cancel). Returns { signal, controller, hang,
 * immediate, others }: `hang` names the fake method whose FIRST call (the held call) never
 * settles. "at-call" (immediate) aborts inside the held call, and every other call waits for
 * that abort before it settles. "during-read" aborts once the held call has been made and
 * the `others` other reads (one per other normalized source) have all succeeded, and never
 * after one of them failed: decided by the calls' outcomes, not by a timer.
 */
function buildCancel(args, firstQueryMethod, others = 0) {
	if (!has(args, "cancel")) return { signal: undefined, controller: undefined, hang: null };
	const mode = args.cancel;
	const controller = new AbortController();
	if (mode === "before") {
		controller.abort();
		return { signal: controller.signal, controller, hang: null };
	}
	if (mode === "during-read") return { signal: controller.signal, controller, hang: firstQueryMethod, others };
	if (mode === "at-call") return { signal: controller.signal, controller, hang: firstQueryMethod, immediate: true };
	// never: a live signal nothing aborts, so the work completes under it.
	if (mode === "never") return { signal: controller.signal, controller, hang: null };
	throw new AdapterError("ADAPTER_UNSUPPORTED", `unsupported cancel mode ${JSON.stringify(mode)}`);
}

/**
 * The number of normalized sources a valid `references` argument has: its distinct string
 * sessionIds. (When the references are not valid the package reads nothing, so the count
 * does not matter.)
 */
function normalizedSources(references) {
	if (!Array.isArray(references)) return 0;
	const ids = new Set();
	for (const reference of references) {
		if (isObject(reference) && typeof reference.sessionId === "string") ids.add(reference.sessionId);
	}
	return ids.size;
}

/** The fake ctx.sessionQuery built from a WORLD document. Every method is truly async. */
function buildSessionQuery(world, cancel) {
	if (!isObject(world) || !Array.isArray(world.sessions)) throw new AdapterError("ADAPTER_PROTOCOL", "world must be an object with a sessions array");
	const sessions = world.sessions;
	const find = (id) => sessions.find((session) => session.header.id === id);
	const titleReads = [];
	const reads = [];
	const lists = { count: 0 };
	let hang = cancel.hang;
	// during-read: the held call is made, the other reads that succeeded, one that failed.
	const during = { made: false, succeeded: 0, failed: false };
	const abortIfAllSucceeded = () => {
		if (during.made && !during.failed && during.succeeded >= cancel.others && !cancel.controller.signal.aborted) cancel.controller.abort();
	};
	// at-call: settles once the held call has aborted; every other call awaits it.
	let opened;
	const latch = cancel.immediate ? new Promise((resolve) => { opened = resolve; }) : null;
	const hangHere = (method) => {
		if (hang !== method) return false;
		hang = null;
		if (cancel.immediate) {
			cancel.controller.abort();
			opened();
		} else {
			during.made = true;
			// Once the held call has returned its (pending) promise.
			queueMicrotask(abortIfAllSucceeded);
		}
		return true;
	};
	// other wraps a call that is not held: under at-call it settles after the abort; under
	// during-read its outcome is counted.
	const other = (work) => {
		let promise = latch === null ? work() : latch.then(work);
		if (cancel.hang !== undefined && cancel.hang !== null && !cancel.immediate) {
			promise.then(() => { during.succeeded++; abortIfAllSucceeded(); }, () => { during.failed = true; });
		}
		return promise;
	};
	const fake = {
		listSessions(signal) {
			lists.count++;
			if (hangHere("listSessions")) return new Promise(() => {});
			return other(async () => {
				if (world.listError != null) throw new Error(world.listError); // null is absent (spec/protocol.md)
				return sessions.map((session) => ({ header: session.header, live: false, persisted: true }));
			});
		},
		readTitleSnapshots(ids, signal) {
			const list = Array.from(ids);
			titleReads.push(...list);
			return other(async () => {
				const seen = new Set();
				const settlements = [];
				for (const id of list) {
					if (seen.has(id)) continue;
					seen.add(id);
					const session = find(id);
					if (session === undefined) settlements.push({ sessionId: id, status: "rejected", reason: new Error("session not found") });
					else if (session.titleError != null) settlements.push({ sessionId: id, status: "rejected", reason: new Error(session.titleError) });
					else settlements.push({
						sessionId: id,
						status: "fulfilled",
						value: { session: session.header, ...(session.title == null ? {} : { title: { title: session.title } }) },
					});
				}
				return settlements;
			});
		},
		readSurface(id) {
			reads.push(id);
			if (hangHere("readSurface")) return new Promise(() => {});
			return other(async () => {
				const session = find(id);
				if (session === undefined) throw new Error(`session ${JSON.stringify(id)} not found`);
				if (session.readError != null) throw new Error(session.readError);
				return {
					session: session.header,
					capturedThroughSeq: session.surface?.capturedThroughSeq ?? null,
					events: session.surface?.events ?? [],
				};
			});
		},
	};
	return { fake, titleReads, reads, lists };
}

/**
 * world.define cache: key → world document. A request names one with {"$ref": key}; it gets
 * a fresh fake sessionQuery (its own reads and titleReads) over the stored document, which
 * nothing here mutates.
 */
const worlds = new Map();

/** The request's world: the document itself, or the defined world a {"$ref": key} names. */
function resolveWorld(world) {
	if (!isObject(world) || !has(world, "$ref")) return world;
	if (typeof world.$ref !== "string" || Object.keys(world).length !== 1) {
		throw new AdapterError("ADAPTER_PROTOCOL", 'a world reference is {"$ref": KEY} with a string KEY and no other key');
	}
	if (!worlds.has(world.$ref)) {
		throw new AdapterError("ADAPTER_PROTOCOL", `no world defined under ${JSON.stringify(world.$ref)} (world.define it first)`);
	}
	return worlds.get(world.$ref);
}

function createService(impl, args, sessionQuery) {
	const ctx = new impl.Context();
	if (sessionQuery !== undefined) ctx.provide("sessionQuery", sessionQuery);
	return new impl.ServiceClass(ctx, opt(args, "config"));
}

function makeHandlers(impl) {
	const { lib } = impl;
	const handlers = {
		hello(args) {
			if (args.protocol !== PROTOCOL) throw new AdapterError("ADAPTER_PROTOCOL", `unsupported protocol ${JSON.stringify(args.protocol)}; this adapter speaks protocol ${PROTOCOL}`);
			return { protocol: PROTOCOL, name: ADAPTER_NAME, version: impl.version, spec: impl.spec, language: "javascript", features: impl.llm ? [...FEATURES, "host"] : FEATURES };
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
		"world.define"(args) {
			const key = requireArg(args, "key");
			const world = requireArg(args, "world");
			if (typeof key !== "string") throw new AdapterError("ADAPTER_PROTOCOL", "world.define: key must be a string");
			if (!isObject(world) || has(world, "$ref") || !Array.isArray(world.sessions)) {
				throw new AdapterError("ADAPTER_PROTOCOL", "world.define: world must be a world document with a sessions array");
			}
			worlds.set(key, world); // redefining a key replaces its world
			return { key };
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
			const { fake, titleReads, lists } = buildSessionQuery(resolveWorld(requireArg(args, "world")), cancel);
			const service = createService(impl, args, fake);
			let candidates;
			try {
				candidates = await service.listCandidates(agent, opt(args, "query"), opt(args, "limit"), cancel.signal);
			} catch (error) {
				// A failed listing says how many times it listed sessions (0 when aborted first).
				throw Object.assign(wrapForReads(error), { lists: lists.count });
			}
			return { candidates, titleReads };
		},
		async prepare(args) {
			let reads = [];
			let prepared;
			try {
				const agent = buildAgent(requireArg(args, "agent"));
				const cancel = buildCancel(args, "readSurface", Math.max(0, normalizedSources(opt(args, "references")) - 1));
				const query = buildSessionQuery(resolveWorld(requireArg(args, "world")), cancel);
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
	if (impl.llm) handlers["host.send"] = (args) => hostSend(impl, args);
	return handlers;
}

/**
 * host.send (profile 0.1.0-rc.8): the host enqueues the user's text as typed, in one direct
 * user/message (followup() for an idle target, steer() for a running one); the target's next
 * step claims its inbox through the agent/pre-step waterfall, where the package's own
 * listener parses the mentions, prepares, and returns the messages that enter the log. A
 * listener failure ends the turn: nothing enters the log, and the send answers that error.
 */
async function hostSend(impl, args) {
	const agent = buildAgent(requireArg(args, "agent"));
	// Mutations change this copy only: a world.define template stays as defined.
	const world = structuredClone(resolveWorld(requireArg(args, "world")));
	const text = requireArg(args, "text");
	if (typeof text !== "string") throw new AdapterError("ADAPTER_PROTOCOL", "text must be a string");
	const { fake } = buildSessionQuery(world, { hang: null });
	const ctx = new impl.Context();
	ctx.provide("sessionQuery", fake);
	new impl.ServiceClass(ctx, opt(args, "config")); // registers its agent/pre-step listener
	const wire = (message) => {
		const { id: _id, ...rest } = message;
		return JSON.parse(JSON.stringify(rest));
	};
	const inbox = [impl.llm.createUserMessage({ source: { kind: "user" }, content: [{ type: "text", text }] })];
	const pending = opt(args, "running") === true ? inbox.map(wire) : [];
	const payload = { agent, messages: inbox, turn: 1, step: 1, signal: new AbortController().signal };
	const decision = await ctx.waterfall("agent/pre-step", payload, async () => ({ kind: "enter", messages: inbox }));
	const entered = decision.kind === "enter" ? decision.messages : [];
	const log = entered.map(wire);
	applyMutations(world, opt(args, "mutations"));
	return { pending, log, replay: entered.map(wire) };
}

/** The protocol's source mutations, applied to the adapter's copy of the world. */
function applyMutations(world, mutations) {
	if (mutations === undefined) return;
	if (!Array.isArray(mutations)) throw new AdapterError("ADAPTER_PROTOCOL", "mutations must be an array");
	for (const m of mutations) {
		const i = world.sessions.findIndex((session) => session.header.id === m?.sessionId);
		if (i < 0) throw new AdapterError("ADAPTER_PROTOCOL", `mutation names unknown session ${JSON.stringify(m?.sessionId)}`);
		const session = world.sessions[i];
		session.surface ??= { capturedThroughSeq: null, events: [] };
		session.surface.events ??= [];
		if (m.op === "append" && Array.isArray(m.events)) session.surface.events.push(...m.events);
		else if (m.op === "compact") {
			const source = { kind: "plugin", plugin: "compact", compactionId: "c-mutation" };
			session.surface.events = [{ type: "user/message", seq: 0, data: { id: "m-compact", role: "user", content: [{ type: "text", text: m.summary }], source } }];
		} else if (m.op === "delete") world.sessions.splice(i, 1);
		else throw new AdapterError("ADAPTER_PROTOCOL", `bad mutation ${JSON.stringify(m)}`);
	}
}

/** Carry `reads` beside the package's error without mutating frozen/foreign objects. */
function wrapForReads(error) {
	return { __adapterError: true, original: error };
}

function errorBody(error) {
	let extra = {};
	if (error !== null && typeof error === "object" && error.__adapterError === true) {
		extra = error.lists === undefined ? { reads: error.reads } : { lists: error.lists };
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
	// elapsedNs: the implementation's own time, from the decoded request to the result,
	// before the response is encoded (spec/protocol.md, "Timing").
	const start = process.hrtime.bigint();
	const elapsedNs = () => Math.max(1, Number(process.hrtime.bigint() - start));
	try {
		const result = await handlers[request.op](args);
		return { id, ok: true, result, elapsedNs: elapsedNs() };
	} catch (error) {
		return { id, ok: false, error: errorBody(error), elapsedNs: elapsedNs() };
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
