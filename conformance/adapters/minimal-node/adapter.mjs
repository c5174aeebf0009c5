// A minimal session-reference adapter: hello, uri.encode and uri.decode. Every other op
// answers ADAPTER_UNSUPPORTED, which the runner reports as not covered, never as passed.
import { createInterface } from "node:readline";

const SCHEME = "dsh-session:";
const encode = (id) => SCHEME + Buffer.from(JSON.stringify(id), "utf8").toString("base64url");

function decode(uri) {
  const invalid = Object.assign(new Error(`invalid session reference URI ${JSON.stringify(uri)}`),
    { code: "SESSION_REFERENCE_INVALID_REFERENCE" });
  const payload = uri.slice(SCHEME.length); // a non-string uri throws a TypeError: code null
  if (!uri.startsWith(SCHEME) || !/^[A-Za-z0-9_-]+$/.test(payload)) throw invalid;
  let id;
  try { id = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")); } catch { throw invalid; }
  if (typeof id !== "string" || encode(id) !== uri) throw invalid; // the canonical check
  return id;
}

const ops = {
  hello: () => ({ protocol: 1, name: "minimal-node", version: "0.0.1", spec: "0.0.1-rc.1",
    features: ["lone-surrogates"] }),
  "uri.encode": ({ sessionId }) => encode(sessionId),
  "uri.decode": ({ uri }) => decode(uri),
};

// Only the contract's codes go on the wire; any other failure is a null code.
const wireCode = (e) => /^(SESSION_REFERENCE_|ADAPTER_)/.test(e?.code ?? "") ? e.code : null;

createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, op, args } = JSON.parse(line);
  let response;
  try {
    if (!Object.hasOwn(ops, op)) throw Object.assign(new Error(`unsupported op ${op}`), { code: "ADAPTER_UNSUPPORTED" });
    response = { id, ok: true, result: ops[op](args) };
  } catch (error) {
    response = { id, ok: false, error: { code: wireCode(error), message: String(error?.message ?? error) } };
  }
  process.stdout.write(JSON.stringify(response) + "\n");
});
