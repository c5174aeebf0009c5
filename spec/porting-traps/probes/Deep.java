// How deep a label java.util.regex can take with the mention regex before StackOverflowError (not a catalogue entry; see the notes).
import java.util.regex.*;
public class Deep { public static void main(String[] a) { Pattern p = Pattern.compile("@\\[((?:\\\\.|[^\\\\\\]])*)\\]\\((dsh-session:[^\\s)]*)\\)|(dsh-session:[A-Za-z0-9_-]+)");
 for (int n : new int[]{1000, 2000, 5000, 10000, 20000, 50000}) { String s = "@[" + "ab\\]".repeat(n / 4) + "](dsh-session:IiI)";
  try { System.out.println(n + " " + p.matcher(s).find()); } catch (StackOverflowError e) { System.out.println(n + " StackOverflowError"); } } } }
