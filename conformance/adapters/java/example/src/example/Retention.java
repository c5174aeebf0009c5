package example;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import sessionref.kit.Js;
import sessionref.kit.Js.JsObject;
import sessionref.kit.SessionQuery;

/** Projection, the byte cap and truncation (the seed's projection.js, and TextRetainer). */
final class Retention {
    private Retention() {}

    /** stringifyTagSafeJson: JSON.stringify with every "<" written \u003c. */
    static String tagSafe(Object v) {
        return Js.stringify(v).replace("<", "\\u003c");
    }

    static final class Item {
        final String role;
        String text;
        final boolean checkpoint;
        final String originalText;
        int omittedBytes;
        int size = -1; // tag-safe UTF-8 bytes of {"role","text"}, cached

        Item(String role, String text, boolean checkpoint) {
            this.role = role;
            this.text = text;
            this.checkpoint = checkpoint;
            this.originalText = text;
        }

        int size() {
            if (size < 0) size = Js.utf8Length(tagSafe(Js.obj("role", role, "text", text)));
            return size;
        }
    }

    record Retained(JsObject data, boolean compacted, int originalMessages, int retainedMessages, int omittedMessages, long omittedBytes) {}

    /** A JavaScript property read: null and undefined throw a TypeError, primitives have none. */
    static Object prop(Object v, String key) {
        if (v == null || v == Js.UNDEFINED) throw new ExamplePort.TypeError("Cannot read properties of " + v + " (reading '" + key + "')");
        return v instanceof JsObject o ? o.get(key) : Js.UNDEFINED;
    }

    static String textContent(Object content) {
        if (!(content instanceof List<?> blocks)) throw new ExamplePort.TypeError("content.flatMap is not a function");
        StringBuilder b = new StringBuilder();
        boolean first = true;
        for (Object block : blocks) {
            if ("text".equals(prop(block, "type")) && prop(block, "text") instanceof String t) {
                if (!first) b.append('\n');
                first = false;
                b.append(t);
            }
        }
        return b.toString();
    }

    /** projectSessionConversation. */
    static List<Item> project(SessionQuery.Surface snapshot) {
        List<Item> out = new ArrayList<>();
        for (Object event : snapshot.events()) {
            Object type = prop(event, "type");
            if ("user/message".equals(type)) {
                Object data = prop(event, "data");
                Object source = prop(data, "source");
                boolean checkpoint = "plugin".equals(prop(source, "kind")) && "compact".equals(prop(source, "plugin"));
                if (!checkpoint && !"user".equals(prop(source, "kind"))) continue;
                String text = textContent(prop(data, "content"));
                if (!text.isEmpty()) out.add(new Item("user", text, checkpoint));
            } else if ("assistant/message".equals(type)) {
                String text = textContent(prop(prop(prop(event, "data"), "message"), "content"));
                if (!text.isEmpty()) out.add(new Item("assistant", text, false));
            } else if (!"tool/result".equals(type)) {
                throw new RuntimeException("Unexpected session-reference surface event: " + Js.stringify(type));
            }
        }
        return out;
    }

    /** retainReferencedSession: the data within maxBytes and its stats, or null. */
    static Retained retain(SessionQuery.Surface snapshot, String label, long maxBytes) {
        List<Item> original = project(snapshot);
        List<Item> retained = new ArrayList<>();
        for (Item it : original) {
            Item c = new Item(it.role, it.text, it.checkpoint);
            retained.add(c);
        }
        JsObject empty = data(snapshot, label, List.of());
        int base = Js.utf8Length(tagSafe(empty)); // with "conversation":[]
        int omittedMessages = 0;
        long droppedOmitted = 0;
        while (size(base, retained) > maxBytes) {
            int newest = retained.size() - 1, drop = -1;
            for (int i = 0; i < retained.size(); i++) {
                if (!retained.get(i).checkpoint && i != newest) { drop = i; break; }
            }
            if (drop < 0) break;
            Item removed = retained.remove(drop);
            omittedMessages++;
            droppedOmitted += Js.utf8Length(removed.originalText);
        }
        while (size(base, retained) > maxBytes) {
            int longest = -1, longestBytes = 0;
            for (int i = 0; i < retained.size(); i++) {
                int b = Js.utf8Length(retained.get(i).text);
                if (b > longestBytes) { longestBytes = b; longest = i; }
            }
            if (longest < 0 || longestBytes == 0) return null;
            long overflow = size(base, retained) - maxBytes;
            long target = Math.max(0, longestBytes - overflow);
            Item item = retained.get(longest);
            String[] shortened = truncate(item.originalText, target);
            if (shortened[0].equals(item.text)) return null;
            Item next = new Item(item.role, shortened[0], item.checkpoint);
            next.omittedBytes = Integer.parseInt(shortened[1]);
            // the original text stays the original's
            retained.set(longest, withOriginal(next, item.originalText));
        }
        boolean compacted = false;
        for (Item it : original) compacted |= it.checkpoint;
        long omittedBytes = droppedOmitted;
        for (Item it : retained) omittedBytes += it.omittedBytes;
        return new Retained(data(snapshot, label, retained), compacted, original.size(), retained.size(), omittedMessages, omittedBytes);
    }

