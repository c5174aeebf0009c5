// The fake session-query service built from a world document (spec/protocol.md, "The world"),
// the calls it records, and the four cancel modes.

import { AdapterError } from "./errors.js";

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const bad = (message) => new AdapterError("ADAPTER_PROTOCOL", message);
const quote = (s) => JSON.stringify(s);

function onlyKeys(o, where, keys) {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw bad(`${where}: unknown key ${quote(k)}`);
}

function optString(o, key, where) {
  const v = o[key];
  if (v === undefined || v === null) return undefined; // null is the key absent
  if (typeof v !== "string") throw bad(`${where}.${key}: not a string`);
  return v;
}

/**
 * Checks a world document as the kit does (conformance/protocol/world.go) and returns it in
 * the form the fake reads: optional keys that are null are dropped. Throws ADAPTER_PROTOCOL.
 * @param {unknown} doc
 * @returns {import("./index.js").World}
 */
export function parseWorld(doc) {
  if (!isObject(doc)) throw bad("world: not an object");
  onlyKeys(doc, "world", ["sessions", "listError"]);
  const listError = optString(doc, "listError", "world");
  const list = doc.sessions === undefined ? [] : doc.sessions;
  if (!Array.isArray(list)) throw bad("world: sessions is not an array");
  const sessions = list.map((s, i) => parseSession(s, `world: sessions[${i}]`));
  return { sessions, listError };
}

function parseSession(s, where) {
  if (!isObject(s)) throw bad(`${where}: not an object`);
  onlyKeys(s, where, ["header", "title", "titleError", "surface", "readError"]);
  const h = s.header;
  if (!isObject(h)) throw bad(`${where}.header: not an object`);
  if (typeof h.id !== "string") throw bad(`${where}.header: id is not a string`);
  if (typeof h.createdAt !== "number") throw bad(`${where}.header: createdAt is not a number`);
  if (Object.hasOwn(h, "cwd") && typeof h.cwd !== "string") throw bad(`${where}.header: cwd is not a string`);
  const out = { header: h, title: optString(s, "title", where), titleError: optString(s, "titleError", where), readError: optString(s, "readError", where), surface: undefined };
  if (s.surface !== undefined && s.surface !== null) {
    if (!isObject(s.surface)) throw bad(`${where}.surface: not an object`);
    onlyKeys(s.surface, `${where}.surface`, ["capturedThroughSeq", "events"]);
    const seq = s.surface.capturedThroughSeq ?? null;
    if (seq !== null && typeof seq !== "number") throw bad(`${where}.surface.capturedThroughSeq: not a number or null`);
    const events = s.surface.events ?? [];
    if (!Array.isArray(events)) throw bad(`${where}.surface.events: not an array`);
    out.surface = { capturedThroughSeq: seq, events };
  }
  return out;
}

/** A request's own copy of a world: mutations change it and nothing else (events are shared, never written). */
export function copyWorld(world) {
  return {
    listError: world.listError,
    sessions: world.sessions.map((s) => ({ ...s, surface: s.surface && { ...s.surface, events: [...s.surface.events] } })),
  };
}

/** world.define's store: key -> parsed world. A request naming a key gets a fresh copy. */
export class WorldCache {
  #worlds = new Map();
  /** @param {unknown} key @param {unknown} doc */
  define(key, doc) {
    if (typeof key !== "string") throw bad("world.define: key is not a string");
    if (isObject(doc) && Object.hasOwn(doc, "$ref")) throw bad("world.define: world is a reference, not a document");
    this.#worlds.set(key, parseWorld(doc));
    return { key };
  }
  /** The world a request names: a document or {"$ref": KEY}. @param {unknown} arg */
  resolve(arg) {
    if (arg === undefined) throw bad("world is missing");
    if (!isObject(arg) || !Object.hasOwn(arg, "$ref")) return parseWorld(arg);
    if (typeof arg.$ref !== "string" || Object.keys(arg).length !== 1) throw bad('a world reference is {"$ref": KEY} with a string KEY and no other key');
    const w = this.#worlds.get(arg.$ref);
    if (w === undefined) throw bad(`world: no world defined under ${quote(arg.$ref)} (world.define it first)`);
    return copyWorld(w);
  }
}

/** The protocol's cancel modes (spec/protocol.md, "cancel"). */
export const CANCEL_MODES = ["before", "during-read", "at-call", "never"];

/**
 * Backstops, for a port that waits for the held call alone (spec/protocol.md, cancel): how long
 * during-read waits for the other reads to be made, and at-call's other calls for the held call
 * to be made (MADE_GRACE_MS); how long during-read waits, after another read failed, before it
 * aborts anyway (FAILED_GRACE_MS). The values are the Go bridge's. Neither decides the answer of
 * a port that starts its reads at once and fails on the first failure, as the seed does.
 */
