"""The kit's plumbing: lines and limits, codes, the world, the cancel modes, the host model."""

import asyncio
import io
import json
import unittest

from sessionref_kit import (
    UNDEFINED, AdapterError, Cancel, Code, EffectiveConfig, FakeSessionQuery, Handler, Parsed, Prepared,
    Reference, SessionReferenceError, WorldCache, parse_world, serve_streams, wire_code,
)
from sessionref_kit.protocol import decode_line, encode_response, lines


def run(coro):
    return asyncio.new_event_loop().run_until_complete(coro)


class Lines(unittest.TestCase):
    def test_split_and_bound(self):
        self.assertEqual(list(lines(io.BytesIO(b"a\r\nbc\nd"), 8)), [b"a", b"bc", b"d"])
        self.assertEqual(list(lines(io.BytesIO(b"0123456789\nok\n"), 8)), [None, b"ok"])
        self.assertEqual(list(lines(io.BytesIO(b"12345678\r\n123456789\r\n"), 8)), [b"12345678", None])
        self.assertEqual(list(lines(io.BytesIO(b"x" * 50), 8)), [None])

    def test_decode_strict(self):
        with self.assertRaises(UnicodeDecodeError):
            decode_line(b'"\xed\xa0\x80"')
        with self.assertRaises(UnicodeDecodeError):
            decode_line(b'"\xff"')
        self.assertEqual(decode_line(b'"\\ud800x"'), "\ud800x")

    def test_encode(self):
        self.assertEqual(encode_response({"id": 1.0, "ok": True, "result": "\udabc\ud83d\ude00"}), '{"id":1,"ok":true,"result":"\\udabc😀"}\n'.encode())
        big = json.loads(encode_response({"id": 7.0, "ok": True, "result": "x" * 100}, 64))
        self.assertEqual([big["id"], big["ok"], big["error"]["code"]], [7, False, "ADAPTER_UNSUPPORTED"])

    def test_wire_code(self):
        self.assertEqual(wire_code(SessionReferenceError("m", Code.TOO_MANY)), Code.TOO_MANY)
        self.assertEqual(wire_code(AdapterError("ADAPTER_PROTOCOL", "m")), "ADAPTER_PROTOCOL")
        e = ValueError("m")
        e.code = "ADAPTER_PROTOCOL"
        self.assertIsNone(wire_code(e))
        self.assertIsNone(wire_code(TypeError("m")))
        e.code = Code.CANCELLED
        self.assertEqual(wire_code(e), Code.CANCELLED)


WORLD = {"sessions": [
    {"header": {"id": "a", "createdAt": 1.0}, "title": ""},
    {"header": {"id": "b", "createdAt": 2.0, "cwd": "/r"}, "titleError": "t", "title": "T", "readError": "r"},
    {"header": {"id": "c", "createdAt": 3.0}, "surface": {"capturedThroughSeq": 4.0, "events": [1.0]}},
]}


