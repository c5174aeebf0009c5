package example;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * String.prototype.toLocaleLowerCase in Node's default (en-US) locale: ICU's full lowercase
 * mapping of Unicode 15 per code point (CaseData), and the final sigma decided as ICU decides
 * it. JDK 17's String.toLowerCase has Unicode 13 and another final-sigma rule
 * (TRAP-CASE-UNICODE-VERSION, TRAP-CASE-FINAL-SIGMA-PROPERTIES).
 */
final class Lower {
    private Lower() {}

    private static final Map<Integer, String> LOWER = new HashMap<>();
    private static final int[] CASED = ranges(CaseData.CASED), IGNORABLE = ranges(CaseData.CASE_IGNORABLE);

    static {
        for (String e : CaseData.LOWER.trim().split(" ")) {
            int colon = e.indexOf(':');
            StringBuilder b = new StringBuilder();
            for (String cp : e.substring(colon + 1).split(",")) b.appendCodePoint(Integer.parseInt(cp, 16));
            LOWER.put(Integer.parseInt(e.substring(0, colon), 16), b.toString());
        }
    }

    private static int[] ranges(String text) {
        String[] parts = text.trim().split(" ");
        int[] out = new int[parts.length * 2];
        for (int i = 0; i < parts.length; i++) {
            int dash = parts[i].indexOf('-');
            out[2 * i] = Integer.parseInt(parts[i].substring(0, dash), 16);
            out[2 * i + 1] = Integer.parseInt(parts[i].substring(dash + 1), 16);
        }
        return out;
    }

    private static boolean in(int[] ranges, int cp) {
        int i = Arrays.binarySearch(ranges, cp);
        return i >= 0 || (-i - 1) % 2 == 1;
    }

    /** toLocaleLowerCase(s). */
    static String lower(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int n = Character.charCount(cp);
            if (cp == 0x3A3) {
                b.append(casedBefore(s, i) && !casedAfter(s, i + 1) ? 'ς' : 'σ');
            } else {
                String l = LOWER.get(cp);
                if (l != null) b.append(l);
                else b.appendCodePoint(cp);
            }
            i += n;
        }
        return b.toString();
    }

    // ICU's isFollowedByCasedLetter: skip case-ignorable code points; the next one decides.
    private static boolean casedBefore(String s, int i) {
        while (i > 0) {
            int cp = s.codePointBefore(i);
            i -= Character.charCount(cp);
            if (in(IGNORABLE, cp)) continue;
            return in(CASED, cp);
        }
        return false;
    }

    private static boolean casedAfter(String s, int i) {
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (in(IGNORABLE, cp)) continue;
            return in(CASED, cp);
        }
        return false;
    }
}