export const MADE_GRACE_MS = 500;
export const FAILED_GRACE_MS = 200;

/**
 * The ids a valid prepare reads, in order: the distinct sessionIds of `references` in
 * first-mention order; [] when the references are not valid (not an array, an element that is
 * no object or has no string sessionId, a label that is not a string, a reference to the agent
 * itself, more sources than maxReferences), as the contract then reads nothing.
 * @param {string} agentId @param {unknown} references @param {number} maxReferences @returns {string[]}
 */
export function normalizedSources(agentId, references, maxReferences) {
  if (!Array.isArray(references)) return [];
  const ids = [];
  for (const r of references) {
    if (typeof r !== "object" || r === null || typeof r.sessionId !== "string") return [];
    if (r.label !== undefined && typeof r.label !== "string") return [];
    if (r.sessionId === agentId) return [];
    if (!ids.includes(r.sessionId)) ids.push(r.sessionId);
  }
  return ids.length > maxReferences ? [] : ids;
}

/**
 * Cancel is the abort signal of one request and the rule that decides when it aborts
 * (spec/protocol.md, "cancel"), decided by what the fake's calls see, never by a clock or by
 * event-loop turns: this class is the one place that knows the modes.
 *
 * - before: aborted before the implementation starts;
 * - never: a live signal nothing aborts;
 * - at-call: the held call aborts the signal as it is made, and never settles; every other
 *   call settles only after that abort (one made earlier waits for the held call);
 * - during-read: the held call never settles; the signal aborts as soon as the held call has
 *   been made and `others` other calls have resolved (at once, in a microtask, when others is
 *   0), and never once another call has rejected.
 *
 * The held call is the request's first call (`hold` undefined: a candidates' listing), the
 * read of `hold` (a session id: a prepare's first normalized source, normalizedSources), or
 * none (`hold` null: a prepare that reads nothing). Two backstops (MADE_GRACE_MS,
 * FAILED_GRACE_MS) end waits that would otherwise last for ever for a port that waits for the
 * held call alone; release() clears them.
 */
export class Cancel {
  /**
   * @param {unknown} mode the request's "cancel" argument (undefined: no signal)
   * @param {{hold?: string | null, others?: number}} [arm] the held call and the other reads
   */
  constructor(mode, arm = {}) {
    if (mode !== undefined && !CANCEL_MODES.includes(/** @type {string} */ (mode))) {
      throw new AdapterError("ADAPTER_UNSUPPORTED", `unsupported cancel mode ${quote(mode)}`);
    }
    this.mode = mode;
    this.controller = mode === undefined ? undefined : new AbortController();
    if (mode === "before") this.controller.abort();
    this.hold = arm.hold;
    this.others = arm.others ?? 0;
    this.held = false;
    this.started = 0; // during-read: other calls made
    this.succeeded = 0; // during-read: other calls resolved
    this.failed = false; // during-read: another call rejected
    this.released = false;
    /** @type {ReturnType<typeof setTimeout>[]} */
    this.timers = [];
    // at-call: resolved once the held call has aborted the signal.
    this.made = undefined;
    this.open = () => {};
  }
  /** The signal passed to the implementation, or undefined. */
  get signal() {
    return this.controller?.signal;
  }
  #holds(sessionId) {
    if (this.held || (this.mode !== "during-read" && this.mode !== "at-call") || this.hold === null) return false;
    return this.hold === undefined || sessionId === this.hold;
  }
  /**
   * Called by the fake as a call is made, with the call's work and, for a surface read, its
   * session id. Returns the promise the implementation gets: the work's, or one that never
   * settles for the held call.
   * @template T @param {() => Promise<T>} work @param {string} [sessionId] @returns {Promise<T>}
   */
  call(work, sessionId) {
    if (this.#holds(sessionId)) {
      this.held = true;
      if (this.mode === "at-call") {
        this.controller.abort();
        this.open();
      } else {
        // Once the held call has returned its promise: the others may all have resolved.
        queueMicrotask(() => this.#decide());
        if (this.started < this.others) this.#after(MADE_GRACE_MS, () => this.started < this.others && !this.failed && this.#backstop());
      }
      return new Promise(() => {});
    }
    if (this.mode === "at-call" && this.hold !== null && !this.held && !this.released) {
      // at-call: this call settles once the held call has aborted (MADE_GRACE_MS at most, for
      // a port that never makes it), as every outcome comes after the abort in the seed.
      if (this.made === undefined) {
        this.made = new Promise((resolve) => { this.open = resolve; });
        this.#after(MADE_GRACE_MS, () => this.open());
      }
      return this.made.then(work);
    }
    const p = work();
    if (this.mode === "during-read") {
      this.started++;
      p.then(
        () => { this.succeeded++; this.#decide(); },
        () => {
          if (!this.failed) this.#after(FAILED_GRACE_MS, () => this.#backstop());
          this.failed = true;
        },
      );
    }
    return p;
  }
  /** The rule: the held call made, and every other read resolved. */
  #decide() {
    if (this.held && !this.failed && this.succeeded >= this.others && !this.released) this.controller.abort();
  }
  #backstop() {
    if (this.held && !this.released) this.controller.abort();
  }
  #after(ms, f) {
    if (!this.released) this.timers.push(setTimeout(f, ms));
  }
  /** Ends the backstops once the implementation has returned (the held call stays pending, unreferenced). */
  release() {
    this.released = true;
    for (const t of this.timers) clearTimeout(t);
    this.open();
  }
}