class World(unittest.TestCase):
    def test_null_is_absent_and_malformed_is_protocol(self):
        w = parse_world({"sessions": [{"header": {"id": "a", "createdAt": 1.0, "x": 2}, "title": None, "surface": {"capturedThroughSeq": None}}], "listError": None})
        self.assertEqual(w["sessions"][0]["surface"], {"capturedThroughSeq": None, "events": []})
        self.assertIsNone(w["sessions"][0]["title"])
        for bad in [None, [], {"sessions": {}}, {"sessions": [{"header": {"id": 1, "createdAt": 1}}]},
                    {"sessions": [{"header": {"id": "a", "createdAt": 1, "cwd": None}}]}, {"sessions": [], "x": 1},
                    {"sessions": [{"header": {"id": "a", "createdAt": True}}]}, {"sessions": [{"header": {"id": "a", "createdAt": 1}, "title": 3}]}]:
            with self.assertRaises(AdapterError, msg=repr(bad)) as cm:
                parse_world(bad)
            self.assertEqual(cm.exception.code, "ADAPTER_PROTOCOL")

    def test_fake(self):
        async def go():
            q = FakeSessionQuery(parse_world(WORLD))
            recs = await q.list_sessions()
            t = await q.read_title_snapshots(["a", "b", "a", "zz", "c"])
            with self.assertRaisesRegex(Exception, "^r$"):
                await q.read_surface("b")
            with self.assertRaises(Exception):
                await q.read_surface("zz")
            c = await q.read_surface("c")
            a = await q.read_surface("a")
            return q, recs, t, c, a

        q, recs, t, c, a = run(go())
        self.assertEqual([(r["header"]["id"], r["live"], r["persisted"]) for r in recs], [("a", False, True), ("b", False, True), ("c", False, True)])
        self.assertEqual([(s["sessionId"], s["status"]) for s in t], [("a", "fulfilled"), ("b", "rejected"), ("zz", "rejected"), ("c", "fulfilled")])
        self.assertEqual(t[0]["value"]["title"], {"title": ""})
        self.assertNotIn("title", t[3]["value"])
        self.assertEqual(str(t[1]["reason"]), "t")
        self.assertEqual((c["capturedThroughSeq"], c["events"]), (4.0, [1.0]))
        self.assertEqual((a["capturedThroughSeq"], a["events"]), (None, []))
        self.assertEqual((q.lists, q.title_reads, q.reads), (1, ["a", "b", "a", "zz", "c"], ["b", "zz", "c", "a"]))

        async def failing():
            await FakeSessionQuery(parse_world({"sessions": [], "listError": "down"})).list_sessions()

        with self.assertRaisesRegex(Exception, "down"):
            run(failing())

    def test_cache(self):
        cache = WorldCache()
        self.assertEqual(cache.define("k", {"sessions": [{"header": {"id": "a", "createdAt": 1.0}}]}), {"key": "k"})
        cache.resolve({"$ref": "k"})["sessions"].clear()
        self.assertEqual(len(cache.resolve({"$ref": "k"})["sessions"]), 1)
        for bad in [{"$ref": "nope"}, {"$ref": 1.0}, {"$ref": "k", "sessions": []}, UNDEFINED]:
            with self.assertRaises(AdapterError):
                cache.resolve(bad)
        with self.assertRaises(AdapterError):
            cache.define("j", {"$ref": "k"})


async def prepare_like(q, ids, signal):
    """A service in the seed's manner: every read started, the gather raced with the signal."""
    if signal is not None and signal.aborted:
        return "cancelled"
    work = asyncio.gather(*[q.read_surface(i) for i in ids])
    work.add_done_callback(lambda f: f.cancelled() or f.exception())
    waiter = asyncio.get_running_loop().create_future()
    if signal is not None:
        signal.add_listener(lambda: waiter.done() or waiter.set_exception(RuntimeError("aborted")))
    work.add_done_callback(lambda f: waiter.done() or (waiter.set_exception(f.exception()) if f.exception() else waiter.set_result(f.result())))
    try:
        await waiter
        return "ok"
    except Exception:
        return "cancelled" if signal is not None and signal.aborted else "read-failed"


