"""The host model for host.send (spec SR-HOST-*, spec/protocol.md "host.send"): the text is
parsed for mentions, prepared and delivered to a target agent that is idle or running. The
port supplies parse_mentions and its service's prepare; the model is the kit's."""

import inspect

from .errors import AdapterError
from .jsjson import UNDEFINED, parse, stringify
from .world import apply_mutations

__all__ = ["host_send"]


async def _await(v):
    return await v if inspect.isawaitable(v) else v


def _entry(message):
    # A message as the durable log keeps it: its serialized JSON, without the random id.
    return parse(stringify({k: v for k, v in message.items() if k != "id"}))


async def host_send(port, service, world, agent, args, spec):
    """host.send for one request; world is the request's own copy."""
    text = args.get("text")
    if not isinstance(text, str):
        raise AdapterError("ADAPTER_PROTOCOL", "text is not a string")
    running = args.get("running") is True
    context_first = spec == "0.0.1-rc.1"
    # Any parse or prepare failure rejects before anything is enqueued (SR-HOST-4).
    parsed = await _await(port.parse_mentions(text))
    refs = [{"sessionId": r.session_id, "label": r.label} for r in parsed.references]
    prepared = await _await(service.prepare(agent, [{"type": "text", "text": parsed.text}], refs, None))
    entries = [_entry({"source": {"kind": "user"}, "content": prepared.content, "role": "user"})]
    if prepared.additional_context is not None:
        context = _entry(prepared.additional_context)
        entries = [context] + entries if context_first else entries + [context]
    # Idle: the next step claims the inbox at once. Running: the messages wait for the step
    # (0.1.0-rc.8 parses in the step, so until then the direct message waits as typed).
    pending = []
    if running:
        typed = {"source": {"kind": "user"}, "content": [{"type": "text", "text": text}], "role": "user"}
        pending = entries if context_first else [typed]
    apply_mutations(world, args.get("mutations", UNDEFINED))
    return {"pending": pending, "log": entries, "replay": [parse(stringify(e)) for e in entries]}


