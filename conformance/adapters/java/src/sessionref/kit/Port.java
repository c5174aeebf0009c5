package sessionref.kit;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A Java port of the session-reference contract: the one interface a port implements. The
 * six operations are the seed's functions and its service; {@link Adapter#serve} makes the
 * port a protocol adapter.
 *
 * <p>Arguments a JavaScript caller may pass with any type arrive as {@link Js} values
 * ({@code Object}: a String, a Double, a Boolean, null, {@link Js#UNDEFINED} when absent, a
 * List or a {@link Js.JsObject}), so the port validates them as the seed does; the rest are
 * Java types. Strings are Java Strings, which hold lone surrogates. A contract failure is a
 * {@link ContractException} (or any exception implementing {@link Coded}); any other
 * exception is an error without a code (the seed's TypeError). An operation the port does not
 * implement throws {@link UnsupportedOperationException}: its checks are not covered.
 */
public interface Port {
    /** The name the hello reports. */
    default String name() { return getClass().getSimpleName(); }

    /** The version the hello reports. */
    default String version() { return "0"; }

    /** The contract release implemented: "0.0.1-rc.1" or "0.1.0-rc.8". */
    default String profile() { return "0.0.1-rc.1"; }

    /**
     * Whether the port's strings may carry lone surrogates (feature lone-surrogates). Java
     * Strings hold them, so the default is true.
     */
    default boolean loneSurrogates() { return true; }

    /** encodeSessionReferenceUri(sessionId) (SR-URI-*). */
    String encodeUri(Object sessionId);

    /** decodeSessionReferenceUri(uri): the session id, or SESSION_REFERENCE_INVALID_REFERENCE. */
    String decodeUri(Object uri);

    /** formatSessionReferenceMention({sessionId, label}); label is UNDEFINED when absent. */
    String formatMention(Object sessionId, Object label);

    /** parseSessionReferenceText(text). */
    Parsed parseMentions(Object text);

    /**
     * new SessionReferenceService(ctx, config) over the session-query service query; config is
     * UNDEFINED when absent. Throws the construction error (SESSION_REFERENCE_INVALID_CONFIG).
     */
    Service newService(SessionQuery query, Object config);

    /** The port's SessionReferenceService. */
    interface Service {
        /** The effective configuration. */
        Config config();

        /**
         * listCandidates(agent, query, limit, signal); query and limit are UNDEFINED when
         * absent, signal null when there is none. The future runs on the kit's event loop (see
         * {@link SessionQuery}): never block on it.
         */
        CompletableFuture<List<Candidate>> listCandidates(Agent agent, Object query, Object limit, Signal signal);

        /** prepare(agent, content, references, signal); content is UNDEFINED when absent. */
        CompletableFuture<Prepared> prepare(Agent agent, Object content, Object references, Signal signal);
    }

    /**
     * The host wiring of a port that has one (feature host, SR-HOST-*): what a host enqueues
     * for a user's text sent to agent. The kit models the rest of host.send (the target's
     * inbox, its step, its log, the mutations after it).
     */
    interface Host {
        /**
         * Parses the mentions in text, prepares them with service and returns the messages to
         * enqueue in the port's order: the direct message {source: {kind: "user"}, content,
         * role: "user"} and, when the text references sessions, the context message (its id
         * is left out of every comparison).
         */
        CompletableFuture<List<Js.JsObject>> deliver(Service service, Agent agent, String text);
    }

    /** The effective configuration. */
    record Config(long maxReferences, long candidateLimit, long maxReferenceBytes) {}

    /** The target agent: its id and working directory (null when it has none). */
    record Agent(String id, String cwd) {}

    /** A parsed text: the readable text and the references in order. */
    record Parsed(String text, List<Mention> references) {}

    /** One reference parsed from text. */
    record Mention(String sessionId, String label) {}

    /** A candidate: cwd null when the session has none; createdAt as the header has it. */
    record Candidate(String sessionId, String label, String cwd, Object createdAt) {}

    /**
     * A prepared message: content as given (UNDEFINED when none was), and the context message
     * {source, content, role, id?} or null when the message references nothing.
     */
    record Prepared(Object content, Js.JsObject additionalContext) {}
}