class CancelModes(unittest.TestCase):
    world = parse_world({"sessions": [{"header": {"id": "a", "createdAt": 1.0}}, {"header": {"id": "b", "createdAt": 1.0}, "readError": "x"}, {"header": {"id": "c", "createdAt": 1.0}}]})

    def run_mode(self, mode, ids):
        async def go():
            q = FakeSessionQuery(self.world)
            q.cancel = Cancel(mode, ids[0], len(ids) - 1)  # as the handler arms a prepare
            out = await prepare_like(q, ids, q.cancel.signal)
            q.cancel.release()
            for _ in range(3):  # let the cancelled gather's callbacks run
                await asyncio.sleep(0)
            return out, q.reads

        return run(go())

    def test_modes(self):
        self.assertEqual(self.run_mode(UNDEFINED, ["a", "c"]), ("ok", ["a", "c"]))
        self.assertEqual(self.run_mode("never", ["a", "c"]), ("ok", ["a", "c"]))
        self.assertEqual(self.run_mode("before", ["a"]), ("cancelled", []))
        # during-read: the held first read never fails; a failing other read is seen first.
        self.assertEqual(self.run_mode("during-read", ["b", "a"]), ("cancelled", ["b", "a"]))
        self.assertEqual(self.run_mode("during-read", ["a", "b"]), ("read-failed", ["a", "b"]))
        self.assertEqual(self.run_mode("during-read", ["a", "c"]), ("cancelled", ["a", "c"]))
        self.assertEqual(self.run_mode("at-call", ["a", "b"]), ("cancelled", ["a", "b"]))
        with self.assertRaises(AdapterError) as cm:
            Cancel("later")
        self.assertEqual(cm.exception.code, "ADAPTER_UNSUPPORTED")

    def test_during_read_waits_for_pending_calls(self):
        async def go():
            c = Cancel("during-read", others=1)
            held = c.call(asyncio.sleep(0))
            gate = asyncio.Event()
            other = c.call(gate.wait())
            for _ in range(100):
                await asyncio.sleep(0)
            before = c.signal.aborted
            gate.set()
            await other
            after = c.signal.aborted  # at once: the abort comes from the success's settlement
            c.release()
            return before, after, held.cancelled()

        self.assertEqual(run(go()), (False, True, True))

    # The rule counts the other reads and their outcomes (spec/protocol.md, cancel); the tests
    # below failed when the kit aborted after 16 event-loop turns with no call pending.

    def test_during_read_waits_for_a_read_not_yet_made(self):
        async def go():
            q = FakeSessionQuery(self.world)
            q.cancel = Cancel("during-read", "a", 1)
            held = q.read_surface("a")
            for _ in range(50):  # a port that starts its other read late
                await asyncio.sleep(0)
            before = q.cancel.signal.aborted
            await q.read_surface("c")
            after = q.cancel.signal.aborted
            q.cancel.release()
            return before, after, held.cancelled()

        self.assertEqual(run(go()), (False, True, True))

    def test_during_read_never_aborts_after_a_failure(self):
        async def go():
            q = FakeSessionQuery(self.world)
            q.cancel = Cancel("during-read", "a", 2)
            failing = q.read_surface("b")  # fails before the held read is made
            with self.assertRaises(Exception):
                await failing
            q.read_surface("a")
            ok = q.read_surface("c")
            await ok
            for _ in range(50):  # a port slow to act on the failure
                await asyncio.sleep(0)
            aborted = q.cancel.signal.aborted
            q.cancel.release()
            return aborted

        self.assertFalse(run(go()))

    def test_during_read_backstop_after_a_failure(self):
        async def go():
            q = FakeSessionQuery(self.world)
            q.cancel = Cancel("during-read", "a", 1)
            q.read_surface("a")
            with self.assertRaises(Exception):
                await q.read_surface("b")
            # A port that waits for every read, the held one included, is not left waiting.
            await asyncio.wait_for(q.cancel.signal.wait(), 5)
            q.cancel.release()
            return q.cancel.signal.aborted

        self.assertTrue(run(go()))

    def test_the_held_call_is_the_first_sources_read(self):
        async def go():
            q = FakeSessionQuery(self.world)
            q.cancel = Cancel("during-read", "a", 1)
            first = await q.read_surface("c")  # made first, yet not the held call
            held = q.read_surface("a")
            await asyncio.sleep(0)
            q.cancel.release()
            return first["session"]["id"], q.cancel.signal.aborted, held.cancelled()

        self.assertEqual(run(go()), ("c", True, True))

    def test_at_call_other_calls_return_after_the_abort(self):
        async def go():
            q = FakeSessionQuery(self.world)
            q.cancel = Cancel("at-call", "a", 1)
            early = q.read_surface("b")  # made before the held read: waits for its abort
            for _ in range(50):
                await asyncio.sleep(0)
            waited = not early.done()
            q.read_surface("a")
            aborted = q.cancel.signal.aborted
            with self.assertRaises(Exception):
                await early
            q.cancel.release()
            return waited, aborted

        self.assertEqual(run(go()), (True, True))

    def test_normalized_sources(self):
        from sessionref_kit import normalized_sources
        r = lambda *ids: [{"sessionId": i} for i in ids]  # noqa: E731
        self.assertEqual(normalized_sources("me", r("a", "b", "a", "c"), 3), ["a", "b", "c"])
        self.assertEqual(normalized_sources("me", r("a", "b", "c", "d"), 3), [])
        self.assertEqual(normalized_sources("me", r("a", "me"), 3), [])
        self.assertEqual(normalized_sources("me", r("a") + [None], 3), [])
        self.assertEqual(normalized_sources("me", [{"sessionId": "a", "label": 1.0}], 3), [])
        self.assertEqual(normalized_sources("me", [{"sessionId": "a", "label": "A"}], 3), ["a"])
        self.assertEqual(normalized_sources("me", UNDEFINED, 3), [])


