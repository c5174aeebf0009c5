package sessionref.kit;

import java.util.ArrayList;
import java.util.List;

/**
 * host.send (spec/protocol.md): the port's {@link Port.Host} says what a host enqueues for the
 * text; this model keeps the target's inbox, steps it, and reads its durable log before and
 * after the source mutations.
 */
final class HostModel {
    private HostModel() {}

    static Object send(Adapter adapter, Port.Host host, Js.JsObject args) throws Throwable {
        Port.Agent agent = World.agent(args.get("agent"));
        if (!args.has("world")) throw new World.ProtocolError("missing required argument \"world\"");
        World w = adapter.world(args.get("world")).copy(); // mutations change this request's copy only
        if (!(args.get("text") instanceof String text)) throw new World.ProtocolError("text is not a string");
        Object rv = args.get("running");
        if (rv != Js.UNDEFINED && rv != null && !(rv instanceof Boolean)) throw new World.ProtocolError("running is not a boolean");
        boolean running = Boolean.TRUE.equals(rv);
        boolean contextFirst = "0.0.1-rc.1".equals(((Port) host).profile());
        Loop loop = new Loop();
        Port.Service svc = ((Port) host).newService(w.query(loop, null, null), args.get("config"));
        List<Object> pending = new ArrayList<>();
        if (running && !contextFirst) {
            // 0.1.0-rc.8 parses and prepares in the step that claims the inbox: until then the
            // direct message waits as typed (SR-HOST-8).
            pending.add(Js.obj("source", Js.obj("kind", "user"), "content", Js.list(Js.obj("type", "text", "text", text)), "role", "user"));
        }
        // On a default stack, as mention.parse: the host parses the text (Adapter.onPortStack).
        List<Js.JsObject> messages = Adapter.onPortStack(() -> loop.run(() -> host.deliver(svc, agent, text)));
        List<Object> log = frozen(messages); // the log is written when the target steps
        if (running && contextFirst) pending.addAll(frozen(messages));
        mutate(w, args.get("mutations"));
        return Js.obj("pending", pending, "log", log, "replay", frozen(messages));
    }

    /** The messages as JSON written now: a later change to what they share cannot reach these. */
    private static List<Object> frozen(List<Js.JsObject> messages) throws Js.SyntaxError {
        List<Object> out = new ArrayList<>();
        for (Js.JsObject m : messages) out.add(Js.parse(Js.stringify(Adapter.withoutId(m))));
        return out;
    }

    /** Applies host.send's mutations (append, compact, delete) to the request's world. */
    static void mutate(World w, Object mv) {
        if (mv == Js.UNDEFINED || mv == null) return;
        if (!(mv instanceof List<?> list)) throw new World.ProtocolError("mutations is not an array");
        for (Object m : list) {
            if (!(m instanceof Js.JsObject o) || !(o.get("sessionId") instanceof String id)) {
                throw new World.ProtocolError("a mutation is {op, sessionId, …}");
            }
            Js.JsObject s = w.find(id);
            if (s == null) throw new World.ProtocolError("mutation names unknown session " + Js.quote(id));
            if (!(s.get("surface") instanceof Js.JsObject)) s.put("surface", Js.obj("capturedThroughSeq", null, "events", new ArrayList<>()));
            Js.JsObject surface = (Js.JsObject) s.get("surface");
            if (!(surface.get("events") instanceof List)) surface.put("events", new ArrayList<>());
            Object op = o.get("op");
            if ("append".equals(op) && o.get("events") instanceof List<?> events) {
                @SuppressWarnings("unchecked") List<Object> ev = (List<Object>) surface.get("events");
                ev.addAll(events);
            } else if ("compact".equals(op)) {
                Js.JsObject src = Js.obj("kind", "plugin", "plugin", "compact", "compactionId", "c-mutation");
                surface.put("events", Js.list(Js.obj("type", "user/message", "seq", 0.0, "data",
                        Js.obj("id", "m-compact", "role", "user", "content", Js.list(Js.obj("type", "text", "text", o.get("summary"))), "source", src))));
            } else if ("delete".equals(op)) {
                w.sessions.remove(s);
            } else {
                throw new World.ProtocolError("bad mutation " + Js.stringify(o));
            }
        }
    }
}
