"""sessionref_kit: the plumbing of a session-reference adapter in Python (standard library
only). A port implements Port (port.py) and calls serve(port, name, version, features)."""

from .errors import AdapterError, Code, SessionReferenceError, wire_code
from .jsjson import UNDEFINED, number_text, parse, quote, stringify
from .port import Agent, Candidate, EffectiveConfig, Parsed, Port, Prepared, Reference, Service
from .protocol import MAX_LINE_BYTES, Handler, serve, serve_streams
from .world import AbortSignal, Cancel, FakeSessionQuery, WorldCache, apply_mutations, normalized_sources, parse_world
from . import jsstring

__all__ = [
    "AdapterError", "Code", "SessionReferenceError", "wire_code",
    "UNDEFINED", "number_text", "parse", "quote", "stringify",
    "Agent", "Candidate", "EffectiveConfig", "Parsed", "Port", "Prepared", "Reference", "Service",
    "MAX_LINE_BYTES", "Handler", "serve", "serve_streams",
    "AbortSignal", "Cancel", "FakeSessionQuery", "WorldCache", "apply_mutations", "normalized_sources", "parse_world",
    "jsstring",
]
