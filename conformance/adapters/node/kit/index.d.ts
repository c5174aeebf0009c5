// Types of @sessionref-kit/adapter-kit. The kit is plain JavaScript (ESM); these types are
// what a port written in TypeScript, or checked with JSDoc, implements.

/** The agent a request targets, as the protocol sends it. */
export interface Agent { id: string; cwd?: string }

/** A session header: id, createdAt and cwd as the world states them; unknown keys kept. */
export interface SessionHeader { id: string; createdAt: number; cwd?: string; [key: string]: unknown }

export interface SessionRecord { header: SessionHeader; live: false; persisted: true }

export type TitleSettlement =
  | { sessionId: string; status: "fulfilled"; value: { session: SessionHeader; title?: { title: string } } }
  | { sessionId: string; status: "rejected"; reason: Error };

/** A readSurface answer. Events are the world's values as sent: hostile shapes included. */
export interface SurfaceSnapshot { session: SessionHeader; capturedThroughSeq: number | null; events: unknown[] }

/** The session-query service the kit builds from a request's world (ctx.sessionQuery). */
export interface SessionQuery {
  listSessions(signal?: AbortSignal): Promise<SessionRecord[]>;
  readTitleSnapshots(ids: Iterable<string>, signal?: AbortSignal): Promise<TitleSettlement[]>;
  readSurface(sessionId: string): Promise<SurfaceSnapshot>;
}

export interface EffectiveConfig { maxReferences: number; candidateLimit: number; maxReferenceBytes: number }

export interface Candidate { sessionId: string; label: string; cwd?: string; createdAt: number }

/** The context message: {source, content, role, id?}. The kit drops `id` (a random UUID). */
export interface ContextMessage { source: unknown; content: unknown; role: "user"; id?: string }

export interface Prepared { content: unknown; additionalContext?: ContextMessage }

/** The service a port constructs over a session query (the seed's SessionReferenceService). */
export interface Service {
  readonly config: EffectiveConfig;
  listCandidates(agent: Agent, query: unknown, limit: unknown, signal: AbortSignal | undefined): Promise<Candidate[]>;
  prepare(agent: Agent, content: unknown, references: unknown, signal: AbortSignal | undefined): Promise<Prepared>;
}

/**
 * The one interface a port implements: the contract's operations, in JavaScript's own types.
 * Arguments arrive as the request gave them: an absent key is `undefined`, a present one is
 * passed as is (null and values of the wrong type included), so the port's own validation is
 * what the runner checks. Throw a SessionReferenceError (or any error with a contract `code`)
 * for a contract failure; anything else travels with a null code.
 */
export interface Port {
  encodeUri(sessionId: unknown): string | Promise<string>;
  decodeUri(uri: unknown): string | Promise<string>;
  formatMention(reference: { sessionId: unknown; label?: unknown }): string | Promise<string>;
  parseMentions(text: unknown): { text: string; references: { sessionId: string; label: string }[] } | Promise<{ text: string; references: { sessionId: string; label: string }[] }>;
  /** Constructs the service; a bad config throws SESSION_REFERENCE_INVALID_CONFIG. */
  createService(sessionQuery: SessionQuery, config: unknown): Service | Promise<Service>;
}

export type Feature = "lone-surrogates" | "host";

export interface ServeOptions {
  /** The implementation's name and version, as hello reports them. */
  name: string;
  version: string;
  /** The contract release the port implements (default "0.0.1-rc.1"). */
  spec?: "0.0.1-rc.1" | "0.1.0-rc.8";
  /** What the port supports: "lone-surrogates", and "host" to have the kit's host model answer host.send. */
  features?: Feature[];
}

export interface World {
  sessions: { header: SessionHeader; title?: string; titleError?: string; readError?: string; surface?: { capturedThroughSeq: number | null; events: unknown[] } }[];
  listError?: string;
}

export declare const Code: {
  readonly INVALID_CONFIG: "SESSION_REFERENCE_INVALID_CONFIG";
  readonly INVALID_REFERENCE: "SESSION_REFERENCE_INVALID_REFERENCE";
  readonly SELF_REFERENCE: "SESSION_REFERENCE_SELF_REFERENCE";
  readonly TOO_MANY: "SESSION_REFERENCE_TOO_MANY";
  readonly READ_FAILED: "SESSION_REFERENCE_READ_FAILED";
  readonly BUDGET_EXCEEDED: "SESSION_REFERENCE_BUDGET_EXCEEDED";
  readonly CANCELLED: "SESSION_REFERENCE_CANCELLED";
};

export declare class SessionReferenceError extends Error {
  constructor(message: string, code: string, options?: ErrorOptions);
  code: string;
}

export declare class AdapterError extends Error {
  constructor(code: "ADAPTER_PROTOCOL" | "ADAPTER_UNSUPPORTED", message: string);
  code: string;
}

export declare function wireCode(error: unknown): string | null;

/** Serves the port on stdin/stdout until stdin ends, then exits the process. */
export declare function serve(port: Port, options: ServeOptions): Promise<never>;

export declare const MAX_LINE_BYTES: number;
export declare const CANCEL_MODES: readonly ["before", "during-read", "at-call", "never"];

/** The backstops of the cancel modes, in ms, for a port that waits for the held call alone. */
export declare const MADE_GRACE_MS: number;
export declare const FAILED_GRACE_MS: number;

/** The ids a valid prepare reads, in order ([] when the references are not valid). */
export declare function normalizedSources(agentId: string, references: unknown, maxReferences: number): string[];

/**
 * One request's abort signal and the rule that aborts it, decided by the fake's calls and
 * their outcomes. `hold`: undefined holds the first call, a session id that read, null none;
 * `others`: the other reads during-read waits for.
 */
export declare class Cancel {
  constructor(mode: unknown, arm?: { hold?: string | null; others?: number });
  readonly mode: string | undefined;
  readonly signal: AbortSignal | undefined;
  call<T>(work: () => Promise<T>, sessionId?: string): Promise<T>;
  /** Clears the backstops once the implementation has returned. */
  release(): void;
}

export declare class WorldCache {
  define(key: unknown, doc: unknown): { key: string };
  resolve(arg: unknown): World;
}

export declare function parseWorld(doc: unknown): World;
export declare function copyWorld(world: World): World;
export declare function fakeSessionQuery(world: World): { sessionQuery: SessionQuery; calls: { lists: number; titleReads: string[]; reads: string[]; cancel: Cancel } };
export declare function applyMutations(world: World, mutations: unknown): void;

/** Answers protocol requests for a port (what serve runs per line). */
export declare class Handler {
  constructor(port: Port, options: ServeOptions);
  answer(request: unknown): Promise<Record<string, unknown>>;
}
export declare function lines(input: AsyncIterable<Uint8Array>, max?: number): AsyncGenerator<Buffer | null>;
export declare function decodeLine(bytes: Uint8Array): unknown;
export declare function encodeResponse(response: Record<string, unknown>, max?: number): string;
export declare function serveStreams(handler: Handler, input: AsyncIterable<Uint8Array>, output: NodeJS.WritableStream, limits?: { maxLineBytes?: number }): Promise<void>;
export declare function hostSend(o: { port: Port; service: Service; world: World; agent: Agent; args: Record<string, unknown>; spec: string }): Promise<{ pending: unknown[]; log: unknown[]; replay: unknown[] }>;
