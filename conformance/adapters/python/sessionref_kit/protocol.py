"""The adapter protocol, version 1 (spec/protocol.md): JSON lines on stdin and stdout."""

import asyncio
import inspect
import sys
import time

from .errors import AdapterError, wire_code
from .host import host_send
from .jsjson import UNDEFINED, parse, stringify
from .port import Agent
from .world import Cancel, FakeSessionQuery, WorldCache, copy_world, normalized_sources

__all__ = ["MAX_LINE_BYTES", "Handler", "lines", "decode_line", "encode_response", "serve_streams", "serve"]

MAX_LINE_BYTES = 64 << 20
"""The protocol's bound on a line, in bytes, either way."""

FEATURES = ("lone-surrogates", "host")


def _bad(message):
    return AdapterError("ADAPTER_PROTOCOL", message)


async def _await(v):
    return await v if inspect.isawaitable(v) else v


def _agent(v):
    if not isinstance(v, dict):
        raise _bad("agent is not an object")
    if not isinstance(v.get("id"), str):
        raise _bad("agent.id is not a string")
    if "cwd" in v and not isinstance(v["cwd"], str):
        raise _bad("agent.cwd is not a string")
    return Agent(v["id"], v.get("cwd"))


class _Failure(Exception):
    """An error with the extra keys of its wire error object (lists, reads)."""

    def __init__(self, error, extra):
        super().__init__(str(error))
        self.error, self.extra = error, extra


class Handler:
    """Answers one request at a time for a port: the world cache, and the dispatch of the
    protocol's ops to the port's interface."""

    def __init__(self, port, name, version, features=(), spec="0.0.1-rc.1"):
        for f in features:
            if f not in FEATURES:
                raise ValueError(f"unknown feature {f!r} (a port declares lone-surrogates and host; the kit adds world-cache and pipelining)")
        self.port, self.spec, self.host = port, spec, "host" in features
        self.hello = {"protocol": 1, "name": str(name), "version": str(version), "spec": spec,
                      "features": list(features) + ["world-cache", "pipelining"]}
        self.worlds = WorldCache()

    async def answer(self, request):
        """The response object of one decoded request."""
        rid = request.get("id") if isinstance(request, dict) else None
        if not isinstance(request, dict) or not isinstance(request.get("op"), str):
            return {"id": rid, "ok": False, "error": {"code": "ADAPTER_PROTOCOL", "message": "a request is an object with a string op"}}
        args = request.get("args", {})
        if not isinstance(args, dict):
            return {"id": rid, "ok": False, "error": {"code": "ADAPTER_PROTOCOL", "message": "args is not an object"}}
        start = time.perf_counter_ns()
        try:
            result = await self._dispatch(request["op"], args)
            return {"id": rid, "ok": True, "result": result, "elapsedNs": time.perf_counter_ns() - start}
        except (Exception, asyncio.CancelledError) as e:  # every failure of the port is an answer
            error, extra = (e.error, e.extra) if isinstance(e, _Failure) else (e, {})
            body = {"code": wire_code(error), "message": str(error) or type(error).__name__, **extra}
            return {"id": rid, "ok": False, "error": body, "elapsedNs": time.perf_counter_ns() - start}

    async def _dispatch(self, op, args):
        port = self.port
        arg = lambda k: args.get(k, UNDEFINED)  # noqa: E731
        if op == "hello":
            return self.hello
        if op == "uri.encode":
            return await _await(port.encode_uri(arg("sessionId")))
        if op == "uri.decode":
            return await _await(port.decode_uri(arg("uri")))
        if op == "mention.format":
            return await _await(port.format_mention(arg("sessionId"), arg("label")))
        if op == "mention.parse":
            p = await _await(port.parse_mentions(arg("text")))
            return {"text": p.text, "references": [{"sessionId": r.session_id, "label": r.label} for r in p.references]}
        if op == "world.define":
            return self.worlds.define(arg("key"), arg("world"))
        if op == "config":
            s = await _await(port.create_service(FakeSessionQuery({"sessions": [], "listError": None}), arg("config")))
            c = s.config
            return {"maxReferences": c.max_references, "candidateLimit": c.candidate_limit, "maxReferenceBytes": c.max_reference_bytes}
        if op == "candidates":
            return await self._candidates(args, arg)
        if op == "prepare":
            return await self._prepare(args, arg)
        if op == "host.send" and self.host:
            world = copy_world(self.worlds.resolve(arg("world")))
            agent = _agent(arg("agent"))
            service = await _await(port.create_service(FakeSessionQuery(world), arg("config")))
            return await host_send(port, service, world, agent, args, self.spec)
        raise AdapterError("ADAPTER_UNSUPPORTED", f"unsupported op {stringify(op)}")

    async def _setup(self, arg, reads=False):
        # World, agent, service, cancel: the reference adapter's order.
        world = self.worlds.resolve(arg("world"))
        agent = _agent(arg("agent"))
        query = FakeSessionQuery(world)
        service = await _await(self.port.create_service(query, arg("config")))
        if not reads:  # candidates: the listing is held
            query.cancel = Cancel(arg("cancel"))
            return agent, service, query
        # prepare: the first normalized source's read is held; the others are counted.
        try:
            most = service.config.max_references
        except Exception:  # the port's config is broken: its prepare will say so; cap nothing
            most = float("inf")
        sources = normalized_sources(agent.id, arg("references"), most)
        query.cancel = Cancel(arg("cancel"), sources[0] if sources else None, max(0, len(sources) - 1))
        return agent, service, query

    async def _candidates(self, args, arg):
        agent, service, query = await self._setup(arg)
        try:
            cands = await _await(service.list_candidates(agent, arg("query"), arg("limit"), query.cancel.signal))
        except (Exception, asyncio.CancelledError) as e:
            raise _Failure(e, {"lists": query.lists})
        finally:
            query.cancel.release()
        out = []
        for c in cands:
            d = {"sessionId": c.session_id, "label": c.label}
            if c.cwd is not None:
                d["cwd"] = c.cwd
            d["createdAt"] = c.created_at
            out.append(d)
        return {"candidates": out, "titleReads": list(query.title_reads)}

    async def _prepare(self, args, arg):
        query = None
        try:
            agent, service, query = await self._setup(arg, reads=True)
            p = await _await(service.prepare(agent, arg("content"), arg("references"), query.cancel.signal))
        except (Exception, asyncio.CancelledError) as e:
            raise _Failure(e, {"reads": list(query.reads) if query else []})
        finally:
            if query:
                query.cancel.release()
        out = {}
        if "content" in args:
            out["content"] = p.content
        ctx = p.additional_context
        out["additionalContext"] = None if ctx is None else {k: v for k, v in ctx.items() if k != "id"}
        out["reads"] = list(query.reads)
        return out