/**
 * The fake ctx.sessionQuery of one request over a world, with the calls it records. Its calls
 * go through `calls.cancel`, which the caller may replace (arm) before the implementation runs.
 * @param {import("./index.js").World} world
 */
export function fakeSessionQuery(world) {
  // The first session of each id, as a search in document order finds it; built once, so
  // title reads over n sessions are O(n). Mutations come after the calls.
  const byId = new Map();
  for (const s of world.sessions) if (!byId.has(s.header.id)) byId.set(s.header.id, s);
  const find = (id) => byId.get(id);
  const calls = { lists: 0, titleReads: /** @type {string[]} */ ([]), reads: /** @type {string[]} */ ([]), cancel: new Cancel(undefined) };
  const sessionQuery = {
    listSessions(_signal) {
      calls.lists++;
      return calls.cancel.call(async () => {
        if (world.listError !== undefined) throw new Error(world.listError);
        return world.sessions.map((s) => ({ header: s.header, live: false, persisted: true }));
      });
    },
    readTitleSnapshots(ids, _signal) {
      const list = Array.from(ids);
      calls.titleReads.push(...list);
      return calls.cancel.call(async () => {
        const seen = new Set();
        const out = [];
        for (const id of list) {
          if (seen.has(id)) continue;
          seen.add(id);
          const s = find(id);
          if (s === undefined) out.push({ sessionId: id, status: "rejected", reason: new Error("session not found") });
          else if (s.titleError !== undefined) out.push({ sessionId: id, status: "rejected", reason: new Error(s.titleError) });
          else out.push({ sessionId: id, status: "fulfilled", value: { session: s.header, ...(s.title === undefined ? {} : { title: { title: s.title } }) } });
        }
        return out;
      });
    },
    readSurface(id) {
      calls.reads.push(id);
      return calls.cancel.call(async () => {
        const s = find(id);
        if (s === undefined) throw new Error(`session ${quote(id)} not found`);
        if (s.readError !== undefined) throw new Error(s.readError);
        return { session: s.header, capturedThroughSeq: s.surface?.capturedThroughSeq ?? null, events: s.surface?.events ?? [] };
      }, id);
    },
  };
  return { sessionQuery, calls };
}

/**
 * Applies host.send's mutations to a request's copy of the world (spec/protocol.md, host.send).
 * @param {import("./index.js").World} world @param {unknown} mutations
 */
export function applyMutations(world, mutations) {
  if (mutations === undefined) return;
  if (!Array.isArray(mutations)) throw bad("mutations is not an array");
  for (const m of mutations) {
    if (!isObject(m)) throw bad("a mutation is not an object");
    const i = world.sessions.findIndex((s) => s.header.id === m.sessionId);
    if (i < 0) throw bad(`mutation names unknown session ${quote(m.sessionId)}`);
    const s = world.sessions[i];
    s.surface ??= { capturedThroughSeq: null, events: [] };
    if (m.op === "append") {
      if (!Array.isArray(m.events)) throw bad("append mutation has no events array");
      s.surface.events = [...s.surface.events, ...m.events];
    } else if (m.op === "compact") {
      const source = { kind: "plugin", plugin: "compact", compactionId: "c-mutation" };
      s.surface.events = [{ type: "user/message", seq: 0, data: { id: "m-compact", role: "user", content: [{ type: "text", text: m.summary }], source } }];
    } else if (m.op === "delete") {
      world.sessions.splice(i, 1);
    } else throw bad(`unknown mutation op ${quote(m.op)}`);
  }
}
