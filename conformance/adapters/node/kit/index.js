// @sessionref-kit/adapter-kit: the plumbing of a session-reference adapter in JavaScript.
// A port implements the Port interface (index.d.ts) and calls serve(port, options).

import { Handler, serveStreams } from "./protocol.js";

export { Code, SessionReferenceError, AdapterError, wireCode } from "./errors.js";
export { Handler, MAX_LINE_BYTES, lines, decodeLine, encodeResponse, serveStreams } from "./protocol.js";
export { Cancel, CANCEL_MODES, MADE_GRACE_MS, FAILED_GRACE_MS, normalizedSources, WorldCache, parseWorld, copyWorld, fakeSessionQuery, applyMutations } from "./world.js";
export { hostSend } from "./host.js";

/**
 * Serves `port` over stdin and stdout until stdin ends, then exits. Every console method
 * writes to stderr, so nothing but answers reaches stdout.
 * @param {import("./index.js").Port} port
 * @param {import("./index.js").ServeOptions} options
 */
export async function serve(port, options) {
  for (const m of ["log", "info", "debug", "warn", "trace", "dir", "table"]) console[m] = (...a) => console.error(...a);
  process.on("unhandledRejection", (reason) => console.error("adapter: unhandled rejection:", reason));
  const handler = new Handler(port, options);
  try {
    await serveStreams(handler, process.stdin, process.stdout);
  } catch (error) {
    console.error("adapter: fatal:", error);
    process.exit(1);
  }
  process.exit(0);
}
