package sessionref.kit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The adapter protocol, version 1 (spec/protocol.md), over a {@link Port}: one JSON request
 * per line on stdin, one response per line on stdout, flushed; logs on stderr. A port's main
 * is
 *
 * <pre>{@code
 * public static void main(String[] args) throws IOException { Adapter.serve(new MyPort()); }
 * }</pre>
 */
public final class Adapter {
    /** The protocol's bound on a line, in bytes (64 MiB). */
    public static final int MAX_LINE = 64 << 20;

    private final Port port;
    private final Map<String, World> worlds = new HashMap<>();
    int maxLine = MAX_LINE; // tests lower it

    /** An adapter for port. */
    public Adapter(Port port) { this.port = port; }

    /**
     * Serves port on stdin and stdout until stdin ends. The requests are answered on a thread
     * with a 1 GiB stack (reserved, not committed), so JSON nested 10,000 deep, which the
     * protocol allows, does not overflow the JVM's default stack in the kit or the port; the
     * port's text handling (mention.parse, host.send) runs on a thread with the JVM's default
     * stack instead ({@link #onPortStack}), where a production host would run it.
     */
    public static void serve(Port port) throws IOException {
        PrintStream out = System.out;
        System.setOut(System.err); // nothing but responses may reach stdout
        Throwable[] failed = {null};
        Thread t = new Thread(null, () -> {
            try {
                new Adapter(port).serve(System.in, out);
            } catch (Throwable e) {
                failed[0] = e;
            }
        }, "sessionref-adapter", 1L << 30);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (failed[0] instanceof IOException e) throw e;
        if (failed[0] != null) throw new IOException("adapter failed: " + failed[0], failed[0]);
    }

