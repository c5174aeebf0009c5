// Small behaviours of the running JDK that the catalogue cites; each line is "what: result".
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.regex.*;
public class Misc {
  interface F { Object get() throws Exception; }
  static void show(String what, F f) {
    Object r; try { r = f.get(); } catch (Throwable e) { r = "throws " + e.getClass().getSimpleName() + ": " + e.getMessage(); }
    if (r instanceof byte[]) r = Arrays.toString((byte[]) r);
    System.out.println(what + ": " + r);
  }
  public static void main(String[] a) {
    show("version", () -> System.getProperty("java.version"));
    Pattern p = Pattern.compile("^[A-Za-z0-9_-]+$");
    for (String s : new String[]{"IiI\n", "IiI\r\n", "IiI\u2028", "IiI\u0085", "!!\nIiI"}) {
      show("find ^..$ " + s.codePoints().mapToObj(Integer::toHexString).toList(), () -> p.matcher(s).find());
      show("matches " + s.codePoints().mapToObj(Integer::toHexString).toList(), () -> p.matcher(s).matches());
    }
    for (String label : new String[]{"$1", "$0", "\\1", "a\\b", "$x"})
      show("replaceAll '@'+" + label, () -> "@[x]".replaceAll("@\\[(x)\\]", "@" + label));
    show("replaceAll with quoteReplacement $1", () -> "@[x]".replaceAll("@\\[(x)\\]", Matcher.quoteReplacement("@$1")));
    StringBuilder big = new StringBuilder("@[");
    for (int i = 0; i < 100000; i++) big.append(i % 2 == 0 ? "ab" : "\\]");
    big.append("](dsh-session:IiI)");
    show("mention regex on a 300000-char label", () -> Pattern.compile("@\\[((?:\\\\.|[^\\\\\\]])*)\\]\\((dsh-session:[^\\s)]*)\\)|(dsh-session:[A-Za-z0-9_-]+)").matcher(big).find());
    show("lone surrogate getBytes(UTF_8)", () -> "\ud800".getBytes(StandardCharsets.UTF_8));
    show("BOM new String", () -> new String(new byte[]{(byte)0xef,(byte)0xbb,(byte)0xbf,'a'}, StandardCharsets.UTF_8).length());
    show("\"😀\".contains(\"\\ud83d\")", () -> "😀".contains("\ud83d"));
    show("\"😀\".length(), codePointCount", () -> "😀".length() + " " + "😀".codePointCount(0, 2));
    Base64.Encoder enc = Base64.getUrlEncoder();
    show("getUrlEncoder", () -> enc.encodeToString("\"~~\"".getBytes()));
    show("getUrlEncoder().withoutPadding()", () -> enc.withoutPadding().encodeToString("\"~~\"".getBytes()));
    show("getUrlDecoder unpadded IiI", () -> new String(Base64.getUrlDecoder().decode("IiI")));
    show("getUrlDecoder padded IiI=", () -> new String(Base64.getUrlDecoder().decode("IiI=")));
    show("getUrlDecoder trailing bits IiJ", () -> new String(Base64.getUrlDecoder().decode("IiJ")));
    show("getUrlDecoder with +", () -> Base64.getUrlDecoder().decode("In5+"));
    show("getMimeDecoder skips invalid", () -> new String(Base64.getMimeDecoder().decode("Ii\n*I")));
    for (double d : new double[]{2.0, 1e16, 1e21, 1e-7, 4.9e-324, -0.0, 123456789012345680000.0})
      show("Double.toString " + d, () -> Double.toString(d));
    show("Integer.parseInt(\"-0\")", () -> Integer.parseInt("-0"));
    Integer[] xs = new Integer[64]; for (int i = 0; i < 64; i++) xs[i] = i;
    Arrays.sort(xs, Comparator.comparingInt(x -> x % 3));
    boolean stable = true; for (int i = 1; i < 64; i++) if (xs[i-1] % 3 == xs[i] % 3 && xs[i-1] > xs[i]) stable = false;
    final boolean st = stable; show("Arrays.sort(Object[]) stable", () -> st);
    Set<String> hs = new HashSet<>(List.of("session-b", "session-a", "zeta", "alpha"));
    show("HashSet iteration of [session-b, session-a, zeta, alpha]", () -> hs);
    show("\"ß\".toUpperCase().toLowerCase()", () -> "ß".toUpperCase().toLowerCase());
    show("\"\\u0130\".toLowerCase(Locale.ROOT) length", () -> "\u0130".toLowerCase(Locale.ROOT).length());
    show("Character.toLowerCase(0x130)", () -> Integer.toHexString(Character.toLowerCase(0x130)));
    show("\"AΣ\".toLowerCase(ROOT)", () -> "AΣ".toLowerCase(Locale.ROOT));
    show("\"A0Σ\".toLowerCase(ROOT)", () -> "A0Σ".toLowerCase(Locale.ROOT));
    show("\"A.Σ\".toLowerCase(ROOT) (U+002E is Case_Ignorable)", () -> "A.Σ".toLowerCase(Locale.ROOT));
    show("\"é\".equals(\"e\\u0301\")", () -> "\u00e9".equals("e\u0301"));
  }
}
