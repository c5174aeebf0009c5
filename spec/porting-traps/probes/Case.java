// Same output as case.js, with String.toLowerCase(Locale.ROOT) of the running JDK.
import java.util.Locale;
public class Case {
  public static void main(String[] args) {
    StringBuilder out = new StringBuilder();
    for (int cp = 0; cp <= 0x10FFFF; cp++) {
      if (cp >= 0xD800 && cp <= 0xDFFF) continue;
      String c = new String(Character.toChars(cp));
      String l = c.toLowerCase(Locale.ROOT);
      int a = ("A" + c + "\u03a3").toLowerCase(Locale.ROOT).endsWith("\u03c2") ? 1 : 0;
      int b = ("A\u03a3" + c).toLowerCase(Locale.ROOT).charAt(1) == '\u03c3' ? 1 : 0;
      if (!l.equals(c) || a == 1 || b == 1) {
        out.append(Integer.toHexString(cp).toUpperCase()).append('\t');
        StringBuilder h = new StringBuilder();
        l.codePoints().forEach(x -> { if (h.length() > 0) h.append(' '); h.append(Integer.toHexString(x).toUpperCase()); });
        out.append(h).append('\t').append(a).append(b).append('\n');
      }
    }
    System.out.print(out);
  }
}