    private static Item withOriginal(Item it, String original) {
        Item c = new Item(it.role, original, it.checkpoint);
        c.text = it.text;
        c.omittedBytes = it.omittedBytes;
        return c;
    }

    private static long size(int base, List<Item> items) {
        long n = base;
        for (Item it : items) n += it.size();
        return n + Math.max(0, items.size() - 1);
    }

    private static JsObject data(SessionQuery.Surface snapshot, String label, List<Item> items) {
        List<Object> conv = new ArrayList<>();
        for (Item it : items) conv.add(Js.obj("role", it.role, "text", it.text));
        Object cwd = snapshot.session().cwd();
        return Js.obj("sessionId", snapshot.session().id(), "label", label, "cwd", cwd,
                "capturedThroughSeq", snapshot.capturedThroughSeq(), "conversation", conv);
    }

    /** truncateWithNotice: {text, omittedBytes} by the seed's bisection over TextRetainer. */
    static String[] truncate(String text, long max) {
        byte[] bytes = utf8(text);
        if (bytes.length <= max) return new String[] {text, "0"};
        long low = 0, high = max;
        String[] best = {"", Integer.toString(bytes.length)};
        while (low <= high) {
            long retainedBytes = (low + high) / 2;
            long head = (retainedBytes + 1) / 2, tail = retainedBytes / 2;
            int total = bytes.length;
            int p = (int) Math.min(head, total);
            int sLen = (int) Math.min(total - p, tail);
            int s0 = total - sLen;
            if (p + sLen < total) {
                int j = p - 1, back = 0;
                while (j >= 0 && (bytes[j] & 0xC0) == 0x80 && back < 3) { j--; back++; }
                if (j >= 0 && p > 0) {
                    int lead = bytes[j] & 0xFF;
                    int need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
                    if (j + need > p) p = j;
                }
                while (s0 < total && (bytes[s0] & 0xC0) == 0x80) s0++;
            }
            String kept = decode(Arrays.copyOfRange(bytes, 0, p)) + decode(Arrays.copyOfRange(bytes, s0, total));
            long omitted = total - p - (total - s0);
            String candidate = kept + "\n[… omitted " + omitted + " UTF-8 bytes …]";
            if (Js.utf8Length(candidate) <= max) {
                best = new String[] {candidate, Long.toString(omitted)};
                low = retainedBytes + 1;
            } else {
                high = retainedBytes - 1;
            }
        }
        return best;
    }

    /** TextEncoder: UTF-8, a lone surrogate as U+FFFD. */
    static byte[] utf8(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            if (pair) {
                if (b != null) b.append(c).append(s.charAt(i + 1));
                i++;
            } else if (Character.isSurrogate(c)) {
                if (b == null) b = new StringBuilder(s.substring(0, i));
                b.append('\uFFFD'); // getBytes would write '?'
            } else if (b != null) {
                b.append(c);
            }
        }
        return (b == null ? s : b.toString()).getBytes(StandardCharsets.UTF_8);
    }

    /** TextDecoder: UTF-8 with one leading U+FEFF stripped. */
    static String decode(byte[] b) {
        String s = new String(b, StandardCharsets.UTF_8);
        return s.startsWith("\uFEFF") ? s.substring(1) : s;
    }
}