def lines(stream, max_bytes=MAX_LINE_BYTES):
    """Splits a binary stream into lines (bytes, LF and one CR before it removed) of at most
    max_bytes; an overlong line is None, its bytes dropped as they come."""
    while True:
        line = stream.readline(max_bytes + 2)
        if not line:
            return
        if line.endswith(b"\n") or len(line) < max_bytes + 2:
            body = line[:-1] if line.endswith(b"\n") else line
            if body.endswith(b"\r"):
                body = body[:-1]
            yield body if len(body) <= max_bytes else None
            continue
        while True:
            rest = stream.readline(1 << 20)
            if not rest or rest.endswith(b"\n"):
                break
        yield None


def decode_line(data):
    """One request: strict UTF-8 (a raw surrogate's bytes refused), then JSON.parse."""
    return parse(data.decode("utf-8"))


def encode_response(response, max_bytes=MAX_LINE_BYTES):
    """One response line, JSON.stringify-exact; an answer over the bound becomes
    ADAPTER_UNSUPPORTED, which the protocol can carry."""
    rid = response.get("id")
    try:
        line = stringify(response).encode("utf-8")
    except Exception as e:
        line = stringify({"id": rid, "ok": False, "error": {"code": None, "message": f"the answer is not JSON: {e}"}}).encode("utf-8")
    if len(line) > max_bytes:
        line = stringify({"id": rid, "ok": False, "error": {"code": "ADAPTER_UNSUPPORTED", "message": "the answer is longer than the protocol's 64 MiB line"}}).encode("utf-8")
    return line + b"\n"


def serve_streams(handler, stdin, stdout, max_bytes=MAX_LINE_BYTES):
    """Serves a handler on binary streams until stdin ends: one answer per line, in order."""
    loop = asyncio.new_event_loop()
    try:
        for data in lines(stdin, max_bytes):
            if data == b"":
                continue
            if data is None:
                response = {"id": None, "ok": False, "error": {"code": "ADAPTER_PROTOCOL", "message": f"request line longer than {max_bytes} bytes"}}
            else:
                try:
                    request = decode_line(data)
                except (ValueError, UnicodeDecodeError) as e:
                    response = {"id": None, "ok": False, "error": {"code": "ADAPTER_PROTOCOL", "message": f"request is not a JSON line in UTF-8: {e}"}}
                else:
                    response = loop.run_until_complete(handler.answer(request))
            stdout.write(encode_response(response, max_bytes))
            stdout.flush()
    finally:
        loop.close()


def serve(port, name, version, features=(), spec="0.0.1-rc.1"):
    """Serves port on stdin and stdout until stdin ends. print() goes to stderr meanwhile, so
    nothing but answers reaches stdout."""
    out = sys.stdout.buffer
    sys.stdout = sys.stderr
    # JSON values nest: the C parser and the recursive writer and copies of a port recurse per
    # level. 20,000 frames let about 9,000 levels through (tested, no C stack overflow).
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    serve_streams(Handler(port, name, version, features, spec), sys.stdin.buffer, out)
