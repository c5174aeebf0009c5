import java.util.*; import java.io.*; import java.util.Locale;
public class Probe { public static void main(String[] a) throws Exception {
  StringBuilder lo = new StringBuilder(), sg = new StringBuilder();
  for (int cp = 0; cp < 0x110000; cp++) { if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    String c = new String(Character.toChars(cp)); String l = c.toLowerCase(Locale.ROOT);
    if (!l.equals(c)) { lo.append(cp).append(':'); l.codePoints().forEach(x -> lo.append(x).append(',')); lo.append('\n'); }
    String s1 = (c + "Σ").toLowerCase(Locale.ROOT), s2 = ("A" + c + "Σ").toLowerCase(Locale.ROOT), s3 = ("AΣ" + c).toLowerCase(Locale.ROOT);
    int f = (s1.endsWith("ς")?1:0) | (s2.endsWith("ς")?2:0) | (s3.charAt(1)=='σ'?4:0);
    if (f != 0) sg.append(cp).append(':').append(f).append('\n');
  }
  try (PrintWriter w = new PrintWriter(a[0], "UTF-8")) { w.print(lo); } try (PrintWriter w = new PrintWriter(a[1], "UTF-8")) { w.print(sg); }
}}
