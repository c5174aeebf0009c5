// The adapter protocol, version 1 (spec/protocol.md): JSON lines on stdin and stdout.

import { AdapterError, wireCode, messageOf } from "./errors.js";
import { Cancel, WorldCache, fakeSessionQuery, copyWorld, normalizedSources } from "./world.js";
import { hostSend } from "./host.js";

/** The protocol's bound on a line, in bytes, either way. */
export const MAX_LINE_BYTES = 64 << 20;

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const bad = (message) => new AdapterError("ADAPTER_PROTOCOL", message);

/** Reads the agent argument {id, cwd?} into the port's Agent. */
function readAgent(v) {
  if (!isObject(v)) throw bad("agent is not an object");
  if (typeof v.id !== "string") throw bad("agent.id is not a string");
  if (!Object.hasOwn(v, "cwd")) return { id: v.id };
  if (typeof v.cwd !== "string") throw bad("agent.cwd is not a string");
  return { id: v.id, cwd: v.cwd };
}

/** An error that carries the extra keys of its wire error object (lists, reads). */
class Failure {
  constructor(error, extra) {
    this.error = error;
    this.extra = extra;
  }
}

/**
 * Handler answers one request at a time for a port: it owns the world cache and the
 * dispatch of the protocol's ops to the port's interface.
 */
export class Handler {
  /** @param {import("./index.js").Port} port @param {import("./index.js").ServeOptions} options */
  constructor(port, options) {
    this.port = port;
    this.spec = options.spec ?? "0.0.1-rc.1";
    const declared = new Set(options.features ?? []);
    for (const f of declared) {
      if (f !== "lone-surrogates" && f !== "host") throw new Error(`unknown feature ${JSON.stringify(f)} (a port declares lone-surrogates and host; the kit adds world-cache and pipelining)`);
    }
    this.host = declared.has("host");
    this.hello = {
      protocol: 1,
      name: String(options.name),
      version: String(options.version),
      spec: this.spec,
      features: [...declared, "world-cache", "pipelining"],
    };
    this.worlds = new WorldCache();
  }

  /**
   * Answers one decoded request with its response object.
   * @param {unknown} request
   */
  async answer(request) {
    const id = isObject(request) && Object.hasOwn(request, "id") ? request.id : null;
    if (!isObject(request) || typeof request.op !== "string") {
      return { id, ok: false, error: { code: "ADAPTER_PROTOCOL", message: "a request is an object with a string op" } };
    }
    const args = Object.hasOwn(request, "args") ? request.args : {};
    if (!isObject(args)) return { id, ok: false, error: { code: "ADAPTER_PROTOCOL", message: "args is not an object" } };
    const start = process.hrtime.bigint();
    const elapsedNs = () => Number(process.hrtime.bigint() - start);
    try {
      const result = await this.dispatch(request.op, args);
      return { id, ok: true, result, elapsedNs: elapsedNs() };
    } catch (thrown) {
      const { error, extra } = thrown instanceof Failure ? thrown : { error: thrown, extra: {} };
      return { id, ok: false, error: { code: wireCode(error), message: messageOf(error), ...extra }, elapsedNs: elapsedNs() };
    }
  }

  /** @param {string} op @param {Record<string, any>} args */
  async dispatch(op, args) {
    const port = this.port;
    switch (op) {
      case "hello":
        return this.hello;
      case "uri.encode":
        return await port.encodeUri(args.sessionId);
      case "uri.decode":
        return await port.decodeUri(args.uri);
      case "mention.format":
        return await port.formatMention(Object.hasOwn(args, "label") ? { sessionId: args.sessionId, label: args.label } : { sessionId: args.sessionId });
      case "mention.parse":
        return await port.parseMentions(args.text);
      case "world.define":
        return this.worlds.define(args.key, args.world);
      case "config": {
        const service = await port.createService(fakeSessionQuery({ sessions: [], listError: undefined }).sessionQuery, args.config);
        const { maxReferences, candidateLimit, maxReferenceBytes } = service.config;
        return { maxReferences, candidateLimit, maxReferenceBytes };
      }
      case "candidates":
        return await this.candidates(args);
      case "prepare":
        return await this.prepare(args);
      case "host.send":
        if (this.host) return await this.hostSend(args);
    }
    throw new AdapterError("ADAPTER_UNSUPPORTED", `unsupported op ${JSON.stringify(op)}`);
  }

  /**
   * World, agent, service and cancel of a candidates or prepare request, in the reference's
   * order. A candidates' held call is its listing; a prepare's is the read of its first
   * normalized source, and the other sources' reads are counted.
   */
  async setup(args, reads = false) {
    const world = this.worlds.resolve(args.world);
    const agent = readAgent(args.agent);
    const { sessionQuery, calls } = fakeSessionQuery(world);
    const service = await this.port.createService(sessionQuery, args.config);
    if (!reads) {
      calls.cancel = new Cancel(args.cancel);
    } else {
      let most = Infinity; // a port whose config is broken: its prepare will say so
      try {
        most = service.config.maxReferences;
      } catch {}
      const sources = normalizedSources(agent.id, args.references, most);
      calls.cancel = new Cancel(args.cancel, { hold: sources.length > 0 ? sources[0] : null, others: Math.max(0, sources.length - 1) });
    }
    return { world, agent, service, calls };
  }

