package sessionref.kit;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JavaScript values as the protocol carries them, and JSON text as JavaScript reads and writes
 * it. A value is {@code null} (JSON null), {@link #UNDEFINED} (an absent key), a
 * {@link String} (UTF-16 code units, lone surrogates included), a {@link Double} (an IEEE 754
 * double: -0, integers past 2^53 and all), a {@link Boolean}, a {@link List} of values, or a
 * {@link JsObject} (keys in JavaScript's property order).
 */
public final class Js {
    private Js() {}

    /** JavaScript's undefined: an absent argument or key. */
    public static final Object UNDEFINED = new Object() {
        @Override public String toString() { return "undefined"; }
    };

    /** Number.MAX_SAFE_INTEGER, 2^53-1. */
    public static final double MAX_SAFE_INTEGER = 9007199254740991.0;

    /** Number.isSafeInteger(v): a number that is an integer of magnitude at most 2^53-1. */
    public static boolean isSafeInteger(Object v) {
        if (!(v instanceof Double)) return false;
        double d = (Double) v;
        return !Double.isNaN(d) && !Double.isInfinite(d) && Math.floor(d) == d && Math.abs(d) <= MAX_SAFE_INTEGER;
    }

    /** The JavaScript type of a value for a message: "a string", "null", "an object" … */
    public static String kind(Object v) {
        if (v == null) return "null";
        if (v == UNDEFINED) return "undefined";
        if (v instanceof String) return "a string";
        if (v instanceof Double) return "a number";
        if (v instanceof Boolean) return "a boolean";
        if (v instanceof List) return "an array";
        if (v instanceof JsObject) return "an object";
        return v.getClass().getName();
    }

    // ---------------------------------------------------------------- JSON.stringify

    /**
     * JSON.stringify(value) exactly as JavaScript writes it: no whitespace, keys in order,
     * lone surrogates as lowercase \\udXXX escapes, U+2028/U+2029, '<', '>' and '&' raw,
     * numbers as Number.prototype.toString writes them (non-finite ones as null), undefined
     * keys left out and undefined array elements written null. A top-level undefined yields
     * Java null (JavaScript's undefined result).
     */
    public static String stringify(Object value) {
        if (value == UNDEFINED) return null;
        StringBuilder b = new StringBuilder();
        write(b, value);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v) {
        if (v == null || v == UNDEFINED) {
            b.append("null");
        } else if (v instanceof String) {
            quote(b, (String) v);
        } else if (v instanceof Double) {
            double d = (Double) v;
            b.append(Double.isNaN(d) || Double.isInfinite(d) ? "null" : numberToString(d));
        } else if (v instanceof Boolean) {
            b.append(((Boolean) v) ? "true" : "false");
        } else if (v instanceof List) {
            b.append('[');
            boolean first = true;
            for (Object e : (List<?>) v) {
                if (!first) b.append(',');
                first = false;
                write(b, e);
            }
            b.append(']');
        } else if (v instanceof JsObject) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : ((JsObject) v).entries()) {
                if (e.getValue() == UNDEFINED) continue;
                if (!first) b.append(',');
                first = false;
                quote(b, e.getKey());
                b.append(':');
                write(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof Number) {
            write(b, ((Number) v).doubleValue());
        } else {
            throw new IllegalArgumentException("not a JavaScript value: " + v.getClass().getName());
        }
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** JSON.stringify of a string: its quoted form, appended to b. */
    public static void quote(StringBuilder b, String s) {
        b.append('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); continue;
                case '\\': b.append("\\\\"); continue;
                case '\b': b.append("\\b"); continue;
                case '\f': b.append("\\f"); continue;
                case '\n': b.append("\\n"); continue;
                case '\r': b.append("\\r"); continue;
                case '\t': b.append("\\t"); continue;
                default:
            }
            boolean lone = false;
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    b.append(c).append(s.charAt(++i));
                    continue;
                }
                lone = true;
            } else if (Character.isLowSurrogate(c)) {
                lone = true;
            }
            if (c < 0x20 || lone) {
                b.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }

    /** JSON.stringify of a string. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2);
        quote(b, s);
        return b.toString();
    }

    // ---------------------------------------------------------------- Number::toString

    /**
     * Number.prototype.toString(d) (ECMA-262 Number::toString, radix 10): the shortest digits
     * that read back as d, the closest to d when several do (ties to even), in JavaScript's
     * notation (1e+21, 1.5e-7, 0.000001, 123456789012345680000). JDK 17's Double.toString is
     * neither shortest nor in this notation (2.0E-7 for 2e-7).
     */
    public static String numberToString(double d) {
        if (Double.isNaN(d)) return "NaN";
        if (d == 0) return "0";
        if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
        if (d < 0) return "-" + numberToString(-d);
        String digits;
        int n; // the decimal point's position: value = 0.digits × 10^n
        BigDecimal exact = new BigDecimal(d);
        String found = null;
        int foundExp = 0;
        for (int p = 1; p <= 17 && found == null; p++) {
            BigDecimal down = exact.round(new MathContext(p, RoundingMode.FLOOR));
            BigDecimal up = exact.round(new MathContext(p, RoundingMode.CEILING));
            boolean downOk = down.doubleValue() == d, upOk = up.doubleValue() == d;
            BigDecimal pick = null;
            if (downOk && upOk) {
                int c = exact.subtract(down).compareTo(up.subtract(exact));
                if (c < 0) pick = down;
                else if (c > 0) pick = up;
                else pick = down.unscaledValue().testBit(0) ? up : down; // a tie: the even digits
            } else if (downOk) {
                pick = down;
            } else if (upOk) {
                pick = up;
            }
            if (pick != null) {
                BigDecimal stripped = pick.stripTrailingZeros();
                found = stripped.unscaledValue().toString();
                foundExp = found.length() - stripped.scale();
            }
        }
        if (found == null) throw new AssertionError("no round-trip digits for " + d); // 17 digits always round-trip
        digits = found;
        n = foundExp;
        int k = digits.length();
        StringBuilder b = new StringBuilder();
        if (k <= n && n <= 21) {
            b.append(digits);
            for (int i = 0; i < n - k; i++) b.append('0');
        } else if (0 < n && n <= 21) {
            b.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            b.append("0.");
            for (int i = 0; i < -n; i++) b.append('0');
            b.append(digits);
        } else {
            int e = n - 1;
            b.append(digits.charAt(0));
            if (k > 1) b.append('.').append(digits, 1, k);
            b.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
        }
        return b.toString();
    }

    // ---------------------------------------------------------------- JSON.parse

    /** A JSON text that JSON.parse rejects. */
    public static final class SyntaxError extends Exception {
        public SyntaxError(String message) { super(message); }
    }

    /**
     * JSON.parse(text): strict JSON (RFC 8259) into Js values; \\udXXX escapes of lone
     * surrogates are kept as they are. Nesting deeper than 10,000 is refused rather than
     * exhausting the stack.
     */
    public static Object parse(String text) throws SyntaxError {
        Parser p = new Parser(text);
        p.ws();
        Object v = p.value(0);
        p.ws();
        if (p.i != text.length()) throw p.err("unexpected text after the value");
        return v;
    }

    private static final class Parser {
        final String s;
        int i;

        Parser(String s) { this.s = s; }

        SyntaxError err(String what) { return new SyntaxError(what + " at offset " + i); }

        void ws() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') i++;
                else break;
            }
        }

        Object value(int depth) throws SyntaxError {
            if (depth > 10000) throw err("nesting too deep");
            if (i >= s.length()) throw err("unexpected end");
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    JsObject o = new JsObject();
                    ws();
                    if (peek('}')) { i++; return o; }
                    while (true) {
                        ws();
                        if (!peek('"')) throw err("expected a key");
                        String k = string();
                        ws();
                        if (!peek(':')) throw err("expected ':'");
                        i++;
                        ws();
                        o.put(k, value(depth + 1));
                        ws();
                        if (peek(',')) { i++; continue; }
                        if (peek('}')) { i++; return o; }
                        throw err("expected ',' or '}'");
                    }
                }
                case '[': {
                    i++;
                    List<Object> a = new ArrayList<>();
                    ws();
                    if (peek(']')) { i++; return a; }
                    while (true) {
                        ws();
                        a.add(value(depth + 1));
                        ws();
                        if (peek(',')) { i++; continue; }
                        if (peek(']')) { i++; return a; }
                        throw err("expected ',' or ']'");
                    }
                }
                case '"': return string();
                case 't': return lit("true", Boolean.TRUE);
                case 'f': return lit("false", Boolean.FALSE);
                case 'n': return lit("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return number();
                    throw err("unexpected character");
            }
        }

        boolean peek(char c) { return i < s.length() && s.charAt(i) == c; }

        Object lit(String word, Object v) throws SyntaxError {
            if (!s.startsWith(word, i)) throw err("unexpected token");
            i += word.length();
            return v;
        }

        Double number() throws SyntaxError {
            int start = i;
            if (peek('-')) i++;
            if (peek('0')) i++;
            else if (digit()) { while (digit()) i++; }
            else throw err("bad number");
            if (peek('.')) { i++; if (!digit()) throw err("bad number"); while (digit()) i++; }
            if (peek('e') || peek('E')) {
                i++;
                if (peek('+') || peek('-')) i++;
                if (!digit()) throw err("bad number");
                while (digit()) i++;
            }
            // Double.parseDouble rounds correctly, as JavaScript does (-0 and overflow to
            // Infinity included).
            return Double.parseDouble(s.substring(start, i));
        }

        boolean digit() { return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9'; }

        String string() throws SyntaxError {
            i++; // the opening quote
            StringBuilder b = null;
            int start = i;
            while (true) {
                if (i >= s.length()) throw err("unterminated string");
                char c = s.charAt(i);
                if (c == '"') {
                    String out = b == null ? s.substring(start, i) : b.append(s, start, i).toString();
                    i++;
                    return out;
                }
                if (c < 0x20) throw err("control character in string");
                if (c != '\\') { i++; continue; }
                if (b == null) b = new StringBuilder();
                b.append(s, start, i);
                i++;
                if (i >= s.length()) throw err("unterminated escape");
                char e = s.charAt(i++);
                switch (e) {
                    case '"': b.append('"'); break;
                    case '\\': b.append('\\'); break;
                    case '/': b.append('/'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'n': b.append('\n'); break;
                    case 'r': b.append('\r'); break;
                    case 't': b.append('\t'); break;
                    case 'u': {
                        if (i + 4 > s.length()) throw err("bad \\u escape");
                        int v = 0;
                        for (int j = 0; j < 4; j++) {
                            char x = s.charAt(i + j);
                            int h = x >= '0' && x <= '9' ? x - '0' : x >= 'a' && x <= 'f' ? x - 'a' + 10 : x >= 'A' && x <= 'F' ? x - 'A' + 10 : -1;
                            if (h < 0) throw err("bad \\u escape");
                            v = v * 16 + h;
                        }
                        i += 4;
                        b.append((char) v);
                        break;
                    }
                    default: throw err("bad escape");
                }
                start = i;
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    /** A deep copy of a JSON value (structuredClone of one). */
    public static Object copy(Object v) {
        if (v instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object e : (List<?>) v) out.add(copy(e));
            return out;
        }
        if (v instanceof JsObject) {
            JsObject out = new JsObject();
            for (Map.Entry<String, Object> e : ((JsObject) v).entries()) out.put(e.getKey(), copy(e.getValue()));
            return out;
        }
        return v;
    }

    /** Buffer.byteLength(s, "utf8"): UTF-8 bytes, a lone surrogate counted as U+FFFD (3). */
    public static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) n += 1;
            else if (c < 0x800) n += 2;
            else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) { n += 4; i++; }
            else n += 3;
        }
        return n;
    }

    /**
     * A JSON object: string keys in JavaScript's property order, the array-index keys ("0" to
     * "4294967294") ascending first, then the others in insertion order. A request's object
     * comes in its text's order ({"b":1,"1":2}); JSON.parse, and so the seed, lists "1" first
     * (TRAP-JSON-KEY-ORDER).
     */
    public static final class JsObject implements Iterable<Map.Entry<String, Object>> {
        private final LinkedHashMap<String, Object> m = new LinkedHashMap<>();

        /** Sets key to v (a key set again keeps its place, as in JavaScript) and returns this. */
        public JsObject put(String key, Object v) { m.put(key, v); return this; }

        /** The value of key, or UNDEFINED when it has none. */
        public Object get(String key) { return m.containsKey(key) ? m.get(key) : UNDEFINED; }

        /** Whether the object has key (Object.hasOwn). */
        public boolean has(String key) { return m.containsKey(key); }

        /** Removes key. */
        public JsObject remove(String key) { m.remove(key); return this; }

        /** The number of keys. */
        public int size() { return m.size(); }

        /** The keys and values in property order. */
        public Iterable<Map.Entry<String, Object>> entries() { return ordered(); }

        @Override public Iterator<Map.Entry<String, Object>> iterator() { return ordered().iterator(); }

        private Collection<Map.Entry<String, Object>> ordered() {
            boolean indices = false;
            for (String k : m.keySet()) if (arrayIndex(k) >= 0) { indices = true; break; }
            if (!indices) return m.entrySet();
            List<Map.Entry<String, Object>> out = new ArrayList<>(m.entrySet());
            // List.sort is stable: the other keys keep their order, after every index.
            out.sort(Comparator.comparingLong(e -> { long i = arrayIndex(e.getKey()); return i >= 0 ? i : Long.MAX_VALUE; }));
            return out;
        }

        /** The value of k when it is an array index (canonical, 0 to 2^32 - 2), else -1. */
        private static long arrayIndex(String k) {
            int n = k.length();
            if (n == 0 || n > 10 || (k.charAt(0) == '0' && n > 1)) return -1;
            long v = 0;
            for (int i = 0; i < n; i++) {
                char c = k.charAt(i);
                if (c < '0' || c > '9') return -1;
                v = v * 10 + (c - '0');
            }
            return v <= 4294967294L ? v : -1;
        }

        @Override public boolean equals(Object o) { return o instanceof JsObject && ((JsObject) o).m.equals(m); }

        @Override public int hashCode() { return m.hashCode(); }

        @Override public String toString() { return stringify(this); }
    }

    /** Starts an object: Js.obj("a", 1.0, "b", "x"). */
    public static JsObject obj(Object... kv) {
        JsObject o = new JsObject();
        for (int i = 0; i + 1 < kv.length; i += 2) o.put((String) kv[i], kv[i + 1]);
        return o;
    }

    /** A list of values: Js.list(a, b). */
    public static List<Object> list(Object... vs) {
        List<Object> out = new ArrayList<>();
        for (Object v : vs) out.add(v);
        return out;
    }
}
