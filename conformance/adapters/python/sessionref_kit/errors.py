"""The contract's failure codes, the adapter's two, and what goes on the wire."""

__all__ = ["Code", "SessionReferenceError", "AdapterError", "wire_code"]


class Code:
    """The contract's seven codes (spec/session-reference.md)."""

    INVALID_CONFIG = "SESSION_REFERENCE_INVALID_CONFIG"
    INVALID_REFERENCE = "SESSION_REFERENCE_INVALID_REFERENCE"
    SELF_REFERENCE = "SESSION_REFERENCE_SELF_REFERENCE"
    TOO_MANY = "SESSION_REFERENCE_TOO_MANY"
    READ_FAILED = "SESSION_REFERENCE_READ_FAILED"
    BUDGET_EXCEEDED = "SESSION_REFERENCE_BUDGET_EXCEEDED"
    CANCELLED = "SESSION_REFERENCE_CANCELLED"


_CONTRACT = frozenset(v for k, v in vars(Code).items() if not k.startswith("_"))


class SessionReferenceError(Exception):
    """A failure with one of the contract's codes, as the seed's SessionReferenceError."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


class AdapterError(Exception):
    """ADAPTER_PROTOCOL (a malformed world, agent, mutation) or ADAPTER_UNSUPPORTED."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def wire_code(error):
    """The code an error travels with: a contract code (on any exception carrying one in
    .code) or an AdapterError's code; every other error, a TypeError or a failing
    session-query call, is None (null), as protocol.md says."""
    code = getattr(error, "code", None)
    if isinstance(error, AdapterError):
        return code
    if isinstance(code, str) and code in _CONTRACT:
        return code
    return None
