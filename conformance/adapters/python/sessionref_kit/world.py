"""The fake session-query service of a world document (spec/protocol.md, "The world"), the
calls it records, the abort signal and the four cancel modes, for asyncio."""

import asyncio

from .errors import AdapterError
from .jsjson import UNDEFINED, stringify

__all__ = ["AbortSignal", "Cancel", "CANCEL_MODES", "FIRST_CALL", "normalized_sources", "parse_world", "copy_world", "WorldCache", "FakeSessionQuery", "apply_mutations"]


def _bad(message):
    return AdapterError("ADAPTER_PROTOCOL", message)


def _only_keys(o, where, keys):
    for k in o:
        if k not in keys:
            raise _bad(f"{where}: unknown key {stringify(k)}")


def _opt_string(o, key, where):
    v = o.get(key)
    if v is None:  # null is the key absent
        return None
    if not isinstance(v, str):
        raise _bad(f"{where}.{key}: not a string")
    return v


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def parse_world(doc):
    """Checks a world document as the kit does (conformance/protocol/world.go) and returns it
    as the fake reads it: {"sessions": [...], "listError": str|None}, each session with
    header, title, titleError, readError (None when absent or null) and surface (None, or
    {"capturedThroughSeq", "events"}). Raises AdapterError(ADAPTER_PROTOCOL)."""
    if not isinstance(doc, dict):
        raise _bad("world: not an object")
    _only_keys(doc, "world", ("sessions", "listError"))
    list_error = _opt_string(doc, "listError", "world")
    sessions = doc.get("sessions", [])
    if not isinstance(sessions, list):
        raise _bad("world: sessions is not an array")
    return {"sessions": [_session(s, f"world: sessions[{i}]") for i, s in enumerate(sessions)], "listError": list_error}


def _session(s, where):
    if not isinstance(s, dict):
        raise _bad(f"{where}: not an object")
    _only_keys(s, where, ("header", "title", "titleError", "surface", "readError"))
    h = s.get("header")
    if not isinstance(h, dict):
        raise _bad(f"{where}.header: not an object")
    if not isinstance(h.get("id"), str):
        raise _bad(f"{where}.header: id is not a string")
    if not _is_number(h.get("createdAt")):
        raise _bad(f"{where}.header: createdAt is not a number")
    if "cwd" in h and not isinstance(h["cwd"], str):
        raise _bad(f"{where}.header: cwd is not a string")
    out = {
        "header": h,
        "title": _opt_string(s, "title", where),
        "titleError": _opt_string(s, "titleError", where),
        "readError": _opt_string(s, "readError", where),
        "surface": None,
    }
    surface = s.get("surface")
    if surface is not None:
        if not isinstance(surface, dict):
            raise _bad(f"{where}.surface: not an object")
        _only_keys(surface, where + ".surface", ("capturedThroughSeq", "events"))
        seq = surface.get("capturedThroughSeq")
        if seq is not None and not _is_number(seq):
            raise _bad(f"{where}.surface.capturedThroughSeq: not a number or null")
        events = surface.get("events")
        events = [] if events is None else events
        if not isinstance(events, list):
            raise _bad(f"{where}.surface.events: not an array")
        out["surface"] = {"capturedThroughSeq": seq, "events": events}
    return out


def copy_world(world):
    """A request's own copy: mutations change it and nothing else (events are shared, never
    written into)."""
    return {
        "listError": world["listError"],
        "sessions": [
            {**s, "surface": None if s["surface"] is None else {**s["surface"], "events": list(s["surface"]["events"])}}
            for s in world["sessions"]
        ],
    }


class WorldCache:
    """world.define's store: key -> parsed world. A request naming a key gets a fresh copy."""

    def __init__(self):
        self._worlds = {}

    def define(self, key, doc):
        if not isinstance(key, str):
            raise _bad("world.define: key is not a string")
        if isinstance(doc, dict) and "$ref" in doc:
            raise _bad("world.define: world is a reference, not a document")
        self._worlds[key] = parse_world(doc)
        return {"key": key}

    def resolve(self, arg):
        """The world a request names: a document, or {"$ref": KEY}."""
        if not isinstance(arg, dict) or "$ref" not in arg:
            return parse_world(arg)
        key = arg["$ref"]
        if not isinstance(key, str) or len(arg) != 1:
            raise _bad('a world reference is {"$ref": KEY} with a string KEY and no other key')
        if key not in self._worlds:
            raise _bad(f"world: no world defined under {stringify(key)} (world.define it first)")
        return copy_world(self._worlds[key])


class AbortSignal:
    """JavaScript's AbortSignal for asyncio: aborted, reason, listeners called at the abort
    (as in JavaScript, one added after it is never called: check .aborted), and wait()."""

    def __init__(self):
        self.aborted = False
        self.reason = None
        self._listeners = []
        self._waiters = []

    def add_listener(self, callback):
        self._listeners.append(callback)

    def remove_listener(self, callback):
        if callback in self._listeners:
            self._listeners.remove(callback)

    async def wait(self):
        """Returns once the signal is aborted."""
        if self.aborted:
            return
        f = asyncio.get_running_loop().create_future()
        self._waiters.append(f)
        await f

    def _abort(self, reason="aborted"):
        if self.aborted:
            return
        self.aborted = True
        self.reason = reason
        for callback in list(self._listeners):
            callback()
        self._listeners.clear()
        for f in self._waiters:
            if not f.done():
                f.set_result(None)


