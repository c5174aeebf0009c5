package sessionref.kit;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The session-query service a port's service reads (ctx.sessionQuery, SR-QUERY-*). The kit
 * builds one per request from the request's world and records what the port asks.
 *
 * <p>Every call returns a future that settles on the kit's event loop, the thread the port's
 * operation runs on, as a JavaScript promise settles in a microtask: compose the futures
 * (thenCompose, whenComplete …) and return one; never block on them (join, get), which
 * would wait for ever for a settlement that the same thread must run.
 */
public interface SessionQuery {
    /** listSessions(signal): every session, as records, or the listing's failure. */
    CompletableFuture<List<SessionRecord>> listSessions(Signal signal);

    /** readTitleSnapshots(ids, signal): one settlement per unique id, in first-occurrence order. */
    CompletableFuture<List<TitleSettlement>> readTitleSnapshots(List<String> ids, Signal signal);

    /** readSurface(id): the session's current surface, or the read's failure (an unknown id fails). */
    CompletableFuture<Surface> readSurface(String id);

    /** A session header: id, cwd (null when absent), createdAt as written, and the whole header object. */
    record Header(String id, String cwd, Object createdAt, Js.JsObject value) {}

    /** One listed session. */
    record SessionRecord(Header header, boolean live, boolean persisted) {}

    /**
     * One title read's settlement: fulfilled with the session's header and its title (null
     * when the session has none), or rejected with reason.
     */
    record TitleSettlement(String sessionId, Header session, String title, Exception reason) {
        /** Whether the read was fulfilled. */
        public boolean fulfilled() { return reason == null; }
    }

    /**
     * A session's current surface: capturedThroughSeq a Double or null, and the events as
     * JavaScript values (the contract's failure on one that is no event is the port's to give).
     */
    record Surface(Header session, Object capturedThroughSeq, List<Object> events) {}
}
