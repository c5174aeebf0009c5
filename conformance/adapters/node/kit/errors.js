// Errors: the contract's seven codes, the adapter's two, and what goes on the wire.

/** The contract's failure codes (spec/session-reference.md); only these and the adapter's travel. */
export const Code = Object.freeze({
  INVALID_CONFIG: "SESSION_REFERENCE_INVALID_CONFIG",
  INVALID_REFERENCE: "SESSION_REFERENCE_INVALID_REFERENCE",
  SELF_REFERENCE: "SESSION_REFERENCE_SELF_REFERENCE",
  TOO_MANY: "SESSION_REFERENCE_TOO_MANY",
  READ_FAILED: "SESSION_REFERENCE_READ_FAILED",
  BUDGET_EXCEEDED: "SESSION_REFERENCE_BUDGET_EXCEEDED",
  CANCELLED: "SESSION_REFERENCE_CANCELLED",
});

const CONTRACT_CODES = new Set(Object.values(Code));

/** A failure with one of the contract's codes, as the seed's SessionReferenceError. */
export class SessionReferenceError extends Error {
  /** @param {string} message @param {string} code @param {ErrorOptions} [options] */
  constructor(message, code, options) {
    super(message, options);
    this.code = code;
    this.name = "SessionReferenceError";
  }
}

/** An adapter-level failure: ADAPTER_PROTOCOL (a malformed world, agent, mutation) or ADAPTER_UNSUPPORTED. */
export class AdapterError extends Error {
  /** @param {"ADAPTER_PROTOCOL"|"ADAPTER_UNSUPPORTED"} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
    this.name = "AdapterError";
  }
}

/**
 * The wire code of a thrown value: a contract code or an adapter code, else null. A port's
 * TypeError, a Node.js ERR_* code or a failing session-query call is null, as protocol.md says.
 * @param {unknown} error
 * @returns {string|null}
 */
export function wireCode(error) {
  const code = error !== null && typeof error === "object" ? /** @type {any} */ (error).code : undefined;
  if (typeof code !== "string") return null;
  if (CONTRACT_CODES.has(code)) return code;
  if (error instanceof AdapterError) return code;
  return null;
}

/** The message of a thrown value, whatever it is. @param {unknown} error */
export function messageOf(error) {
  try {
    if (error !== null && typeof error === "object" && typeof (/** @type {any} */ (error).message) === "string") {
      return /** @type {any} */ (error).message;
    }
    return String(error);
  } catch {
    return "unprintable error";
  }
}