class SlowService:
    """A seed-like prepare whose awaits take event-loop turns: its other reads start `late`
    turns after the first, and it acts on a failure `slow` turns after seeing it. The seed's
    answers do not depend on turns, so neither may the kit's cancel modes."""

    def __init__(self, query, late, slow):
        self.query, self.late, self.slow = query, late, slow
        self.config = EffectiveConfig(3, 50, 65536)

    async def list_candidates(self, agent, query, limit, signal):
        raise AdapterError("ADAPTER_UNSUPPORTED", "prepare only")

    async def prepare(self, agent, content, refs, signal):
        ids = list(dict.fromkeys(r["sessionId"] for r in refs))
        reads = [self.query.read_surface(ids[0])]
        for _ in range(self.late):
            await asyncio.sleep(0)
        reads += [self.query.read_surface(i) for i in ids[1:]]
        done = asyncio.get_running_loop().create_future()

        def failed(f):
            if not f.cancelled() and f.exception() is not None and not done.done():
                done.set_exception(f.exception())

        for r in reads:
            r.add_done_callback(failed)
        cancel = lambda: done.done() or done.set_exception(SessionReferenceError("cancelled", Code.CANCELLED))  # noqa: E731
        signal.add_listener(cancel)
        if signal.aborted:  # a listener added after the abort is never called
            cancel()
        try:
            await done
        except SessionReferenceError:
            raise
        except Exception:
            for _ in range(self.slow):
                await asyncio.sleep(0)
            if signal.aborted:
                raise SessionReferenceError("cancelled", Code.CANCELLED)
            raise SessionReferenceError("read failed", Code.READ_FAILED)
        return Prepared(content, None)


class CancelThroughTheHandler(unittest.TestCase):
    """The cancel modes as a port sees them through the handler: decided by the reads'
    outcomes whatever the turns the port takes (both cases failed when the kit aborted after
    16 quiet event-loop turns)."""

    world = {"sessions": [{"header": {"id": "a", "createdAt": 1.0}}, {"header": {"id": "b", "createdAt": 1.0}, "readError": "x"},
                          {"header": {"id": "c", "createdAt": 1.0}}]}

    def answer(self, refs, late, slow, mode="during-read"):
        class P(EchoPort):
            def create_service(self, query, config):
                return SlowService(query, late, slow)

        h = Handler(P(), "slow", "0")
        req = {"id": 1, "op": "prepare", "args": {"world": self.world, "agent": {"id": "me"}, "content": "x",
                                                  "references": [{"sessionId": i} for i in refs], "cancel": mode}}
        resp = run(h.answer(req))
        return resp["error"]["code"] if not resp["ok"] else "ok"

    def test_a_late_failing_read_decides(self):
        self.assertEqual(self.answer(["a", "b"], late=40, slow=0), Code.READ_FAILED)

    def test_a_failure_acted_on_slowly_decides(self):
        self.assertEqual(self.answer(["a", "b"], late=0, slow=40), Code.READ_FAILED)

    def test_late_successes_then_the_abort(self):
        self.assertEqual(self.answer(["a", "c"], late=40, slow=0), Code.CANCELLED)

    def test_at_call_is_cancelled_whatever_the_turns(self):
        self.assertEqual(self.answer(["a", "b"], late=40, slow=40, mode="at-call"), Code.CANCELLED)