  async candidates(args) {
    const { agent, service, calls } = await this.setup(args);
    try {
      const candidates = await service.listCandidates(agent, args.query, args.limit, calls.cancel.signal);
      return { candidates, titleReads: [...calls.titleReads] };
    } catch (error) {
      throw new Failure(error, { lists: calls.lists });
    } finally {
      calls.cancel.release();
    }
  }

  async prepare(args) {
    let calls;
    let prepared;
    try {
      const s = await this.setup(args, true);
      calls = s.calls;
      prepared = await s.service.prepare(s.agent, args.content, args.references, calls.cancel.signal);
    } catch (error) {
      throw new Failure(error, { reads: calls ? [...calls.reads] : [] });
    } finally {
      calls?.cancel.release();
    }
    let additionalContext = null;
    if (prepared.additionalContext !== undefined) {
      const { id: _id, ...rest } = prepared.additionalContext; // the random UUID is never compared
      additionalContext = rest;
    }
    const out = {};
    if (Object.hasOwn(args, "content")) out.content = prepared.content;
    out.additionalContext = additionalContext;
    out.reads = [...calls.reads];
    return out;
  }

  async hostSend(args) {
    const world = copyWorld(this.worlds.resolve(args.world));
    const agent = readAgent(args.agent);
    const { sessionQuery } = fakeSessionQuery(world);
    const service = await this.port.createService(sessionQuery, args.config);
    return hostSend({ port: this.port, service, world, agent, args, spec: this.spec });
  }
}

/**
 * Splits a byte stream into lines of at most `max` bytes. Yields Buffers, or `null` for a line
 * that was longer (its bytes are dropped as they arrive, so memory stays bounded).
 * @param {AsyncIterable<Buffer>} input @param {number} max
 */
export async function* lines(input, max = MAX_LINE_BYTES) {
  let parts = [];
  let size = 0;
  let overlong = false;
  const take = () => {
    const line = overlong ? null : Buffer.concat(parts, size);
    parts = [];
    size = 0;
    overlong = false;
    return line;
  };
  for await (const chunk of input) {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const piece = chunk.subarray(from, nl < 0 ? chunk.length : nl);
      if (!overlong) {
        if (size + piece.length > max + 1) { // +1: a "\r" before the "\n" is not counted
          overlong = true;
          parts = [];
        } else {
          parts.push(piece);
          size += piece.length;
        }
      }
      if (nl < 0) break;
      let line = take();
      if (line !== null && line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
      if (line !== null && line.length > max) line = null;
      yield line;
      from = nl + 1;
    }
  }
  if (size > 0 || overlong) yield take();
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes one request line: strict UTF-8 (a raw surrogate's bytes included), then JSON. */
export function decodeLine(bytes) {
  return JSON.parse(utf8.decode(bytes));
}

/**
 * Encodes a response as one line. JSON.stringify writes a lone surrogate as \udXXX; an answer
 * over the 64 MiB bound becomes ADAPTER_UNSUPPORTED, which the protocol can carry.
 */
export function encodeResponse(response, max = MAX_LINE_BYTES) {
  let line;
  try {
    line = JSON.stringify(response);
  } catch (error) {
    line = JSON.stringify({ id: response.id, ok: false, error: { code: null, message: `the answer is not JSON: ${messageOf(error)}` } });
  }
  if (Buffer.byteLength(line, "utf8") > max) {
    line = JSON.stringify({ id: response.id, ok: false, error: { code: "ADAPTER_UNSUPPORTED", message: "the answer is longer than the protocol's 64 MiB line" } });
  }
  return line + "\n";
}

/**
 * Serves a port on a byte stream pair until input ends: one answer per line, in order.
 * @param {Handler} handler @param {AsyncIterable<Buffer>} input @param {NodeJS.WritableStream} output
 * @param {{maxLineBytes?: number}} [limits]
 */
export async function serveStreams(handler, input, output, limits = {}) {
  const max = limits.maxLineBytes ?? MAX_LINE_BYTES;
  const write = (text) => new Promise((resolve, reject) => output.write(text, (e) => (e ? reject(e) : resolve())));
  for await (const bytes of lines(input, max)) {
    if (bytes !== null && bytes.length === 0) continue;
    let response;
    if (bytes === null) {
      response = { id: null, ok: false, error: { code: "ADAPTER_PROTOCOL", message: `request line longer than ${max} bytes` } };
    } else {
      let request;
      try {
        request = decodeLine(bytes);
      } catch (error) {
        await write(encodeResponse({ id: null, ok: false, error: { code: "ADAPTER_PROTOCOL", message: `request is not a JSON line in UTF-8: ${messageOf(error)}` } }, max));
        continue;
      }
      response = await handler.answer(request);
    }
    await write(encodeResponse(response, max));
  }
}
