package sessionref.kit;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The protocol's world document (spec/protocol.md, "The world"), checked, and the fake
 * session-query service a request reads it through ({@link #query}): a fresh one per
 * request, recording its calls, holding one for the cancel modes.
 */
public final class World {
    /** A malformed world, agent or request: the adapter answers ADAPTER_PROTOCOL. */
    public static final class ProtocolError extends RuntimeException {
        public ProtocolError(String message) { super(message); }
    }

    final List<Js.JsObject> sessions; // each checked: header, and the optional keys
    final String listError;

    private World(List<Js.JsObject> sessions, String listError) {
        this.sessions = sessions;
        this.listError = listError;
    }

    /** Reads and checks a world document; null for an optional key is the key absent. */
    public static World of(Object v) {
        if (!(v instanceof Js.JsObject root)) throw new ProtocolError("world: not an object");
        only(root, "world", "sessions", "listError");
        String listError = optString(root, "listError", "world");
        List<Js.JsObject> sessions = new ArrayList<>();
        Object sv = root.get("sessions");
        if (sv != Js.UNDEFINED) {
            if (!(sv instanceof List<?> list)) throw new ProtocolError("world: sessions is not an array");
            for (int i = 0; i < list.size(); i++) {
                String where = "world: sessions[" + i + "]";
                if (!(list.get(i) instanceof Js.JsObject s)) throw new ProtocolError(where + ": not an object");
                only(s, where, "header", "title", "titleError", "surface", "readError");
                header(s.get("header"), where + ".header");
                optString(s, "title", where);
                optString(s, "titleError", where);
                optString(s, "readError", where);
                Object surf = s.get("surface");
                if (surf != null && surf != Js.UNDEFINED) {
                    if (!(surf instanceof Js.JsObject so)) throw new ProtocolError(where + ".surface: not an object");
                    only(so, where + ".surface", "capturedThroughSeq", "events");
                    Object c = so.get("capturedThroughSeq");
                    if (c != null && c != Js.UNDEFINED && !(c instanceof Double)) throw new ProtocolError(where + ".surface.capturedThroughSeq: not a number or null");
                    Object ev = so.get("events");
                    if (ev != Js.UNDEFINED && !(ev instanceof List)) throw new ProtocolError(where + ".surface.events: not an array");
                }
                sessions.add(s);
            }
        }
        return new World(sessions, listError);
    }

    /** Reads an agent {id, cwd?}. */
    public static Port.Agent agent(Object v) {
        if (!(v instanceof Js.JsObject o)) throw new ProtocolError("agent: not an object");
        if (!(o.get("id") instanceof String id)) throw new ProtocolError("agent: id is not a string");
        Object cwd = o.get("cwd");
        if (cwd != Js.UNDEFINED && !(cwd instanceof String)) throw new ProtocolError("agent: cwd is not a string");
        return new Port.Agent(id, cwd == Js.UNDEFINED ? null : (String) cwd);
    }

    static SessionQuery.Header header(Object v, String where) {
        if (!(v instanceof Js.JsObject o)) throw new ProtocolError(where + ": not an object");
        if (!(o.get("id") instanceof String id)) throw new ProtocolError(where + ": id is not a string");
        if (!(o.get("createdAt") instanceof Double)) throw new ProtocolError(where + ": createdAt is not a number");
        Object cwd = o.get("cwd");
        if (cwd != Js.UNDEFINED && !(cwd instanceof String)) throw new ProtocolError(where + ": cwd is not a string");
        return new SessionQuery.Header(id, cwd == Js.UNDEFINED ? null : (String) cwd, o.get("createdAt"), o);
    }

    private static void only(Js.JsObject o, String where, String... keys) {
        outer:
        for (Map.Entry<String, Object> e : o.entries()) {
            for (String k : keys) if (k.equals(e.getKey())) continue outer;
            throw new ProtocolError(where + ": unknown key " + Js.quote(e.getKey()));
        }
    }

    private static String optString(Js.JsObject o, String key, String where) {
        Object v = o.get(key);
        if (v == null || v == Js.UNDEFINED) return null;
        if (!(v instanceof String s)) throw new ProtocolError(where + "." + key + ": not a string or null");
        return s;
    }

    private static String string(Js.JsObject o, String key) {
        Object v = o.get(key);
        return v instanceof String s ? s : null;
    }

    /** A copy whose session list and surfaces a request may change (host.send's mutations). */
    World copy() {
        List<Js.JsObject> out = new ArrayList<>();
        for (Js.JsObject s : sessions) out.add((Js.JsObject) Js.copy(s));
        return new World(out, listError);
    }

    Js.JsObject find(String id) {
        for (Js.JsObject s : sessions) if (((Js.JsObject) s.get("header")).get("id").equals(id)) return s;
        return null;
    }

    /**
     * The session-query service of one request; its held call is the first call (a
     * candidates' listing) until {@link Query#arm} names another.
     */
    Query query(Loop loop, Object cancel, Signal signal) { return new Query(loop, cancel, signal); }

    /** Query's hold for the request's first call, whatever it is (a candidates' listing). */
    static final String FIRST_CALL = new String("(the first call)");

    /**
     * Backstops, for a port that waits for the held call alone (spec/protocol.md, cancel): how
     * long "during-read" waits for the other reads to be made, and "at-call"'s other calls for
     * the held call to be made; and how long "during-read" waits, after another read failed,
     * before it aborts anyway. The values are the Go bridge's; neither decides the answer of
     * a port that starts its reads at once and fails on the first failure, as the seed does.
     */
    static final long MADE_GRACE_MS = 500, FAILED_GRACE_MS = 200;

    /**
     * The ids a valid prepare reads, in order: the distinct sessionIds of references in
     * first-mention order; empty when the references are not valid (not an array, an element
     * that is no object or has no string sessionId, a label that is not a string, a reference
     * to the agent itself, more sources than maxReferences), as the contract then reads nothing.
     */
    public static List<String> normalizedSources(String agentId, Object references, long maxReferences) {
        List<String> ids = new ArrayList<>();
        if (!(references instanceof List<?> list)) return ids;
        for (Object r : list) {
            if (!(r instanceof Js.JsObject o) || !(o.get("sessionId") instanceof String id)) return new ArrayList<>();
            Object label = o.get("label");
            if (label != Js.UNDEFINED && !(label instanceof String)) return new ArrayList<>();
            if (id.equals(agentId)) return new ArrayList<>();
            if (!ids.contains(id)) ids.add(id);
        }
        return ids.size() > maxReferences ? new ArrayList<>() : ids;
    }

    /**
     * The fake ctx.sessionQuery of one request over this world. It records each call as it is
     * made; its settlements are microtasks of the request's loop; the cancel mode decides
     * which call never settles and when the signal aborts (spec/protocol.md, "cancel"), by
     * what the calls see, never by the loop's scheduling:
     *
     * <ul>
     * <li>"at-call": the held call aborts the signal as it is made, and never settles; every
     * other call settles only after that abort (one made earlier waits for the held call);
     * <li>"during-read": the held call never settles; the signal aborts as soon as the held
     * call has been made and the others other calls have settled successfully (at once, in a
     * microtask, when there are none), and never once another call has failed.
     * </ul>
     */
    final class Query implements SessionQuery {
        private final Loop loop;
        private final Object cancel;
        private final Signal signal;
        private String hold = FIRST_CALL;
        private int others;
        private boolean held;
        private int started, succeeded; // during-read: other calls made, and settled successfully
        private boolean failed; // during-read: another call failed
        private List<Runnable> gated = new ArrayList<>(); // at-call: settlements waiting for the held call
        int lists;
        final List<String> titleReads = new ArrayList<>();
        final List<String> reads = new ArrayList<>();

        Query(Loop loop, Object cancel, Signal signal) {
            this.loop = loop;
            this.cancel = signal == null ? null : cancel;
            this.signal = signal;
        }

        /**
         * Names the held call before the port runs: hold is {@link #FIRST_CALL}, the session id
         * whose read is held (a prepare's first normalized source), or null for none; others is
         * the number of other reads "during-read" waits for (one per other source).
         */
        synchronized void arm(String hold, int others) {
            this.hold = hold;
            this.others = others;
        }

        private boolean during() { return "during-read".equals(cancel); }

        private boolean atCall() { return "at-call".equals(cancel); }

        /** Whether this call (a read of id, or another call when id is null) is the held one. */
        private synchronized boolean held(String id) {
            if (held || hold == null || !(during() || atCall())) return false;
            if (hold != FIRST_CALL && !hold.equals(id)) return false;
            held = true;
            if (atCall()) {
                signal.abort();
                List<Runnable> open = gated;
                gated = null;
                for (Runnable r : open) loop.micro(r);
            } else {
                loop.micro(this::decide); // once the held call has returned its future
                if (started < others) loop.after(MADE_GRACE_MS, () -> { if (!madeAll()) backstop(); });
            }
            return true;
        }

        private synchronized boolean madeAll() { return started >= others || failed; }

        /** The rule: the held call made, and every other read settled successfully. */
        private void decide() {
            boolean abort;
            synchronized (this) { abort = held && !failed && succeeded >= others; }
            if (abort) signal.abort();
        }

        private void backstop() {
            boolean abort;
            synchronized (this) { abort = held; }
            if (abort) signal.abort();
        }

        private synchronized void outcome(boolean ok) {
            if (ok) {
                succeeded++;
            } else if (!failed) {
                failed = true;
                loop.after(FAILED_GRACE_MS, this::backstop);
            }
        }

        private <T> CompletableFuture<T> settle(boolean held, java.util.function.Supplier<T> outcome) {
            CompletableFuture<T> f = new CompletableFuture<>();
            if (held) return f; // never settles
            boolean counted = during();
            Runnable settle = () -> {
                T v;
                try {
                    v = outcome.get();
                } catch (RuntimeException e) {
                    if (counted) outcome(false); // before the port can see it: no abort follows
                    f.completeExceptionally(e);
                    return;
                }
                if (counted) outcome(true);
                f.complete(v);
                if (counted) decide();
            };
            synchronized (this) {
                if (counted) started++;
                if (atCall() && hold != null && gated != null) {
                    // at-call: settles once the held call has aborted (MADE_GRACE_MS at most,
                    // for a port that never makes it), as every outcome follows the abort in
                    // the seed.
                    if (gated.isEmpty()) loop.after(MADE_GRACE_MS, this::openGate);
                    gated.add(settle);
                    return f;
                }
            }
            loop.micro(settle);
            return f;
        }

        private synchronized void openGate() {
            if (gated == null) return;
            for (Runnable r : gated) loop.micro(r);
            gated = null;
        }

        @Override
        public CompletableFuture<List<SessionRecord>> listSessions(Signal s) {
            synchronized (this) { lists++; }
            return settle(held(null), () -> {
                if (listError != null) throw new RuntimeException(listError);
                List<SessionRecord> out = new ArrayList<>();
                for (Js.JsObject session : sessions) out.add(new SessionRecord(header(session.get("header"), "header"), false, true));
                return out;
            });
        }

        @Override
        public CompletableFuture<List<TitleSettlement>> readTitleSnapshots(List<String> ids, Signal s) {
            List<String> list = new ArrayList<>(ids);
            synchronized (this) { titleReads.addAll(list); }
            return settle(held(null), () -> {
                Set<String> unique = new LinkedHashSet<>(list);
                List<TitleSettlement> out = new ArrayList<>();
                for (String id : unique) {
                    Js.JsObject session = find(id);
                    if (session == null) {
                        out.add(new TitleSettlement(id, null, null, new RuntimeException("session not found")));
                    } else if (string(session, "titleError") != null) {
                        out.add(new TitleSettlement(id, null, null, new RuntimeException(string(session, "titleError"))));
                    } else {
                        out.add(new TitleSettlement(id, header(session.get("header"), "header"), string(session, "title"), null));
                    }
                }
                return out;
            });
        }

        @Override
        public CompletableFuture<Surface> readSurface(String id) {
            synchronized (this) { reads.add(id); }
            return settle(held(id), () -> {
                Js.JsObject session = find(id);
                if (session == null) throw new RuntimeException("session " + Js.quote(id) + " not found");
                if (string(session, "readError") != null) throw new RuntimeException(string(session, "readError"));
                Object seq = null;
                List<Object> events = new ArrayList<>();
                if (session.get("surface") instanceof Js.JsObject so) {
                    Object c = so.get("capturedThroughSeq");
                    seq = c == Js.UNDEFINED ? null : c;
                    if (so.get("events") instanceof List<?> ev) events.addAll(ev);
                }
                return new Surface(header(session.get("header"), "header"), seq, events);
            });
        }

        synchronized List<String> reads() { return new ArrayList<>(reads); }

        synchronized List<String> titleReads() { return new ArrayList<>(titleReads); }

        synchronized int lists() { return lists; }
    }
}