CANCEL_MODES = ("before", "during-read", "at-call", "never")

# Backstops, for a port that waits for the held call alone (spec/protocol.md, cancel): how long
# during-read waits for the other reads to be made, and at-call's other calls for the held call
# to be made (MADE_GRACE); how long during-read waits, after another read failed, before it
# aborts anyway (FAILED_GRACE). The values are the Go bridge's. Neither decides the answer of a
# port that starts its reads at once and fails on the first failure, as the seed does.
MADE_GRACE = 0.5
FAILED_GRACE = 0.2

FIRST_CALL = object()
"""Cancel's default hold: the request's first call, whatever it is (a candidates' listing)."""


def normalized_sources(agent_id, references, max_references):
    """The ids a valid prepare reads, in order: the distinct sessionIds of references in
    first-mention order; [] when the references are not valid (not an array, an element that
    is no object or has no string sessionId, a label that is not a string, a reference to the
    agent itself, more sources than max_references), as the contract then reads nothing."""
    if not isinstance(references, list):
        return []
    ids = []
    for r in references:
        if not isinstance(r, dict) or not isinstance(r.get("sessionId"), str):
            return []
        label = r.get("label", UNDEFINED)
        if label is not UNDEFINED and not isinstance(label, str):
            return []
        if r["sessionId"] == agent_id:
            return []
        if r["sessionId"] not in ids:
            ids.append(r["sessionId"])
    return [] if len(ids) > max_references else ids


class Cancel:
    """One request's abort signal and the rule that aborts it (spec/protocol.md, "cancel"),
    decided by what the fake's calls see, never by a clock or by event-loop turns. This class
    is the one place that knows the modes:

    - before: aborted before the implementation starts;
    - never: a live signal nothing aborts;
    - at-call: the held call aborts the signal as it is made, and never settles; every other
      call returns only after that abort (one made earlier waits for the held call);
    - during-read: the held call never settles; the signal aborts as soon as the held call has
      been made and `others` other calls have returned successfully (at once when others is
      0), and never once another call has failed.

    The held call is the request's first call (hold FIRST_CALL: the listing of a candidates),
    the read of hold (a session id: the first normalized source of a prepare,
    normalized_sources), or none (hold None: a prepare that reads nothing). `others` is the number of other reads the request makes: one per other
    normalized source. Two backstops, MADE_GRACE and FAILED_GRACE, end waits that would
    otherwise last for ever for a port that waits for the held call alone.
    """

    def __init__(self, mode, hold=FIRST_CALL, others=0):
        if mode is not UNDEFINED and mode not in CANCEL_MODES:
            raise AdapterError("ADAPTER_UNSUPPORTED", f"unsupported cancel mode {stringify(mode)}")
        self.mode = None if mode is UNDEFINED else mode
        self.signal = None if self.mode is None else AbortSignal()
        if self.mode == "before":
            self.signal._abort()
        self.hold, self.others = hold, others
        self._held = []  # the held call's future (never completed; cancelled at release)
        self._made = None  # at-call: done once the held call has aborted the signal
        self._started = 0  # during-read: other calls made
        self._succeeded = 0  # during-read: other calls returned successfully
        self._failed = False  # during-read: another call failed
        self._timers = []
        self._released = False

    def _holds(self, session_id):
        if self._held or self.mode not in ("during-read", "at-call") or self.hold is None:
            return False
        return self.hold is FIRST_CALL or session_id == self.hold

    def call(self, work, session_id=None):
        """Called by the fake as a call is made, with the coroutine of its work and, for a
        surface read, its session id. Returns what the implementation awaits: a task of the
        work, or a future that never completes for the held call."""
        loop = asyncio.get_running_loop()
        if self._holds(session_id):
            work.close()
            held = loop.create_future()
            self._held.append(held)
            if self.mode == "at-call":
                self.signal._abort()
                self._open()
            else:
                # Once the held call has returned its future: others may all have succeeded.
                loop.call_soon(self._decide)
                if self._started < self.others:
                    self._after(MADE_GRACE, self._not_made)
            return held
        if self.mode == "at-call" and self.hold is not None:
            work = self._after_abort(work)
        task = loop.create_task(work)
        if self.mode == "during-read":
            self._started += 1
            task.add_done_callback(self._settled)
        return task

    async def _after_abort(self, work):
        # at-call: this call returns once the held call has aborted (MADE_GRACE at most, for a
        # port that never makes it), as every outcome comes after the abort in the seed.
        if not self._held and not self._released:
            if self._made is None:
                self._made = asyncio.get_running_loop().create_future()
                self._after(MADE_GRACE, self._open)
            await asyncio.shield(self._made)
        return await work

    def _open(self):
        if self._made is not None and not self._made.done():
            self._made.set_result(None)

    def _settled(self, task):
        if task.cancelled() or task.exception() is not None:
            if not self._failed:
                self._failed = True
                self._after(FAILED_GRACE, self._backstop)
            return
        self._succeeded += 1
        self._decide()

    def _decide(self):
        """The rule: the held call made, and every other read returned successfully."""
        if self._held and not self._failed and self._succeeded >= self.others and not self._released:
            self.signal._abort()

    def _not_made(self):
        if self._started < self.others and not self._failed:
            self._backstop()

    def _backstop(self):
        if self._held and not self._released:
            self.signal._abort()

    def _after(self, delay, callback):
        if not self._released:
            self._timers.append(asyncio.get_running_loop().call_later(delay, callback))

    def release(self):
        """Ends the held call once the implementation has returned (cancels its future), and
        every backstop."""
        self._released = True
        for t in self._timers:
            t.cancel()
        self._open()
        for f in self._held:
            f.cancel()


