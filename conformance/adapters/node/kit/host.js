// The host model for host.send (spec SR-HOST-*, spec/protocol.md "host.send"): the text is
// parsed for mentions, prepared and delivered to a target agent that is idle or running.
// The port supplies parseMentions and its service's prepare; the model is the kit's.

import { AdapterError } from "./errors.js";
import { applyMutations } from "./world.js";

/** A message as the durable log keeps it: its serialized JSON, without the random id. */
const entry = (message) => {
  const { id: _id, ...rest } = message;
  return JSON.parse(JSON.stringify(rest));
};

/**
 * host.send for one request. `world` is the request's own copy (mutations change it only).
 * @param {object} o
 * @param {import("./index.js").Port} o.port
 * @param {import("./index.js").Service} o.service built over o.world's fake
 * @param {import("./index.js").World} o.world
 * @param {import("./index.js").Agent} o.agent
 * @param {Record<string, unknown>} o.args
 * @param {string} o.spec the profile: 0.0.1-rc.1 puts the context first, 0.1.0-rc.8 after the direct message
 */
export async function hostSend({ port, service, world, agent, args, spec }) {
  const text = args.text;
  if (typeof text !== "string") throw new AdapterError("ADAPTER_PROTOCOL", "text is not a string");
  const running = args.running === true;
  const contextFirst = spec === "0.0.1-rc.1";
  // Any parse or prepare failure rejects before anything is enqueued (SR-HOST-4).
  const parsed = await port.parseMentions(text);
  const references = parsed.references.map((r) => ({ sessionId: r.sessionId, label: r.label }));
  const prepared = await service.prepare(agent, [{ type: "text", text: parsed.text }], references, undefined);
  const direct = entry({ source: { kind: "user" }, content: prepared.content, role: "user" });
  const entries = [direct];
  if (prepared.additionalContext !== undefined) {
    const context = entry(prepared.additionalContext);
    if (contextFirst) entries.unshift(context);
    else entries.push(context);
  }
  // Idle: the next step claims the inbox at once. Running: the messages wait for the step
  // (0.1.0-rc.8 parses in the step, so until then the direct message waits as typed).
  let pending = [];
  if (running) pending = contextFirst ? entries : [entry({ source: { kind: "user" }, content: [{ type: "text", text }], role: "user" })];
  const log = entries; // the step claims the inbox into the log
  applyMutations(world, args.mutations);
  return { pending, log, replay: entries.map((e) => JSON.parse(JSON.stringify(e))) };
}