    /** Answers every request line of in on out, until in ends. */
    public void serve(InputStream in, OutputStream out) throws IOException {
        BufferedInputStream r = new BufferedInputStream(in, 1 << 16);
        while (true) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean tooLong = false, any = false;
            int c;
            while ((c = r.read()) >= 0 && c != '\n') {
                any = true;
                if (line.size() < maxLine) line.write(c);
                else tooLong = true;
            }
            if (c < 0 && !any) return;
            String response;
            if (tooLong) {
                response = failure(null, "ADAPTER_PROTOCOL", "request line longer than " + maxLine + " bytes", null);
            } else {
                byte[] b = line.toByteArray();
                int n = b.length;
                if (n > 0 && b[n - 1] == '\r') n--;
                if (n == 0) continue;
                response = answer(ByteBuffer.wrap(b, 0, n));
            }
            out.write(response.getBytes(StandardCharsets.UTF_8));
            out.write('\n');
            out.flush();
            if (c < 0) return;
        }
    }

    /** The response line to one request line. */
    String answer(ByteBuffer bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        } catch (CharacterCodingException e) {
            return failure(null, "ADAPTER_PROTOCOL", "request line is not UTF-8", null);
        }
        Object req;
        try {
            req = Js.parse(text);
        } catch (Js.SyntaxError e) {
            return failure(null, "ADAPTER_PROTOCOL", "request is not JSON: " + e.getMessage(), null);
        } catch (StackOverflowError e) {
            return failure(null, "ADAPTER_PROTOCOL", "request nests deeper than this thread's stack holds", null);
        }
        if (!(req instanceof Js.JsObject r) || !(r.get("op") instanceof String op)) {
            Object id = req instanceof Js.JsObject o && o.has("id") ? o.get("id") : null;
            return failure(id, "ADAPTER_PROTOCOL", "request must be an object with a string op", null);
        }
        Object id = r.has("id") ? r.get("id") : null;
        Object args = r.has("args") ? r.get("args") : new Js.JsObject();
        if (!(args instanceof Js.JsObject a)) return failure(id, "ADAPTER_PROTOCOL", "args must be an object", null);
        Js.JsObject extra = new Js.JsObject();
        String line;
        try {
            Object result = handle(op, a, extra);
            line = Js.stringify(Js.obj("id", id, "ok", true, "result", result));
        } catch (Throwable e) {
            String code = null;
            if (e instanceof World.ProtocolError) code = "ADAPTER_PROTOCOL";
            else if (e instanceof UnsupportedOperationException) code = "ADAPTER_UNSUPPORTED";
            else if (e instanceof Coded c) code = c.sessionReferenceCode();
            String msg = e.getMessage() == null ? e.toString() : e.getMessage();
            line = failure(id, code, msg, "ADAPTER_UNSUPPORTED".equals(code) ? null : extra);
        }
        if (Js.utf8Length(line) > MAX_LINE - 1) {
            return failure(id, "ADAPTER_UNSUPPORTED", "the answer is longer than the protocol's 64 MiB line", null);
        }
        return line;
    }

    static String failure(Object id, String code, String message, Js.JsObject extra) {
        Js.JsObject err = Js.obj("code", code, "message", message);
        if (extra != null) for (Map.Entry<String, Object> e : extra) err.put(e.getKey(), e.getValue());
        return Js.stringify(Js.obj("id", id, "ok", false, "error", err));
    }

    private static Object need(Js.JsObject args, String key) {
        if (!args.has(key)) throw new World.ProtocolError("missing required argument " + Js.quote(key));
        return args.get(key);
    }

    private Object handle(String op, Js.JsObject args, Js.JsObject extra) throws Throwable {
        switch (op) {
            case "hello": {
                if (!Double.valueOf(1).equals(args.get("protocol"))) {
                    throw new World.ProtocolError("unsupported protocol " + Js.stringify(args.get("protocol")) + "; this adapter speaks protocol 1");
                }
                List<Object> features = new ArrayList<>();
                if (port.loneSurrogates()) features.add("lone-surrogates");
                features.add("world-cache");
                if (port instanceof Port.Host) features.add("host");
                return Js.obj("protocol", 1.0, "name", port.name(), "version", port.version(), "spec", port.profile(), "features", features);
            }
            case "uri.encode":
                return port.encodeUri(args.get("sessionId"));
            case "uri.decode":
                return port.decodeUri(args.get("uri"));
            case "mention.format":
                return port.formatMention(args.get("sessionId"), args.get("label"));
            case "mention.parse": {
                Port.Parsed p = onPortStack(() -> port.parseMentions(args.get("text")));
                List<Object> refs = new ArrayList<>();
                for (Port.Mention m : p.references()) refs.add(Js.obj("sessionId", m.sessionId(), "label", m.label()));
                return Js.obj("text", p.text(), "references", refs);
            }
            case "config": {
                World w = World.of(Js.obj("sessions", new ArrayList<>()));
                Port.Config c = port.newService(w.query(new Loop(), null, null), args.get("config")).config();
                return Js.obj("maxReferences", (double) c.maxReferences(), "candidateLimit", (double) c.candidateLimit(),
                        "maxReferenceBytes", (double) c.maxReferenceBytes());
            }
            case "world.define": {
                Object key = need(args, "key");
                if (!(key instanceof String k)) throw new World.ProtocolError("world.define: key is not a string");
                Object doc = need(args, "world");
                if (doc instanceof Js.JsObject o && o.has("$ref")) throw new World.ProtocolError("world.define: the world is a reference");
                World w = World.of(doc);
                synchronized (worlds) { worlds.put(k, w); }
                return Js.obj("key", k);
            }
            case "candidates":
                return candidates(args, extra);
            case "prepare":
                return prepare(args, extra);
            case "host.send":
                if (port instanceof Port.Host h) return HostModel.send(this, h, args);
                throw new UnsupportedOperationException("the port has no host wiring (Port.Host)");
            default:
                throw new UnsupportedOperationException("unsupported op " + Js.quote(op));
        }
    }

    /** A port call's body: any Throwable passes through. */
    interface PortCall<T> {
        T call() throws Throwable;
    }

    /**
     * Runs c on a thread with the JVM's default stack (-Xss; 1 MiB on x86-64), the stack the
     * port's text handling gets on any thread its host starts, and returns what it returns or
     * throws what it throws. The adapter's own thread has 1 GiB for the protocol's deep JSON,
     * which would hide a recursive regular expression that overflows on a long label on a
     * production thread (java.util.regex's repeated alternation: about 1,000 label characters
     * per MiB, TRAP-RE-BACKTRACKING-DEPTH); mention.parse and host.send run here instead.
     */
    @SuppressWarnings("unchecked")
    static <T> T onPortStack(PortCall<T> c) throws Throwable {
        Object[] out = new Object[1];
        Throwable[] failed = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try {
                out[0] = c.call();
            } catch (StackOverflowError e) {
                StackOverflowError so = new StackOverflowError("StackOverflowError on the JVM's default thread stack"
                        + " (a recursive regular expression over a long label? spec/porting-traps.md TRAP-RE-BACKTRACKING-DEPTH)");
                so.setStackTrace(new StackTraceElement[0]);
                failed[0] = so;
            } catch (Throwable e) {
                failed[0] = e;
            }
        }, "sessionref-port", 0);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw e;
        }
        if (failed[0] != null) throw failed[0];
        return (T) out[0];
    }

    /** The request's world: the document, or the one world.define stored under its {"$ref": KEY}. */
    World world(Object v) {
        if (v instanceof Js.JsObject o && o.has("$ref")) {
            if (o.size() != 1 || !(o.get("$ref") instanceof String key)) {
                throw new World.ProtocolError("a world reference is {\"$ref\": KEY} with a string KEY and no other key");
            }
            synchronized (worlds) {
                World w = worlds.get(key);
                if (w == null) throw new World.ProtocolError("no world defined under " + Js.quote(key) + " (world.define it first)");
                return w;
            }
        }
        return World.of(v);
    }

    private static Signal signal(Object mode) {
        if (mode == Js.UNDEFINED) return null;
        if (!"before".equals(mode) && !"during-read".equals(mode) && !"at-call".equals(mode) && !"never".equals(mode)) {
            throw new UnsupportedOperationException("unsupported cancel mode " + Js.stringify(mode));
        }
        Signal s = new Signal();
        if ("before".equals(mode)) s.abort();
        return s;
    }

    private Object candidates(Js.JsObject args, Js.JsObject extra) throws Throwable {
        Port.Agent agent = World.agent(need(args, "agent"));
        Object mode = args.get("cancel");
        Signal signal = signal(mode);
        World w = world(need(args, "world"));
        Loop loop = new Loop();
        World.Query q = w.query(loop, mode, signal);
        Port.Service svc = port.newService(q, args.get("config"));
        List<Port.Candidate> list;
        try {
            list = loop.run(() -> svc.listCandidates(agent, args.get("query"), args.get("limit"), signal));
        } catch (Throwable e) {
            extra.put("lists", (double) q.lists());
            throw e;
        }
        List<Object> out = new ArrayList<>();
        for (Port.Candidate c : list) {
            Js.JsObject o = Js.obj("sessionId", c.sessionId(), "label", c.label());
            if (c.cwd() != null) o.put("cwd", c.cwd());
            out.add(o.put("createdAt", c.createdAt()));
        }
        return Js.obj("candidates", out, "titleReads", new ArrayList<Object>(q.titleReads()));
    }

    private Object prepare(Js.JsObject args, Js.JsObject extra) throws Throwable {
        extra.put("reads", new ArrayList<>());
        Port.Agent agent = World.agent(need(args, "agent"));
        Object mode = args.get("cancel");
        Signal signal = signal(mode);
        World w = world(need(args, "world"));
        Loop loop = new Loop();
        World.Query q = w.query(loop, mode, signal);
        Port.Prepared p;
        try {
            Port.Service svc = port.newService(q, args.get("config"));
            // The held call is the read of the first normalized source, and the other sources'
            // reads are counted: known once the service is (its maxReferences).
            long most = Long.MAX_VALUE;
            try {
                most = svc.config().maxReferences();
            } catch (RuntimeException e) {
                // the port's config is broken: its prepare will say so; cap nothing
            }
            List<String> sources = World.normalizedSources(agent.id(), args.get("references"), most);
            q.arm(sources.isEmpty() ? null : sources.get(0), Math.max(0, sources.size() - 1));
            p = loop.run(() -> svc.prepare(agent, args.get("content"), args.get("references"), signal));
        } finally {
            extra.put("reads", new ArrayList<Object>(q.reads()));
        }
        Js.JsObject out = new Js.JsObject();
        if (p.content() != Js.UNDEFINED) out.put("content", p.content());
        out.put("additionalContext", p.additionalContext() == null ? null : withoutId(p.additionalContext()));
        return out.put("reads", new ArrayList<Object>(q.reads()));
    }

    /** A message as the protocol carries it: without its random id, the keys in order. */
    static Js.JsObject withoutId(Js.JsObject m) {
        Js.JsObject out = new Js.JsObject();
        for (Map.Entry<String, Object> e : m) if (!e.getKey().equals("id")) out.put(e.getKey(), e.getValue());
        return out;
    }
}
