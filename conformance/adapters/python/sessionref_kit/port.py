"""The one interface a port implements, in Python's own types.

Arguments arrive as the request gave them: an absent key is UNDEFINED, a present one is
passed as is (None for null, and values of the wrong type), so the port's own validation is
what the runner checks. JSON numbers are floats, as in JavaScript. Raise
SessionReferenceError(message, Code.X) for a contract failure; any other exception travels
with a null code. Every method may be a coroutine function or a plain one.
"""

import abc
from dataclasses import dataclass, field
from typing import Any, List, Optional

from .jsjson import UNDEFINED

__all__ = ["Agent", "Reference", "Parsed", "Candidate", "EffectiveConfig", "Prepared", "Service", "Port"]


@dataclass(frozen=True)
class Agent:
    """The target agent: its session id and working directory (None when it has none)."""

    id: str
    cwd: Optional[str] = None


@dataclass
class Reference:
    session_id: str
    label: str


@dataclass
class Parsed:
    """mention.parse's answer: the readable text and the references in appearance order."""

    text: str
    references: List[Reference] = field(default_factory=list)


@dataclass
class Candidate:
    session_id: str
    label: str
    created_at: float
    cwd: Optional[str] = None  # None: the session has no cwd (the key is left out)


@dataclass
class EffectiveConfig:
    max_references: int
    candidate_limit: int
    max_reference_bytes: int


@dataclass
class Prepared:
    """prepare's answer: the detached content (UNDEFINED when the request had none) and the
    context message {"source", "content", "role", "id"?} as a JSON dict, or None. The kit
    drops its "id" (a random UUID, never compared)."""

    content: Any = UNDEFINED
    additional_context: Optional[dict] = None


class Service(abc.ABC):
    """The service a port constructs over a session query (the seed's SessionReferenceService).

    The session query is the kit's FakeSessionQuery: list_sessions(signal), 
    read_title_snapshots(ids, signal) and read_surface(session_id) return awaitables with the
    JavaScript shapes of protocol.md, as dicts. signal is None or the kit's AbortSignal."""

    config: EffectiveConfig

    @abc.abstractmethod
    async def list_candidates(self, agent: Agent, query=UNDEFINED, limit=UNDEFINED, signal=None) -> List[Candidate]:
        ...

    @abc.abstractmethod
    async def prepare(self, agent: Agent, content, references, signal=None) -> Prepared:
        ...


class Port(abc.ABC):
    """The contract's operations."""

    @abc.abstractmethod
    def encode_uri(self, session_id) -> str:
        ...

    @abc.abstractmethod
    def decode_uri(self, uri) -> str:
        ...

    @abc.abstractmethod
    def format_mention(self, session_id, label=UNDEFINED) -> str:
        ...

    @abc.abstractmethod
    def parse_mentions(self, text) -> Parsed:
        ...

    @abc.abstractmethod
    def create_service(self, session_query, config=UNDEFINED) -> Service:
        """Constructs the service; a bad config raises SESSION_REFERENCE_INVALID_CONFIG."""
