// classes.js for java.util.regex.Pattern: default flags, then (suffix "-ucc") UNICODE_CHARACTER_CLASS.
import java.util.regex.Pattern;
public class Classes {
  public static void main(String[] args) {
    String[][] classes = {{"s", "\\s"}, {"dot", "."}, {"w", "\\w"}, {"d", "\\d"}};
    for (int flags : new int[]{0, Pattern.UNICODE_CHARACTER_CLASS})
      for (String[] c : classes) {
        Pattern p = Pattern.compile(c[1], flags);
        StringBuilder out = new StringBuilder(); int start = -1;
        for (int cp = 0; cp <= 0x110000; cp++) {
          boolean ok = cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF) && p.matcher(new String(Character.toChars(cp))).matches();
          if (ok && start < 0) start = cp;
          if (!ok && start >= 0) { out.append(out.length() > 0 ? " " : "").append(start == cp - 1 ? Integer.toHexString(start) : Integer.toHexString(start) + "-" + Integer.toHexString(cp - 1)); start = -1; }
        }
        System.out.println(c[0] + (flags != 0 ? "-ucc" : "") + ": " + out);
      }
  }
}
