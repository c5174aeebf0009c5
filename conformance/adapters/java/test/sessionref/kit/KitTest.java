package sessionref.kit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The kit's own tests, runnable with plain java (no test framework to fetch):
 * java -cp build sessionref.kit.KitTest [dir of numbers.txt]. Exit 0 when every check holds.
 */
public final class KitTest {
    private static int failures, checks;

    static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            failures++;
            System.err.println("FAIL: " + what);
        }
    }

    static void eq(Object want, Object got, String what) {
        check(want == null ? got == null : want.equals(got), what + ": want " + want + ", got " + got);
    }

    public static void main(String[] args) throws Throwable {
        Path dir = Path.of(args.length > 0 ? args[0] : "test");
        numbers(dir.resolve("numbers.txt"));
        stringify();
        parse();
        protocol();
        deepNesting();
        portStack();
        world();
        cancelModes();
        cancelByOutcomes();
        host();
        System.err.println(failures == 0 ? "ok: " + checks + " checks" : failures + " of " + checks + " checks failed");
        System.exit(failures == 0 ? 0 : 1);
    }

    /** Number::toString against Node's, on every line of numbers.txt. */
    static void numbers(Path file) throws Exception {
        int n = 0;
        for (String line : Files.readAllLines(file)) {
            if (line.isEmpty()) continue;
            String[] f = line.split("\t");
            double d = Double.longBitsToDouble(Long.parseUnsignedLong(f[0], 16));
            eq(f[1], Js.numberToString(d), "numberToString(0x" + f[0] + ")");
            n++;
        }
        check(n > 7000, "numbers.txt has the generated numbers (" + n + ")");
        eq("0", Js.numberToString(-0.0), "-0");
        eq("NaN", Js.numberToString(Double.NaN), "NaN");
        eq("-Infinity", Js.numberToString(Double.NEGATIVE_INFINITY), "-Infinity");
    }

    static void stringify() {
        eq("\"\\ud800x\\udc00\"", Js.stringify("\ud800x\udc00"), "lone surrogates escaped, lowercase");
        eq("\"\ud83d\ude00\"", Js.stringify("\ud83d\ude00"), "a pair raw");
        eq("\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\\u2028\u2029<>&\u007f/\"", Js.stringify("\u0000\u001f\b\f\n\r\t\"\\\u2028\u2029<>&\u007f/"), "escapes");
        eq("{\"b\":1,\"a\":[null,null,true,-5e-7,1e+21]}", Js.stringify(Js.obj("b", 1.0, "u", Js.UNDEFINED, "a",
                Js.list(Js.UNDEFINED, Double.NaN, true, -5e-7, 1e21))), "objects, arrays, undefined and numbers");
        check(Js.stringify(Js.UNDEFINED) == null, "JSON.stringify(undefined) is undefined");
        eq(3, Js.utf8Length("\ud800"), "a lone surrogate is 3 UTF-8 bytes");
        eq(4, Js.utf8Length("\ud83d\ude00"), "a pair is 4");
    }

    static void parse() throws Exception {
        eq("\ud800", Js.parse("\"\\ud800\""), "a lone surrogate escape");
        Object neg = Js.parse("-0");
        check(neg instanceof Double && 1 / (Double) neg < 0, "-0 stays -0");
        eq(Double.POSITIVE_INFINITY, Js.parse("1e400"), "overflow is Infinity");
        eq(9007199254740992.0, Js.parse("9007199254740993"), "2^53+1 rounds to even");
        Js.JsObject o = (Js.JsObject) Js.parse(" {\"z\":1, \"a\":{\"k\":[]}} ");
        eq("{\"z\":1,\"a\":{\"k\":[]}}", Js.stringify(o), "key order kept");
        // JavaScript's property order: array indices ascending first, then the others as set
        // (TRAP-JSON-KEY-ORDER); as Node 20 writes JSON.parse of the text.
        eq("{\"9\":3,\"10\":2,\"4294967294\":7,\"b\":1,\"-1\":4,\"01\":5,\"4294967295\":6,\"a\":{\"0\":2,\"y\":1}}",
            Js.stringify(Js.parse("{\"b\":1,\"10\":2,\"9\":3,\"-1\":4,\"01\":5,\"4294967295\":6,\"4294967294\":7,\"a\":{\"y\":1,\"0\":2}}")),
            "array-index keys first");
        for (String bad : new String[] {"01", "[1,]", "{\"a\":1,}", "\"\\x\"", "\"\u0001\"", "\ufeff1", "\"\\u00zz\"", "1 2", "", "\"\\uＡ000\"", "nul", "-", "1."}) {
            try {
                Js.parse(bad);
                check(false, "JSON.parse rejects " + Js.quote(bad));
            } catch (Js.SyntaxError e) {
                check(true, "");
            }
        }
    }

    /** A port whose operations say what the protocol tests need. */
    static class TestPort implements Port {
        @Override public String encodeUri(Object id) {
            if (id instanceof String s) return "uri:" + s;
            throw new IllegalStateException("not a string"); // no code
        }
        @Override public String decodeUri(Object uri) {
            throw new ContractException(ContractException.INVALID_REFERENCE, "bad");
        }
        @Override public String formatMention(Object id, Object label) {
            final class Mine extends RuntimeException implements Coded {
                Mine() { super("mine"); }
                @Override public String sessionReferenceCode() { return ContractException.TOO_MANY; }
            }
            throw new Mine();
        }
        @Override public Parsed parseMentions(Object text) { throw new UnsupportedOperationException("later"); }
        @Override public Service newService(SessionQuery q, Object config) {
            return new Service() {
                @Override public Config config() { return new Config(3, 50, 65536); }
                @Override public CompletableFuture<List<Candidate>> listCandidates(Agent a, Object query, Object limit, Signal s) {
                    return q.listSessions(s).thenApply(rs -> {
                        List<Candidate> out = new ArrayList<>();
                        for (SessionQuery.SessionRecord r : rs) out.add(new Candidate(r.header().id(), "L", r.header().cwd(), r.header().createdAt()));
                        return out;
                    });
                }
                @Override public CompletableFuture<Prepared> prepare(Agent a, Object content, Object refs, Signal s) {
                    return q.readSurface("x").thenApply(x -> new Prepared(content, null));
                }
            };
        }
    }

    static List<String> serve(Adapter a, byte[] input) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        a.serve(new ByteArrayInputStream(input), out);
        String text = out.toString(StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        check(lines.remove(lines.size() - 1).isEmpty(), "every response ends in \\n");
        return lines;
    }

    static void protocol() throws Exception {
        Adapter a = new Adapter(new TestPort());
        a.maxLine = 200;
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.writeBytes(("{\"id\":1,\"op\":\"hello\",\"args\":{\"protocol\":1}}\r\n"
                + "not json\n"
                + "{\"id\":2,\"op\":\"uri.encode\",\"args\":{\"sessionId\":\"\\udc00\"}}\n"
                + "{\"id\":3,\"op\":\"uri.encode\",\"args\":{}}\n"
                + "{\"id\":4,\"op\":\"uri.decode\",\"args\":{\"uri\":1}}\n"
                + "{\"id\":5,\"op\":\"mention.format\",\"args\":{}}\n"
                + "{\"id\":6,\"op\":\"mention.parse\",\"args\":{}}\n"
                + "{\"id\":7,\"op\":\"frobnicate\"}\n"
                + "{\"id\":8,\"op\":\"uri.encode\",\"args\":{\"sessionId\":\"" + "x".repeat(300) + "\"}}\n"
                + "\n"
                + "{\"id\":9,\"op\":\"uri.encode\",\"args\":{\"sessionId\":\"").getBytes(StandardCharsets.UTF_8));
        in.writeBytes(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80});
        in.writeBytes("\"}}\n{\"id\":10,\"op\":\"hello\",\"args\":{\"protocol\":2}}".getBytes(StandardCharsets.UTF_8));
        List<String> got = serve(a, in.toByteArray());
        List<String> want = List.of(
                "{\"id\":1,\"ok\":true,\"result\":{\"protocol\":1,\"name\":\"TestPort\",\"version\":\"0\",\"spec\":\"0.0.1-rc.1\",\"features\":[\"lone-surrogates\",\"world-cache\"]}}",
                "{\"id\":null,\"ok\":false,\"error\":{\"code\":\"ADAPTER_PROTOCOL\",",
                "{\"id\":2,\"ok\":true,\"result\":\"uri:\\udc00\"}",
                "{\"id\":3,\"ok\":false,\"error\":{\"code\":null,",
                "{\"id\":4,\"ok\":false,\"error\":{\"code\":\"SESSION_REFERENCE_INVALID_REFERENCE\",",
                "{\"id\":5,\"ok\":false,\"error\":{\"code\":\"SESSION_REFERENCE_TOO_MANY\",\"message\":\"mine\"}}",
                "{\"id\":6,\"ok\":false,\"error\":{\"code\":\"ADAPTER_UNSUPPORTED\",",
                "{\"id\":7,\"ok\":false,\"error\":{\"code\":\"ADAPTER_UNSUPPORTED\",",
                "{\"id\":null,\"ok\":false,\"error\":{\"code\":\"ADAPTER_PROTOCOL\",\"message\":\"request line longer than 200 bytes\"}}",
                "{\"id\":null,\"ok\":false,\"error\":{\"code\":\"ADAPTER_PROTOCOL\",\"message\":\"request line is not UTF-8\"}}",
                "{\"id\":10,\"ok\":false,\"error\":{\"code\":\"ADAPTER_PROTOCOL\",");
        eq(want.size(), got.size(), "one response per request line (blank lines skipped)");
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            check(got.get(i).startsWith(want.get(i)), "response " + i + ": want " + want.get(i) + "…, got " + got.get(i));
        }
    }

    /** JSON nested past the parser's bound is refused, and the adapter goes on. */
    static void deepNesting() throws Exception {
        String deep = "{\"id\":1,\"op\":\"uri.encode\",\"args\":{\"sessionId\":" + "[".repeat(20000) + "]".repeat(20000) + "}}\n";
        List<String> got = serve(new Adapter(new TestPort()), (deep + "{\"id\":2,\"op\":\"uri.encode\",\"args\":{\"sessionId\":\"a\"}}\n").getBytes(StandardCharsets.UTF_8));
        eq(2, got.size(), "two answers");
        check(got.get(0).startsWith("{\"id\":null,\"ok\":false,\"error\":{\"code\":\"ADAPTER_PROTOCOL\""), "too deep: " + got.get(0));
        eq("{\"id\":2,\"ok\":true,\"result\":\"uri:a\"}", got.get(1), "the next line is answered");
    }

    /** Recurses n frames deep: what a recursive regex does per label character. */
    static int depth(int n) { return n == 0 ? 0 : 1 + depth(n - 1); }

    /**
     * mention.parse runs on a thread with the JVM's default stack, not the adapter's 1 GiB:
     * a parse that needs 300,000 frames (a java.util.regex label group over a few hundred
     * thousand characters) overflows there, as on a production thread, and is reported as an
     * error without a code; the same recursion fits on a 1 GiB stack.
     */
    static void portStack() throws Exception {
        int[] fits = {0};
        Thread big = new Thread(null, () -> fits[0] = depth(300_000), "big", 1L << 30);
        big.start();
        big.join();
        eq(300_000, fits[0], "300,000 frames fit on a 1 GiB stack");
        Port deep = new TestPort() {
            @Override public Parsed parseMentions(Object text) { return new Parsed("d" + depth(300_000), List.of()); }
        };
        String[] got = new String[1];
        Thread adapter = new Thread(null, () -> {
            try {
                got[0] = serve(new Adapter(deep), "{\"id\":1,\"op\":\"mention.parse\",\"args\":{\"text\":\"x\"}}\n".getBytes(StandardCharsets.UTF_8)).get(0);
            } catch (Exception e) {
                got[0] = e.toString();
            }
        }, "adapter", 1L << 30); // as Adapter.serve's thread
        adapter.start();
        adapter.join();
        check(got[0].startsWith("{\"id\":1,\"ok\":false,\"error\":{\"code\":null,\"message\":\"StackOverflowError on the JVM's default thread stack"),
                "a parse too deep for a default stack fails there: " + got[0]);
    }

    static final String WORLD = "{\"sessions\":["
            + "{\"header\":{\"id\":\"a\",\"cwd\":\"/r\",\"createdAt\":1,\"extra\":true},\"title\":\"A\",\"surface\":{\"capturedThroughSeq\":7,\"events\":[1]}},"
            + "{\"header\":{\"id\":\"b\",\"createdAt\":2},\"title\":\"B\",\"titleError\":\"no title\",\"readError\":\"gone\"},"
            + "{\"header\":{\"id\":\"c\",\"createdAt\":3},\"title\":null,\"titleError\":null,\"surface\":null,\"readError\":null}],"
            + "\"listError\":null}";

    static <T> T run(Loop loop, CompletableFuture<T> f) throws Throwable {
        return loop.run(() -> f);
    }

    static void world() throws Throwable {
        World w = World.of(Js.parse(WORLD));
        Loop loop = new Loop();
        World.Query q = w.query(loop, Js.UNDEFINED, null);
        List<SessionQuery.SessionRecord> rs = loop.run(() -> q.listSessions(null));
        eq(3, rs.size(), "every session listed");
        eq("/r", rs.get(0).header().cwd(), "cwd");
        check(rs.get(1).header().cwd() == null && rs.get(0).persisted() && !rs.get(0).live(), "no cwd; persisted, not live");
        eq(true, rs.get(0).header().value().get("extra"), "headers keep unknown keys");
        List<SessionQuery.TitleSettlement> ts = loop.run(() -> q.readTitleSnapshots(List.of("c", "a", "zz", "a", "b"), null));
        eq(4, ts.size(), "one settlement per unique id");
        eq("c a zz b", ts.get(0).sessionId() + " " + ts.get(1).sessionId() + " " + ts.get(2).sessionId() + " " + ts.get(3).sessionId(), "first-occurrence order");
        check(ts.get(0).fulfilled() && ts.get(0).title() == null, "a null title is no title");
        check(ts.get(1).fulfilled() && "A".equals(ts.get(1).title()), "a title");
        check(!ts.get(2).fulfilled() && "session not found".equals(ts.get(2).reason().getMessage()), "an unknown id settles rejected");
        check(!ts.get(3).fulfilled() && "no title".equals(ts.get(3).reason().getMessage()), "titleError wins over title");
        SessionQuery.Surface s = loop.run(() -> q.readSurface("a"));
        eq(7.0, s.capturedThroughSeq(), "capturedThroughSeq");
        eq(List.of(1.0), s.events(), "events as given");
        SessionQuery.Surface c = loop.run(() -> q.readSurface("c"));
        check(c.capturedThroughSeq() == null && c.events().isEmpty(), "a null surface reads as no events, seq null");
        for (String id : new String[] {"b", "nope"}) {
            try {
                loop.run(() -> q.readSurface(id));
                check(false, "reading " + id + " fails");
            } catch (RuntimeException e) {
                check(true, "");
            }
        }
        eq(List.of("a", "c", "b", "nope"), q.reads(), "reads recorded in call order");
        eq(List.of("c", "a", "zz", "a", "b"), q.titleReads(), "title reads recorded as asked");
        eq(1, q.lists(), "lists counted");
        World failing = World.of(Js.parse("{\"sessions\":[],\"listError\":\"down\"}"));
        Loop l2 = new Loop();
        try {
            l2.run(() -> failing.query(l2, Js.UNDEFINED, null).listSessions(null));
            check(false, "listError rejects the listing");
        } catch (RuntimeException e) {
            eq("down", e.getMessage(), "the listing's error");
        }
        for (String bad : new String[] {"{\"sessions\":[{\"header\":{\"id\":\"a\",\"cwd\":null,\"createdAt\":1}}]}", "{\"sessions\":{}}",
                "{\"sessions\":[],\"x\":1}", "[]", "{\"sessions\":[{\"header\":{\"id\":1,\"createdAt\":1}}]}"}) {
            try {
                World.of(Js.parse(bad));
                check(false, "malformed world accepted: " + bad);
            } catch (World.ProtocolError e) {
                check(true, "");
            }
        }
    }

    /**
     * The cancel modes, with a prepare composed as the seed's: every read started, the first
     * failure at once, raced with the signal.
     */
    static String prepare(String mode, String... ids) throws Throwable {
        World w = World.of(Js.parse("{\"sessions\":[{\"header\":{\"id\":\"a\",\"createdAt\":1}},{\"header\":{\"id\":\"b\",\"createdAt\":1},\"readError\":\"b fails\"},{\"header\":{\"id\":\"c\",\"createdAt\":1}}]}"));
        Signal signal = mode == null ? null : new Signal();
        if ("before".equals(mode)) signal.abort();
        Loop loop = new Loop();
        World.Query q = w.query(loop, mode == null ? Js.UNDEFINED : mode, signal);
        q.arm(ids[0], ids.length - 1); // as the adapter arms a prepare
        boolean[] abortedInCall = {false};
        try {
            return loop.run(() -> {
                if (signal != null && signal.aborted()) return CompletableFuture.completedFuture("cancelled");
                CompletableFuture<String> out = new CompletableFuture<>();
                for (String id : ids) {
                    q.readSurface(id).whenComplete((v, e) -> {
                        if (e != null) out.complete("read failed: " + e.getMessage());
                    });
                    if (signal != null && signal.aborted() && id.equals(ids[0])) abortedInCall[0] = true;
                }
                List<CompletableFuture<SessionQuery.Surface>> none = List.of();
                if (signal != null) {
                    signal.onAbort(() -> out.complete("cancelled"));
                    if (signal.aborted()) out.complete("cancelled");
                }
                return out.thenApply(x -> x + (abortedInCall[0] ? " (aborted in the call)" : "") + " reads=" + q.reads());
            });
        } catch (RuntimeException e) {
            return "error " + e;
        }
    }

    static void cancelModes() throws Throwable {
        eq("read failed: b fails reads=[a, b, c]", prepare("during-read", "a", "b", "c"), "during-read: a failing other read is seen before the abort");
        eq("cancelled reads=[a, c]", prepare("during-read", "a", "c"), "during-read: the held read never settles, the abort comes");
        eq("cancelled reads=[b]", prepare("during-read", "b"), "during-read: a held read that would fail never fails");
        eq("cancelled (aborted in the call) reads=[a, c]", prepare("at-call", "a", "c"), "at-call: the first call aborts as it is made");
        eq("cancelled", prepare("before", "a"), "before: aborted when the call starts");
        eq("read failed: b fails reads=[a, b]", prepare("never", "a", "b"), "never: the work completes under a live signal");
        eq("read failed: b fails reads=[b]", prepare(null, "b"), "no signal");
    }

    static final String CANCEL_WORLD = "{\"sessions\":[{\"header\":{\"id\":\"a\",\"createdAt\":1}},{\"header\":{\"id\":\"b\",\"createdAt\":1},\"readError\":\"b fails\"},{\"header\":{\"id\":\"c\",\"createdAt\":1}}]}";

    /** A seed-like answer to the reads' outcomes: "read failed" on the first failure, "cancelled" at the abort. */
    interface Body {
        CompletableFuture<String> run(World.Query q, Signal signal, CompletableFuture<String> out);
    }

    static String race(String mode, String hold, int others, Body body) throws Throwable {
        Signal signal = new Signal();
        Loop loop = new Loop();
        World.Query q = World.of(Js.parse(CANCEL_WORLD)).query(loop, mode, signal);
        q.arm(hold, others);
        return loop.run(() -> {
            CompletableFuture<String> out = new CompletableFuture<>();
            signal.onAbort(() -> out.complete("cancelled"));
            return body.run(q, signal, out);
        });
    }

    /** Runs r on a thread of the port's own after ms (a port on an executor). */
    static void later(long ms, Runnable r) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                return;
            }
            r.run();
        });
        t.setDaemon(true);
        t.start();
    }

    /**
     * The rule counts the other reads and their outcomes (spec/protocol.md, cancel), whatever
     * the threads a port uses: the first three failed when the kit aborted in a macrotask once
     * no microtask was queued.
     */
    static void cancelByOutcomes() throws Throwable {
        // A port that starts its other read late, on a thread of its own.
        eq("read failed", race("during-read", "a", 1, (q, signal, out) -> {
            q.readSurface("a");
            later(30, () -> q.readSurface("b").whenComplete((v, e) -> { if (e != null) out.complete("read failed"); }));
            return out;
        }), "during-read: a late failing read decides, not the loop's quiet");
        // A port that acts on a failure on another thread, checking the signal as the seed does.
        eq("read failed", race("during-read", "a", 1, (q, signal, out) -> {
            q.readSurface("a");
            q.readSurface("b").whenComplete((v, e) -> {
                if (e != null) later(30, () -> out.complete(signal.aborted() ? "cancelled" : "read failed"));
            });
            return out;
        }), "during-read: no abort after a failure");
        // The held call is the first source's read, whichever read is made first.
        eq("c then cancelled", race("during-read", "a", 1, (q, signal, out) -> {
            String[] first = {null};
            q.readSurface("c").thenAccept(v -> first[0] = v.session().id());
            q.readSurface("a");
            return out.thenApply(x -> first[0] + " then " + x);
        }), "during-read: the held call is the first source's read, the others counted");
        // at-call: a read made before the held one settles after the abort.
        eq("b failed after the abort", race("at-call", "a", 1, (q, signal, out) -> {
            CompletableFuture<String> r = new CompletableFuture<>();
            q.readSurface("b").whenComplete((v, e) -> r.complete("b failed " + (signal.aborted() ? "after" : "before") + " the abort"));
            q.readSurface("a");
            return r;
        }), "at-call: other calls return after the abort");
        // A port that waits for every read, the held one included, is not left waiting.
        eq("cancelled", race("during-read", "a", 1, (q, signal, out) -> {
            CompletableFuture.allOf(q.readSurface("a"), q.readSurface("b")).whenComplete((v, e) -> out.complete("settled"));
            return out;
        }), "during-read: a backstop after a failure");
    }

    /** A host that enqueues what it was told, sharing a list the mutations could reach. */
    static void host() throws Throwable {
        final class HostPort implements Port, Port.Host {
            @Override public String encodeUri(Object id) { return ""; }
            @Override public String decodeUri(Object uri) { return ""; }
            @Override public String formatMention(Object id, Object l) { return ""; }
            @Override public Parsed parseMentions(Object t) { return null; }
            @Override public Service newService(SessionQuery q, Object c) { return new TestPort().newService(q, c); }
            @Override public CompletableFuture<List<Js.JsObject>> deliver(Service s, Agent a, String text) {
                return CompletableFuture.completedFuture(List.of(
                        Js.obj("source", Js.obj("kind", "session-reference"), "role", "user", "id", "random"),
                        Js.obj("source", Js.obj("kind", "user"), "content", Js.list(Js.obj("type", "text", "text", text)), "role", "user")));
            }
        }
        Adapter a = new Adapter(new HostPort());
        String req = "{\"id\":1,\"op\":\"host.send\",\"args\":{\"world\":{\"sessions\":[{\"header\":{\"id\":\"s\",\"createdAt\":1}}]},"
                + "\"agent\":{\"id\":\"me\"},\"running\":true,\"text\":\"hi\",\"mutations\":[{\"op\":\"compact\",\"sessionId\":\"s\",\"summary\":\"x\"},{\"op\":\"delete\",\"sessionId\":\"s\"}]}}\n"
                + "{\"id\":2,\"op\":\"host.send\",\"args\":{\"world\":{\"sessions\":[]},\"agent\":{\"id\":\"me\"},\"text\":\"hi\",\"mutations\":[{\"op\":\"delete\",\"sessionId\":\"s\"}]}}\n";
        List<String> got = serve(a, req.getBytes(StandardCharsets.UTF_8));
        String msgs = "[{\"source\":{\"kind\":\"session-reference\"},\"role\":\"user\"},{\"source\":{\"kind\":\"user\"},\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"role\":\"user\"}]";
        eq("{\"id\":1,\"ok\":true,\"result\":{\"pending\":" + msgs + ",\"log\":" + msgs + ",\"replay\":" + msgs + "}}", got.get(0), "host.send to a running target (0.0.1-rc.1)");
        check(got.get(1).startsWith("{\"id\":2,\"ok\":false,\"error\":{\"code\":\"ADAPTER_PROTOCOL\""), "a mutation of an unknown session is ADAPTER_PROTOCOL: " + got.get(1));
    }
}
