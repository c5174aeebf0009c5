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

    /** The session-query service of one request: see {@link Query}. */
    Query query(Loop loop, Object cancel, Signal signal) { return new Query(loop, cancel, signal); }

    /**
     * The fake ctx.sessionQuery of one request over this world. It records each call as it is
     * made; its settlements are microtasks of the request's loop; the cancel mode decides,
     * in {@link #held}, which call never settles and when the signal aborts.
     */
    final class Query implements SessionQuery {
        private final Loop loop;
        private final Object cancel;
        private final Signal signal;
        private int calls;
        int lists;
        final List<String> titleReads = new ArrayList<>();
        final List<String> reads = new ArrayList<>();

        Query(Loop loop, Object cancel, Signal signal) {
            this.loop = loop;
            this.cancel = cancel;
            this.signal = signal;
        }

        /**
         * The cancel modes, keyed on the calls the fake receives (spec/protocol.md, "cancel"):
         * the request's first call is held for "during-read" and "at-call", every other call
         * settles. "at-call" aborts inside the call, before it returns; "during-read" aborts
         * in a macrotask, so once every other call has settled and the port has run what it
         * does with their outcomes, as a JavaScript timer runs after the promise reactions.
         * Returns whether this call is held (never settles).
         */
        private synchronized boolean held() {
            if (++calls != 1 || signal == null) return false;
            if ("at-call".equals(cancel)) {
                signal.abort();
                return true;
            }
            if ("during-read".equals(cancel)) {
                loop.macro(signal::abort);
                return true;
            }
            return false;
        }

        private <T> CompletableFuture<T> settle(boolean held, java.util.function.Supplier<T> outcome) {
            CompletableFuture<T> f = new CompletableFuture<>();
            if (held) return f; // never settles
            loop.micro(() -> {
                try {
                    f.complete(outcome.get());
                } catch (RuntimeException e) {
                    f.completeExceptionally(e);
                }
            });
            return f;
        }

        @Override
        public CompletableFuture<List<SessionRecord>> listSessions(Signal s) {
            synchronized (this) { lists++; }
            return settle(held(), () -> {
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
            return settle(held(), () -> {
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
            return settle(held(), () -> {
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
