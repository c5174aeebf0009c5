// Java String.toLowerCase with the tr, az, lt and en locales, the default locale, and equalsIgnoreCase.
import java.util.Locale;
public class Loc { public static void main(String[] a) {
  String[] in = {"I", "\u0130", "I\u0300", "\u00cc"};
  for (String l : new String[]{"tr","az","lt","en"}) { StringBuilder sb = new StringBuilder(l + ":");
    for (String s : in) { sb.append(' '); s.toLowerCase(Locale.forLanguageTag(l)).codePoints().forEach(c -> sb.append(String.format("%04X.", c))); }
    System.out.println(sb); }
  System.out.println("default " + Locale.getDefault() + " " + "TITLE".toLowerCase());
  System.out.println("equalsIgnoreCase ß/SS " + "ß".equalsIgnoreCase("SS") + " ς/Σ " + "ς".equalsIgnoreCase("Σ") + " K/k " + "\u212a".equalsIgnoreCase("k"));
}}