class EchoService:
    def __init__(self, query, config):
        self.query = query
        self.config = EffectiveConfig(3, 50, 65536)

    async def list_candidates(self, agent, query, limit, signal):
        from sessionref_kit import Candidate

        recs = await self.query.list_sessions(signal)
        await self.query.read_title_snapshots([r["header"]["id"] for r in recs])
        if query == "fail":
            raise TypeError("port bug")
        return [Candidate(agent.id, repr(query) + repr(limit), 1.0, "/c" if signal is not None else None)]

    async def prepare(self, agent, content, refs, signal):
        if content == "cancel me":
            raise asyncio.CancelledError()
        for r in refs:
            await self.query.read_surface(r["sessionId"])
        ctx = {"source": {"kind": "session-reference"}, "content": [], "role": "user", "id": "uuid"} if refs else None
        return Prepared(content, ctx)


class EchoPort:
    def encode_uri(self, session_id):
        return f"uri:{session_id!r}"

    def decode_uri(self, uri):
        raise SessionReferenceError(f"bad {uri}", Code.INVALID_REFERENCE)

    async def format_mention(self, session_id, label):
        return repr((session_id, label))

    def parse_mentions(self, text):
        return Parsed(text, [Reference("a", "A")] if text == "ref" else [])

    def create_service(self, query, config):
        if config == 0:
            raise SessionReferenceError("bad", Code.INVALID_CONFIG)
        return EchoService(query, config)


def exchange(handler, requests):
    data = b"".join(r if isinstance(r, bytes) else json.dumps(r).encode() + b"\n" for r in requests)
    out = io.BytesIO()
    serve_streams(handler, io.BytesIO(data), out, 4096)
    return [json.loads(line) for line in out.getvalue().splitlines()]