class FakeSessionQuery:
    """The fake ctx.sessionQuery of one request over a parsed world, recording its calls:
    lists (listings made), title_reads (ids passed to read_title_snapshots, in call order)
    and reads (ids passed to read_surface). Its methods return awaitables, made as the call
    is made (a call that never settles is recorded too)."""

    def __init__(self, world, cancel=None):
        self.world = world
        self.cancel = cancel or Cancel(UNDEFINED)
        # The first session of each id, as a search in document order finds it; built once,
        # so title reads over n sessions are O(n). Mutations come after the calls.
        self._by_id = {}
        for s in world["sessions"]:
            self._by_id.setdefault(s["header"]["id"], s)
        self.lists = 0
        self.title_reads = []
        self.reads = []

    def _find(self, session_id):
        return self._by_id.get(session_id) if isinstance(session_id, str) else None

    def list_sessions(self, signal=None):
        """Resolves to [{"header", "live": False, "persisted": True}] in document order, or
        raises Exception(listError)."""
        self.lists += 1

        async def work():
            if self.world["listError"] is not None:
                raise Exception(self.world["listError"])
            return [{"header": s["header"], "live": False, "persisted": True} for s in self.world["sessions"]]

        return self.cancel.call(work())

    def read_title_snapshots(self, ids, signal=None):
        """Resolves to one settlement per unique id, in first-occurrence order:
        {"sessionId", "status": "fulfilled", "value": {"session": header, "title"?: {"title"}}}
        or {"sessionId", "status": "rejected", "reason": Exception}."""
        ids = list(ids)
        self.title_reads.extend(ids)

        async def work():
            out, seen = [], set()
            for i in ids:
                if i in seen:
                    continue
                seen.add(i)
                s = self._find(i)
                if s is None:
                    out.append({"sessionId": i, "status": "rejected", "reason": Exception("session not found")})
                elif s["titleError"] is not None:
                    out.append({"sessionId": i, "status": "rejected", "reason": Exception(s["titleError"])})
                else:
                    value = {"session": s["header"]}
                    if s["title"] is not None:
                        value["title"] = {"title": s["title"]}
                    out.append({"sessionId": i, "status": "fulfilled", "value": value})
            return out

        return self.cancel.call(work())

    def read_surface(self, session_id):
        """Resolves to {"session": header, "capturedThroughSeq", "events"}, or raises
        Exception(readError); an unknown id fails the read."""
        self.reads.append(session_id)

        async def work():
            s = self._find(session_id)
            if s is None:
                raise Exception(f"session {stringify(session_id)} not found")
            if s["readError"] is not None:
                raise Exception(s["readError"])
            surface = s["surface"] or {"capturedThroughSeq": None, "events": []}
            return {"session": s["header"], "capturedThroughSeq": surface["capturedThroughSeq"], "events": surface["events"]}

        return self.cancel.call(work(), session_id)


def apply_mutations(world, mutations):
    """host.send's mutations, on the request's copy of the world."""
    if mutations is UNDEFINED:
        return
    if not isinstance(mutations, list):
        raise _bad("mutations is not an array")
    for m in mutations:
        if not isinstance(m, dict):
            raise _bad("a mutation is not an object")
        sessions = world["sessions"]
        i = next((j for j, s in enumerate(sessions) if s["header"]["id"] == m.get("sessionId")), -1)
        if i < 0:
            raise _bad(f"mutation names unknown session {stringify(m.get('sessionId'))}")
        s = sessions[i] = dict(sessions[i])
        s["surface"] = dict(s["surface"] or {"capturedThroughSeq": None, "events": []})
        op = m.get("op")
        if op == "append":
            if not isinstance(m.get("events"), list):
                raise _bad("append mutation has no events array")
            s["surface"]["events"] = list(s["surface"]["events"]) + m["events"]
        elif op == "compact":
            source = {"kind": "plugin", "plugin": "compact", "compactionId": "c-mutation"}
            data = {"id": "m-compact", "role": "user", "content": [{"type": "text", "text": m.get("summary")}], "source": source}
            s["surface"]["events"] = [{"type": "user/message", "seq": 0, "data": data}]
        elif op == "delete":
            del sessions[i]
        else:
            raise _bad(f"unknown mutation op {stringify(op) if op is not None else 'null'}")