class Dispatch(unittest.TestCase):
    def test_ops(self):
        h = Handler(EchoPort(), "echo", "1", ["lone-surrogates"])
        out = exchange(h, [
            {"id": 1, "op": "hello", "args": {"protocol": 1}},
            {"id": 2, "op": "uri.encode", "args": {"sessionId": None}},
            {"id": 3, "op": "uri.decode", "args": {"uri": "x"}},
            {"id": 4, "op": "mention.format", "args": {"sessionId": "a"}},
            {"id": 5, "op": "config", "args": {"config": 0}},
            {"id": 6, "op": "config", "args": {}},
            {"id": 7, "op": "candidates", "args": {"world": WORLD, "agent": {"id": "me"}, "query": None, "cancel": "never"}},
            {"id": 8, "op": "candidates", "args": {"world": WORLD, "agent": {"id": "me"}, "query": "fail"}},
            {"id": 9, "op": "prepare", "args": {"world": WORLD, "agent": {"id": "me"}, "references": [{"sessionId": "a"}]}},
            {"id": 10, "op": "prepare", "args": {"world": WORLD, "agent": {"id": "me", "cwd": None}, "references": []}},
            {"id": 11, "op": "host.send", "args": {}},
            b"not json\n",
            {"id": 12, "op": "candidates", "args": {"world": {"sessions": 1}, "agent": {"id": "me"}}},
            {"id": 13, "op": "x" * 5000},
            {"id": 14, "op": "candidates", "args": {"world": WORLD, "agent": {"id": "me"}, "cancel": "sometime"}},
            b'"\xed\xa0\x80"\n',
            {"id": 15, "op": "prepare", "args": {"world": WORLD, "agent": {"id": "me"}, "content": "cancel me", "references": []}},
        ])
        self.assertEqual([r["id"] for r in out], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, None, 12, None, 14, None, 15])
        self.assertEqual(out[0]["result"], {"protocol": 1, "name": "echo", "version": "1", "spec": "0.0.1-rc.1", "features": ["lone-surrogates", "world-cache", "pipelining"]})
        self.assertEqual(out[1]["result"], "uri:None")
        self.assertEqual(out[2]["error"]["code"], Code.INVALID_REFERENCE)
        self.assertEqual(out[3]["result"], "('a', UNDEFINED)")
        self.assertEqual(out[4]["error"]["code"], Code.INVALID_CONFIG)
        self.assertNotIn("lists", out[4]["error"])
        self.assertEqual(out[5]["result"], {"maxReferences": 3, "candidateLimit": 50, "maxReferenceBytes": 65536})
        self.assertEqual(out[6]["result"], {"candidates": [{"sessionId": "me", "label": "NoneUNDEFINED", "cwd": "/c", "createdAt": 1}], "titleReads": ["a", "b", "c"]})
        self.assertEqual(out[7]["error"], {"code": None, "message": "port bug", "lists": 1})
        self.assertEqual(out[8]["result"], {"additionalContext": {"source": {"kind": "session-reference"}, "content": [], "role": "user"}, "reads": ["a"]})
        self.assertEqual((out[9]["error"]["code"], out[9]["error"]["reads"]), ("ADAPTER_PROTOCOL", []))
        self.assertEqual(out[10]["error"]["code"], "ADAPTER_UNSUPPORTED")
        for i in (11, 12, 13, 15):
            self.assertEqual(out[i]["error"]["code"], "ADAPTER_PROTOCOL", i)
        self.assertEqual(out[14]["error"]["code"], "ADAPTER_UNSUPPORTED")
        self.assertEqual((out[16]["error"]["code"], out[16]["error"]["reads"]), (None, []))  # a CancelledError is an answer too

    def test_host(self):
        world = {"sessions": [{"header": {"id": "a", "createdAt": 1}}]}
        args = {"world": {"$ref": "w"}, "agent": {"id": "me"}, "text": "ref", "running": True, "mutations": [{"op": "delete", "sessionId": "a"}]}
        rc1 = Handler(EchoPort(), "e", "1", ["host"])
        _, first, again, bad = exchange(rc1, [{"id": 0, "op": "world.define", "args": {"key": "w", "world": world}},
                                              {"id": 1, "op": "host.send", "args": args}, {"id": 2, "op": "host.send", "args": args},
                                              {"id": 3, "op": "host.send", "args": {**args, "text": 1}}])
        ctx = {"source": {"kind": "session-reference"}, "content": [], "role": "user"}
        direct = {"source": {"kind": "user"}, "content": [{"type": "text", "text": "ref"}], "role": "user"}
        self.assertEqual(first["result"], {"pending": [ctx, direct], "log": [ctx, direct], "replay": [ctx, direct]})
        self.assertEqual(again["result"], first["result"])
        self.assertEqual(bad["error"]["code"], "ADAPTER_PROTOCOL")
        rc8 = Handler(EchoPort(), "e", "1", ["host"], spec="0.1.0-rc.8")
        (idle,) = exchange(rc8, [{"id": 1, "op": "host.send", "args": {**args, "world": world, "running": False}}])
        self.assertEqual(idle["result"], {"pending": [], "log": [direct, ctx], "replay": [direct, ctx]})
        with self.assertRaises(ValueError):
            Handler(EchoPort(), "e", "1", ["telepathy"])


if __name__ == "__main__":
    unittest.main()
